// Issue 40: every PostgreSQL instance printed "MaxListenersExceededWarning: Possible EventTarget
// memory leak detected. 11 abort listeners added to [AbortSignal]": each idle pg-boss worker slot
// slept on the queue's one stop signal, and a server works 14 slots (bulk 2, webhooks 4, crawls 8).
// The app is started as `leadbase serve` starts it on PostgreSQL (pg-boss, crawls on) and left idle
// long enough for every slot to have found no job and gone to sleep more than once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/platform/config.ts';
import { dbTargets, dropPgSchema, PG_SKIP, POSTGRES_URL, type TestDatabase } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

describe('an app started on PostgreSQL (pg-boss)', { skip: PG_SKIP, timeout: 120_000 }, () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  let database: TestDatabase;
  let pgBossSchema: string;
  let t: TestApp;

  before(async () => {
    process.on('warning', onWarning);
    database = await dbTargets[1].open();
    pgBossSchema = `pgboss_${database.pgSchema}`;
    const config = loadConfig({ DATABASE_URL: POSTGRES_URL, QUEUE_PGBOSS_SCHEMA: pgBossSchema, CRAWL_ENABLED: '1' });
    assert.equal(config.queue.backend, 'pg-boss');
    t = await startTestApp(dbTargets[1], { database, deps: { config } });
  });

  after(async () => {
    process.off('warning', onWarning);
    await t?.close();
    await database?.destroy();
    if (pgBossSchema) await dropPgSchema(pgBossSchema);
  });

  it('emits no MaxListenersExceededWarning while its workers wait for jobs, and stops at once', async () => {
    // The slots poll every 500 ms: in 3 s each has slept several times.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.ok((await t.inject({ method: 'GET', url: '/readyz' })).statusCode === 200);
    const started = Date.now();
    await t.close();
    t = undefined as unknown as TestApp;
    assert.ok(Date.now() - started < 10_000, 'the sleeping worker slots wake when the queue stops');
    const listeners = warnings.filter((w) => w.name === 'MaxListenersExceededWarning');
    assert.deepEqual(
      listeners.map((w) => w.message),
      [],
    );
  });
});
