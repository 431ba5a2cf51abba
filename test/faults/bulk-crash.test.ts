// An instance killed (kill -9) in the middle of a bulk job: another instance on the same database
// resumes it within about one lease of the kill (the claim is renewed while a run works, so a slice
// longer than the lease does not delay the takeover), and every result is charged exactly once, each
// ledger row naming exactly the list positions it paid for. On SQLite with the embedded queue, and on
// PostgreSQL with pg-boss.
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
import { openDatabase } from '../../src/db/database.ts';
import { BULK_OPERATION } from '../../src/email/bulk.ts';
import { positionsOfBulkCharge } from '../support/bulk-ledger.ts';

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
    // A slice far longer than the lease: a run hands over only after LEASE_MS * 3, yet a dead one is
    // taken over about LEASE_MS after its instance died.
    const LEASE_MS = 6000;
    let databaseUrl: string;

    before(async () => {
      world = await startMailWorld();
      // Each RCPT takes 50 ms: a list of 300 takes several seconds even over the engine's pooled
      // sessions, so the kill (after the first results are charged, within a second) lands mid-job.
      await world.domain('slow.test', { mailboxes: MAILBOXES, tarpitMs: 50 });
      databaseUrl = `sqlite:${join(dir, 'db.sqlite')}`;
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
        BULK_LEASE_MS: String(LEASE_MS),
        BULK_SLICE_MS: String(LEASE_MS * 3),
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

    it('resumes on another instance and charges every result once', async (t) => {
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
      const killedAt = Date.now();
      const resumed = await startServerProcess(env);
      const listeningAt = Date.now();
      resumed.key = key;
      second = resumed;
      const atKill = await call<Job>(resumed, `/email-validate/bulk/${job.id}`);
      assert.ok(atKill.processed < 300, `the kill landed mid-job (${atKill.processed} of 300 done)`);

      // Taken over once the dead run's claim lapsed: at most LEASE_MS after the kill (or as soon as the
      // new instance listens, on a machine slow to start it), plus the time to notice and retry, which
      // on a loaded 2-core machine (CI beside another full run) took up to one more lease.
      await until(async () => (await call<Job>(resumed, `/email-validate/bulk/${job.id}`)).processed > atKill.processed, 120_000, 100);
      const late = Date.now() - Math.max(killedAt + LEASE_MS, listeningAt);
      t.diagnostic(`lease ${LEASE_MS} ms: taken over ${Date.now() - killedAt} ms after the kill (${late} ms after the lease lapsed)`);
      assert.ok(
        late < 2 * LEASE_MS,
        `taken over ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill, ${late} ms after the lease lapsed`,
      );

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

      // Each ledger row names the positions it paid for: no position in two rows, amounts exact.
      const handle = openDatabase(databaseUrl);
      try {
        const charges = await handle.db
          .selectFrom('credit_ledger')
          .select(['request_id', 'amount'])
          .where('operation', '=', BULK_OPERATION)
          .execute();
        const items = await handle.db.selectFrom('email_bulk_items').select(['seq', 'cost']).where('job_id', '=', job.id).execute();
        const cost = new Map(items.map((i) => [Number(i.seq), Number(i.cost)]));
        const seen = new Set<number>();
        for (const charge of charges) {
          const positions = positionsOfBulkCharge(job.id, charge.request_id!);
          for (const p of positions) {
            assert.ok(!seen.has(p), `position ${p} is in two ledger rows (${charge.request_id})`);
            seen.add(p);
          }
          assert.equal(
            positions.reduce((sum, p) => sum + cost.get(p)!, 0),
            Number(charge.amount),
            charge.request_id!,
          );
        }
        assert.equal(seen.size, 300);
      } finally {
        await handle.close();
      }
    });
  });
}
