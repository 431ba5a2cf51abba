import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/platform/config.ts';
import { createServices, type Services } from '../../src/services.ts';
import { PgBossQueue } from '../../src/queue/pgboss-queue.ts';
import { dbTargets, dropPgSchema, POSTGRES_URL, reopen, type TestDatabase } from '../support/db.ts';
import { until } from '../support/until.ts';
import { GREENHOUSE_GA, greenhouseBoard, startCrawlWorld, type CrawlWorld } from './crawl-world.ts';

const BOARDS = 24;

// Two instances on one database, each ticking and working the crawl queue: every source is
// fetched once per due time, and one host sees one fetch at a time.
for (const target of dbTargets) {
  describe(`crawls shared by two instances (${target.name})`, { skip: target.skip }, () => {
    let world: CrawlWorld;
    let database: TestDatabase;
    let second: TestDatabase;
    let instances: Services[];
    let pgBossSchema: string | undefined;

    before(async () => {
      world = await startCrawlWorld();
      for (let i = 0; i < BOARDS; i++) greenhouseBoard(world, `board${i}`, () => GREENHOUSE_GA.replace(/"id":721/, `"id":${7000 + i}`));
      world.route('/v1/boards/slow0/jobs', async (_request, response) => {
        await sleep(20);
        response.end(GREENHOUSE_GA);
      });
      database = await target.open();
      second = reopen(database);
      if (target.name === 'postgres') pgBossSchema = `pgboss_${database.pgSchema!}`;
      const config = loadConfig({ CRAWL_TICK_MS: '30', CRAWL_HOST_INTERVAL_MS: '5', CRAWL_CONCURRENCY: '4', CRAWL_LEASE_MS: '5000' });
      instances = [database, second].map((db) =>
        createServices({
          db: db.db,
          dialect: db.dialect,
          config,
          crawlAllowPrivateHosts: [world.host],
          queue: pgBossSchema ? new PgBossQueue({ connectionString: POSTGRES_URL!, schema: pgBossSchema }) : undefined,
        }),
      );
    });
    after(async () => {
      for (const services of instances) await services.close();
      await second.close();
      await database.destroy();
      if (pgBossSchema) await dropPgSchema(pgBossSchema);
      await world.close();
    });

    it('fetches each source once per due time, one fetch at a time per host', async () => {
      const registry = instances[0].sources.registry;
      const ids: number[] = [];
      for (let i = 0; i < BOARDS; i++)
        ids.push(Number((await registry.add({ type: 'greenhouse', locator: `board${i}`, base_url: world.origin, every: '1h' })).source.id));
      const jobsHits = () => [...world.hits].filter(([path]) => /\/jobs\?/.test(path)).reduce((n, [, hits]) => n + hits, 0);
      await until(async () => (await registry.list()).every((s) => s.last_success_at !== null), 60_000, 50);
      assert.equal(jobsHits(), BOARDS, 'each board fetched once');
      // Every source due again, once.
      await instances[0].db.updateTable('sources').set({ next_run_at: Date.now() }).execute();
      await until(
        async () =>
          (await registry.list()).every(
            (s) =>
              Number(s.last_attempt_at) > Number(s.created_at) + 1 && s.claim_token === null && Number(s.next_run_at) > Date.now() + 60_000,
          ),
        60_000,
        50,
      );
      await sleep(300); // nothing more is run
      assert.equal(jobsHits(), BOARDS * 2, 'each board fetched once more');
      for (const id of ids) assert.equal((await registry.history(id)).length, 2);
      assert.equal(world.peakInFlight(), 1, 'one fetch at a time to the host');
      const ran = instances.map((services) => [...services.sources.scheduler.tallies.values()].reduce((n, t) => n + t.runs, 0));
      assert.equal(ran[0] + ran[1], BOARDS * 2);
    });
  });
}
