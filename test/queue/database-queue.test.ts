// The embedded queue on both databases: jobs run once each, failures are retried with backoff,
// a claim whose worker died is taken over, a stale worker cannot finish a job it lost, cancelling
// stops a job, and stopping hands unfinished work back.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { until } from '../support/until.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { DatabaseQueue } from '../../src/queue/database-queue.ts';
import type { JobState } from '../../src/queue/types.ts';

for (const target of dbTargets) {
  describe(`database queue (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    const queues: DatabaseQueue[] = [];
    const queue = () => {
      const q = new DatabaseQueue({ db: database.db });
      queues.push(q);
      return q;
    };

    before(async () => {
      database = await target.open();
    });
    after(async () => {
      await Promise.all(queues.map((q) => q.stop()));
      await database.destroy();
    });

    it('runs each job once with its data, across several workers', async () => {
      const a = queue();
      const b = queue();
      const seen: number[] = [];
      const handler = async (job: { data: { n: number }; attempt: number }) => {
        assert.equal(job.attempt, 1);
        seen.push(job.data.n);
        await sleep(2);
      };
      await a.work('once', handler, { concurrency: 3, pollMs: 20 });
      await b.work('once', handler, { concurrency: 3, pollMs: 20 });
      const ids = await Promise.all(Array.from({ length: 40 }, (_, n) => a.send('once', { n })));
      await until(async () => (await Promise.all(ids.map((id) => a.state('once', id!)))).every((s) => s === 'completed'));
      assert.deepEqual(
        [...seen].sort((x, y) => x - y),
        Array.from({ length: 40 }, (_, n) => n),
      );
    });

    it("shares the workers between owners: a later owner's job is not queued behind another owner's jobs", async () => {
      const q = queue();
      const started: string[] = [];
      for (let n = 1; n <= 4; n++) await q.send('fair', { name: `a${n}` }, { fairnessKey: 'a' });
      await q.send('fair', { name: 'b1' }, { fairnessKey: 'b' });
      await q.work<{ name: string }>(
        'fair',
        async (job) => {
          started.push(job.data.name);
          // a1 runs long: while it does, owner a holds a worker and b's job comes before a's others.
          await sleep(job.data.name === 'a1' ? 1500 : 100);
        },
        { concurrency: 2, pollMs: 10 },
      );
      await until(() => started.length === 5, 20_000);
      // First come first served would start b1 last; two slots claiming at the same instant may both take an a-job.
      assert.ok(started.indexOf('b1') <= 2, started.join(','));
    });

    it('retries a failed job after a backoff, and fails it for good when its attempts are spent', async () => {
      const q = queue();
      const attempts: Record<string, number[]> = {};
      await q.work<{ name: string; failTimes: number }>(
        'retry',
        async (job) => {
          (attempts[job.data.name] ??= []).push(job.attempt);
          if (job.attempt <= job.data.failTimes) throw new Error(`attempt ${job.attempt} failed`);
        },
        { pollMs: 10 },
      );
      const recovers = await q.send('retry', { name: 'recovers', failTimes: 1 }, { maxAttempts: 3, retryDelayMs: 30 });
      const gives = await q.send('retry', { name: 'gives-up', failTimes: 9 }, { maxAttempts: 2, retryDelayMs: 10 });
      await until(async () => (await q.state('retry', recovers!)) === 'completed' && (await q.state('retry', gives!)) === 'failed');
      assert.deepEqual(attempts, { recovers: [1, 2], 'gives-up': [1, 2] });
      const row = await database.db.selectFrom('queue_jobs').select('last_error').where('id', '=', gives!).executeTakeFirstOrThrow();
      assert.equal(row.last_error, 'attempt 2 failed');
    });

    it('one queued or active job per singleton key; a delayed job waits', async () => {
      const q = queue();
      // The start is far enough off that a busy machine's slow first steps do not reach it.
      const sent = Date.now();
      const first = await q.send('single', { v: 1 }, { singletonKey: 'board:acme', startAfterMs: 600 });
      assert.ok(first);
      assert.equal(await q.send('single', { v: 2 }, { singletonKey: 'board:acme' }), null);
      const ran: number[] = [];
      let ranAt = 0;
      await q.work<{ v: number }>(
        'single',
        async (job) => {
          ran.push(job.data.v);
          ranAt = Date.now();
        },
        { pollMs: 20 },
      );
      await sleep(60);
      assert.deepEqual(ran, [], 'not before its start');
      await until(async () => (await q.state('single', first)) === 'completed');
      assert.deepEqual(ran, [1]);
      assert.ok(ranAt >= sent + 600, `ran ${ranAt - sent} ms after it was sent, not before its start`);
      assert.ok(await q.send('single', { v: 3 }, { singletonKey: 'board:acme' }), 'allowed again once the first is done');
    });

    it('takes over a job whose worker died (its claim lapsed), and the dead claim can no longer finish it', async () => {
      // What a worker killed mid-job leaves behind: active, attempt 1, its lease past.
      const now = Date.now();
      await database.db
        .insertInto('queue_jobs')
        .values({
          id: 'orphan-1',
          queue: 'lapsed',
          data: '{"x":1}',
          state: 'active',
          run_after: now - 10_000,
          lease_until: now - 1,
          attempts: 1,
          max_attempts: 3,
          retry_delay_ms: 10,
          singleton_key: null,
          last_error: null,
          created_at: now - 10_000,
          finished_at: null,
        })
        .execute();
      const q = queue();
      const attempts: number[] = [];
      await q.work('lapsed', async (job) => void attempts.push(job.attempt), { pollMs: 10 });
      await until(async () => (await q.state('lapsed', 'orphan-1')) === 'completed');
      assert.deepEqual(attempts, [2], 'run again, as attempt 2');
      // The dead worker's claim (attempt 1) cannot touch it any more.
      const stale = await database.db
        .updateTable('queue_jobs')
        .set({ state: 'failed' })
        .where('id', '=', 'orphan-1')
        .where('state', '=', 'active')
        .where('attempts', '=', 1)
        .executeTakeFirst();
      assert.equal(Number(stale.numUpdatedRows), 0);
    });

    it('cancelling: a queued job never runs, a running one is told to stop and is not retried', async () => {
      const q = queue();
      const later = await q.send('cancel', { kind: 'later' }, { startAfterMs: 60_000 });
      await q.cancel('cancel', later!);
      let stoppedBySignal = false;
      let started = false;
      await q.work<{ kind: string }>(
        'cancel',
        async (_job, signal) => {
          started = true;
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
          stoppedBySignal = true;
          throw new Error('aborted');
        },
        { pollMs: 10 },
      );
      const running = await q.send('cancel', { kind: 'running' });
      await until(() => started);
      await q.cancel('cancel', running!);
      await until(() => stoppedBySignal);
      const states: (JobState | null)[] = [await q.state('cancel', later!), await q.state('cancel', running!)];
      assert.deepEqual(states, ['cancelled', 'cancelled']);
    });

    it('stopping hands a running job back to the queue, uncounted, for the next worker', async () => {
      const first = queue();
      let runs = 0;
      await first.work(
        'handover',
        async (_job, signal) => {
          runs += 1;
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
          throw new Error('stopped');
        },
        { pollMs: 10 },
      );
      const id = await first.send('handover', {});
      await until(() => runs === 1);
      await first.stop();
      assert.equal(await first.state('handover', id!), 'queued');
      const second = queue();
      const attempts: number[] = [];
      await second.work('handover', async (job) => void attempts.push(job.attempt), { pollMs: 10 });
      await until(async () => (await second.state('handover', id!)) === 'completed');
      assert.deepEqual(attempts, [1]);
    });
  });
}
