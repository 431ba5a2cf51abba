// A source's base_url reaches a private or loopback address only when the operator named it (a
// mirror); one found by discovery never does. A failed run is logged as a warning.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { createServices, type Services } from '../../src/services.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { startMirror } from '../support/upstreams/boards.ts';

for (const target of dbTargets) {
  describe(`operator mirrors and failed-run logging (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let services: Services;
    let mirror: Awaited<ReturnType<typeof startMirror>>;
    const lines: { level: number; msg: string; error?: string }[] = [];

    before(async () => {
      mirror = await startMirror();
      database = await target.open();
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      services = createServices({
        db: database.db,
        dialect: database.dialect,
        config: loadConfig({ CRAWL_HOST_INTERVAL_MS: '0', CRAWL_USER_AGENT: 'leadbase-test (ops@example.com)' }),
        background: false,
        logger,
      });
    });
    after(async () => {
      await services.close();
      await database.destroy();
      await mirror.close();
    });

    it('reads a board from a loopback mirror the operator named', async () => {
      const { source } = await services.sources.registry.add({ type: 'greenhouse', locator: 'vaulttec', base_url: mirror.url });
      const result = (await services.sources.scheduler.runNow(Number(source.id)))!;
      assert.equal(result.outcome, 'changed', result.error ?? '');
      assert.equal(result.counts.inserted, 1);
    });

    it('refuses the same loopback address when discovery found it, and logs the failed run as a warning', async () => {
      const { source } = await services.sources.registry.add({
        type: 'greenhouse',
        locator: 'stripe',
        base_url: mirror.url,
        discovered_from: 'https://stripe.example/careers',
      });
      assert.equal(Number(source.operator_base_url), 0);
      const result = (await services.sources.scheduler.runNow(Number(source.id)))!;
      assert.equal(result.outcome, 'failed');
      assert.match(result.error!, /not a public address/);
      const logged = lines.find((l) => l.msg === 'source run failed');
      assert.ok(logged, JSON.stringify(lines));
      assert.equal(logged.level, 40, 'warn');
      // The operator naming the same address afterwards makes it theirs: the run then reads it.
      const named = await services.sources.registry.add({ type: 'greenhouse', locator: 'stripe', base_url: `${mirror.url}/` });
      assert.deepEqual([named.updated, Number(named.source.operator_base_url)], [true, 1]);
      const again = (await services.sources.scheduler.runNow(Number(source.id)))!;
      assert.equal(again.outcome, 'changed', again.error ?? '');
    });
  });
}
