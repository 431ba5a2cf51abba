// One queue for every bulk job, fair shares across keys and operations (docs/bulk.md): a key's small
// product job is not held back by the same key's long validation lists that hold every worker.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { dbTargets, dropPgSchema, POSTGRES_URL, type TestDatabase } from '../support/db.ts';
import { PgBossQueue } from '../../src/queue/pgboss-queue.ts';
import { until } from '../support/until.ts';
import { loadConfig } from '../../src/platform/config.ts';

const SLICE_MS = 1000;
/** One slice for a worker to come free, then a share of a busy 2-core machine (the lists alone take minutes). */
const MARGIN_MS = SLICE_MS + 29_000;

for (const target of dbTargets) {
  describe(`bulk fair shares across operations (${target.name})`, { skip: target.skip, timeout: 300_000 }, () => {
    let world: MailWorld;
    let t: TestApp;
    let database: TestDatabase;
    let pgBossSchema: string | undefined;

    before(async () => {
      world = await startMailWorld();
      // Catch-all domains answer at once and free: the long lists cost no credits.
      for (const domain of ['big.test', 'more.test']) await world.domain(domain, { acceptAll: true });
      database = await target.open();
      if (database.pgSchema) pgBossSchema = `pgboss_${database.pgSchema}`;
      t = await startTestApp(target, {
        credits: 100,
        database,
        deps: {
          queue: pgBossSchema ? new PgBossQueue({ connectionString: POSTGRES_URL!, schema: pgBossSchema, cancelCheckMs: 100 }) : undefined,
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

    it("a key's company search job ends within a slice or so while its validation lists hold both workers", async (context) => {
      const list = (domain: string, n: number) => Array.from({ length: n }, (_, i) => ({ email: `p${i}@${domain}` }));
      const lists = [await t.services.bulk.create(t.keyId, list('big.test', 100_000))];
      lists.push(await t.services.bulk.create(t.keyId, list('more.test', 100_000)));
      for (const job of lists) await until(async () => (await t.services.bulk.get(t.keyId, job.id))!.status === 'running', 60_000, 50);

      const started = Date.now();
      const rows = Array.from({ length: 5 }, (_, i) => ({ company_domain: `unknown-${i}.example` }));
      const res = await t.post('/bulk', { product: 'company_search', rows });
      assert.equal(res.statusCode, 202, res.body);
      const { id } = res.json<{ id: string }>();
      await until(async () => (await t.services.bulkJobs.get(t.keyId, id))!.status === 'done', 120_000, 20);
      const took = Date.now() - started;
      const long = await Promise.all(lists.map(async (job) => (await t.services.bulk.get(t.keyId, job.id))!));
      for (const job of lists) await t.services.bulk.cancel(t.keyId, job.id);
      context.diagnostic(`company_search job of 5 rows beside the key's 200,000 addresses: ${took} ms`);
      assert.ok(
        long.every((job) => job.status !== 'done'),
        'the lists were still going: the product job did not wait for them',
      );
      assert.ok(took < MARGIN_MS, `the product job took ${took} ms beside the lists (at most ${MARGIN_MS})`);
      assert.equal((await t.services.bulkJobs.get(t.keyId, id))!.processed, 5);
    });
  });
}
