// Fair shares between keys (docs/email.md, "Bulk lists"): a short list of one key is not held back by
// another key's long lists. Its time beside them is measured against its time alone, in the same run.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { dbTargets, dropPgSchema, POSTGRES_URL, type TestDatabase } from '../support/db.ts';
import { PgBossQueue } from '../../src/queue/pgboss-queue.ts';
import type { JobQueue } from '../../src/queue/types.ts';
import { until } from '../support/until.ts';
import { loadConfig } from '../../src/platform/config.ts';

const SLICE_MS = 1000;
/**
 * What a short list may take beside the long ones over its time alone: one slice for a worker to come
 * free, then a share of a busy 2-core machine with the long list's run in the same process (SQLite's
 * one writer between them: 9.0 s against 1.0 s alone at a load of 7, two test runs side by side).
 * Held back behind the long list, it would wait for 100,000 addresses: many minutes.
 */
const MARGIN_MS = SLICE_MS + 10_000;

const setups = dbTargets.map((target) => ({ target, queue: target.name === 'postgres' ? ('pg-boss' as const) : ('database' as const) }));

for (const { target, queue } of setups) {
  describe(`bulk fair shares between keys (${target.name}, ${queue} queue)`, { skip: target.skip, timeout: 300_000 }, () => {
    let world: MailWorld;
    let t: TestApp;
    let database: TestDatabase;
    let pgBossSchema: string | undefined;

    before(async () => {
      world = await startMailWorld();
      // Catch-all domains answer at once (and free): the long lists cost the test no credits.
      for (const domain of ['big.test', 'more.test', 'solo.test', 'small.test']) await world.domain(domain, { acceptAll: true });
      database = await target.open();
      let jobQueue: JobQueue | undefined;
      if (queue === 'pg-boss') {
        pgBossSchema = `pgboss_${database.pgSchema!}`;
        jobQueue = new PgBossQueue({ connectionString: POSTGRES_URL!, schema: pgBossSchema, cancelCheckMs: 100 });
      }
      t = await startTestApp(target, {
        credits: 100,
        database,
        deps: {
          queue: jobQueue,
          config: loadConfig({ BULK_SLICE_MS: String(SLICE_MS), CRAWL_ENABLED: '0' }),
          email: { ...world.emailConfig, recheckPollMs: 60_000 },
        },
      });
    });
    after(async () => {
      await t.close();
      await database.destroy();
      if (pgBossSchema) await dropPgSchema(pgBossSchema);
      await world.close();
    });

    const list = (domain: string, n: number, tag = '') => Array.from({ length: n }, (_, i) => ({ email: `p${tag}${i}@${domain}` }));
    const status = async (keyId: number, id: string) => (await t.services.bulk.get(keyId, id))!;
    /** Milliseconds from a list's submission to its end. */
    const timeToDone = async (keyId: number, domain: string): Promise<number> => {
      const started = Date.now();
      const job = await t.services.bulk.create(keyId, list(domain, 100));
      await until(async () => (await status(keyId, job.id)).status === 'done', 120_000, 20);
      const done = await status(keyId, job.id);
      assert.equal(done.processed, 100);
      return Date.now() - started;
    };

    it("finishes a 100-address list submitted after another key's 100,000-address lists within its time alone plus a margin", async (context) => {
      const small = await t.services.keys.create('small', 10 * 1000);
      const alone = await timeToDone(small.id, 'solo.test');

      // The other key's lists outnumber the workers: 100,000 addresses, then three more lists.
      const big = await t.services.keys.create('big', 10 * 1000);
      const bigJobs = [await t.services.bulk.create(big.id, list('big.test', 100_000))];
      for (let i = 0; i < 3; i++) bigJobs.push(await t.services.bulk.create(big.id, list('more.test', 5_000, `l${i}-`)));
      // Both workers are busy with the long lists before the short one comes.
      await until(async () => (await status(big.id, bigJobs[0].id)).status === 'running', 60_000, 50);
      await until(async () => (await status(big.id, bigJobs[1].id)).status === 'running', 60_000, 50);

      const beside = await timeToDone(small.id, 'small.test');
      const bigDone = (await status(big.id, bigJobs[0].id)).processed;
      for (const job of bigJobs) await t.services.bulk.cancel(big.id, job.id);
      const figures = `alone ${alone} ms, beside the long lists ${beside} ms (the long list had ${bigDone} results)`;
      context.diagnostic(`bulk fair shares (${target.name}, ${queue}): ${figures}`);
      assert.ok(bigDone < 100_000, `the long list ended first: ${figures}`);
      assert.ok(beside <= alone + MARGIN_MS, figures);
    });
  });
}
