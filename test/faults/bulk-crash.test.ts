// An instance killed (kill -9) in the middle of a bulk job: another instance on the same database
// resumes it once the queue claim's lease lapses, and every result is charged exactly once. On
// SQLite with the embedded queue, and on PostgreSQL with pg-boss.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { mailWorldEnv, startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { until } from '../support/until.ts';
import type { BulkJobView } from '../../src/email/bulk.ts';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_SKIP, POSTGRES_URL } from '../support/db.ts';

type Job = BulkJobView;

const storages = [
  { name: 'sqlite, embedded queue', skip: false as const },
  { name: 'postgres, pg-boss', skip: PG_SKIP },
];

for (const storage of storages) {
  describe(`a bulk job whose instance was killed (${storage.name})`, { skip: storage.skip, timeout: 240_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'leadbase-bulk-crash-'));
    const database = `leadbase_bulk_${randomBytes(5).toString('hex')}`;
    let world: MailWorld;
    let env: NodeJS.ProcessEnv;
    let first: ServerProcess;
    let second: ServerProcess | undefined;
    const MAILBOXES = Array.from({ length: 150 }, (_, i) => `m${i}`);

    before(async () => {
      world = await startMailWorld();
      // Each RCPT takes 50 ms: a list of 300 takes several seconds even over the engine's pooled
      // sessions, so the kill (after the first results are charged, within a second) lands mid-job.
      await world.domain('slow.test', { mailboxes: MAILBOXES, tarpitMs: 50 });
      let databaseUrl = `sqlite:${join(dir, 'db.sqlite')}`;
      if (storage.skip === false && storage.name.startsWith('postgres')) {
        const admin = new pg.Client({ connectionString: POSTGRES_URL });
        await admin.connect();
        await admin.query(`create database ${database}`);
        await admin.end();
        const url = new URL(POSTGRES_URL!);
        url.pathname = `/${database}`;
        databaseUrl = url.toString();
      }
      env = {
        DATABASE_URL: databaseUrl,
        REDIS_URL: '',
        ...mailWorldEnv(world),
        BULK_LEASE_MS: '2000',
        BULK_SLICE_MS: '1000',
        STARTER_CREDITS: '1000',
      };
      first = await startServerProcess(env);
    });
    after(async () => {
      await first?.stop();
      await second?.stop();
      await world?.close();
      rmSync(dir, { recursive: true, force: true });
      if (storage.name.startsWith('postgres') && POSTGRES_URL) {
        const admin = new pg.Client({ connectionString: POSTGRES_URL });
        await admin.connect();
        await admin.query(`drop database if exists ${database} with (force)`);
        await admin.end();
      }
    });

    const call = async <T>(server: ServerProcess, path: string, init: RequestInit = {}) =>
      (await (
        await fetch(`${server.url}${path}`, { ...init, headers: { 'x-api-key': server.key ?? first.key!, ...init.headers } })
      ).json()) as T;

    it('resumes on another instance and charges every result once', async () => {
      const key = first.key!;
      const before = (await call<{ credits: number }>(first, '/credits')).credits;
      const emails = Array.from({ length: 300 }, (_, i) => `m${i}@slow.test`);
      const job = await call<Job>(first, '/email-validate/bulk', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ emails }),
      });
      assert.equal(job.total, 300);
      await until(async () => (await call<Job>(first, `/email-validate/bulk/${job.id}`)).processed > 0, 30_000, 50);
      first.child.kill('SIGKILL');
      await first.exited;
      const resumed = await startServerProcess(env);
      resumed.key = key;
      second = resumed;
      const atKill = await call<Job>(resumed, `/email-validate/bulk/${job.id}`);
      assert.ok(atKill.processed < 300, `the kill landed mid-job (${atKill.processed} of 300 done)`);

      // The embedded queue hands the slice on when its lease lapses; pg-boss when its maintenance
      // (every 30 s) finds the lapsed lease.
      await until(async () => (await call<Job>(resumed, `/email-validate/bulk/${job.id}`)).status === 'done', 120_000, 100);
      const done = await call<Job>(resumed, `/email-validate/bulk/${job.id}`);
      assert.equal(done.processed, 300);
      assert.deepEqual([done.counts.valid, done.counts.invalid], [150, 150]);
      assert.equal(done.credits_consumed, 15);
      const after = (await call<{ credits: number }>(resumed, '/credits')).credits;
      assert.equal(Math.round((before - after) * 1000), 15_000, 'charged exactly once');
      const rows = (await (await fetch(`${resumed.url}/email-validate/bulk/${job.id}/results`, { headers: { 'x-api-key': key } })).text())
        .trim()
        .split('\n');
      assert.equal(rows.length, 300);
      assert.equal(new Set(rows.map((r) => (JSON.parse(r) as { email: string }).email)).size, 300);
    });
  });
}
