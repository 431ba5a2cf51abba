// A source's base_url reaches a private or loopback address only when the operator named it (a
// mirror); one found by discovery never does. A failed run is logged as a warning (in the failures' summary).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import type { Services } from '../../src/services.ts';
import { openCrawlServices, type CrawlServices } from '../support/crawl-services.ts';
import { dbTargets } from '../support/db.ts';
import { startMirror } from '../support/upstreams/boards.ts';

for (const target of dbTargets) {
  describe(`operator mirrors and failed-run logging (${target.name})`, { skip: target.skip }, () => {
    let services: Services;
    let store: CrawlServices;
    let mirror: Awaited<ReturnType<typeof startMirror>>;
    const lines: { level: number; msg: string; error?: string }[] = [];

    before(async () => {
      mirror = await startMirror();
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      const env = { CRAWL_HOST_INTERVAL_MS: '0', CRAWL_USER_AGENT: 'leadbase-test (ops@example.com)' };
      ({ services } = store = await openCrawlServices(target, { env, logger }));
    });
    after(async () => {
      await store?.close();
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
      // The first failure after a quiet minute is logged at once, in the failures' summary.
      const logged = lines.find((l) => l.msg.startsWith('crawl failures')) as
        { level: number; msg: string; examples: { error: string }[] } | undefined;
      assert.ok(logged, JSON.stringify(lines));
      assert.equal(logged.level, 40, 'warn');
      assert.match(logged.examples[0].error, /not a public address/);
      // The operator naming the same address afterwards makes it theirs: the run then reads it.
      const named = await services.sources.registry.add({ type: 'greenhouse', locator: 'stripe', base_url: `${mirror.url}/` });
      assert.deepEqual([named.updated, Number(named.source.operator_base_url)], [true, 1]);
      const again = (await services.sources.scheduler.runNow(Number(source.id)))!;
      assert.equal(again.outcome, 'changed', again.error ?? '');
    });
  });
}
