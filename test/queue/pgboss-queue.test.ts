// The pg-boss queue on the real PostgreSQL (its own schema, dropped after): the same interface as
// the embedded queue, with pg-boss's own retry timing (whole seconds).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { until } from '../support/until.ts';
import { PG_SKIP, POSTGRES_URL } from '../support/db.ts';
import { PgBossQueue } from '../../src/queue/pgboss-queue.ts';

describe('pg-boss queue (postgres)', { skip: PG_SKIP }, () => {
  const schema = `pgboss_t_${randomBytes(5).toString('hex')}`;
  let queue: PgBossQueue;

  before(async () => {
    queue = new PgBossQueue({ connectionString: POSTGRES_URL!, schema, cancelCheckMs: 100 });
    await queue.start();
  });
  after(async () => {
    await queue.stop();
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('creates several new queues at once without a deadlock (each creation attaches a partition)', async () => {
    const started = await Promise.allSettled([
      queue.work('fresh-a', async () => {}),
      queue.work('fresh-b', async () => {}),
      queue.send('fresh-c', {}),
      queue.send('fresh-d', {}),
    ]);
    assert.deepEqual(
      started.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok')),
      ['ok', 'ok', 'ok', 'ok'],
    );
  });

  it('runs each job once with its data', async () => {
    const seen: number[] = [];
    await queue.work<{ n: number }>('once', async (job) => void seen.push(job.data.n), { concurrency: 3, pollMs: 500 });
    const ids = await Promise.all(Array.from({ length: 10 }, (_, n) => queue.send('once', { n })));
    await until(async () => (await Promise.all(ids.map((id) => queue.state('once', id!)))).every((s) => s === 'completed'), 15_000, 50);
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      Array.from({ length: 10 }, (_, n) => n),
    );
  });

  it("shares the workers between owners: a later owner's job is not queued behind another owner's jobs", async () => {
    const started: string[] = [];
    for (let n = 1; n <= 4; n++) await queue.send('fair', { name: `a${n}` }, { fairnessKey: 'a' });
    await queue.send('fair', { name: 'b1' }, { fairnessKey: 'b' });
    await queue.work<Record<string, unknown>>(
      'fair',
      async (job) => {
        // The owner travels in pg-boss's data but is not the handler's business.
        assert.deepEqual(Object.keys(job.data), ['name']);
        started.push(String(job.data.name));
        // a1 runs long: while it does, owner a holds a worker and b's job comes before a's others.
        await new Promise((resolve) => setTimeout(resolve, job.data.name === 'a1' ? 3000 : 300));
      },
      { concurrency: 2, pollMs: 500 },
    );
    await until(() => started.length === 5, 30_000, 50);
    // First come first served would start b1 last; two slots claiming at the same instant may both take an a-job.
    assert.ok(started.indexOf('b1') <= 2, started.join(','));
  });

  it('retries a failed job, and fails it for good when its attempts are spent', async () => {
    const attempts: Record<string, number[]> = {};
    await queue.work<{ name: string; failTimes: number }>(
      'retry',
      async (job) => {
        (attempts[job.data.name] ??= []).push(job.attempt);
        if (job.attempt <= job.data.failTimes) throw new Error(`attempt ${job.attempt} failed`);
      },
      { pollMs: 500 },
    );
    const recovers = await queue.send('retry', { name: 'recovers', failTimes: 1 }, { maxAttempts: 3, retryDelayMs: 1000 });
    const gives = await queue.send('retry', { name: 'gives-up', failTimes: 9 }, { maxAttempts: 2, retryDelayMs: 1000 });
    await until(
      async () => (await queue.state('retry', recovers!)) === 'completed' && (await queue.state('retry', gives!)) === 'failed',
      15_000,
      50,
    );
    assert.deepEqual(attempts, { recovers: [1, 2], 'gives-up': [1, 2] });
  });

  it('renews a running job: a run longer than its lease is not failed into a retry', async () => {
    const attempts: number[] = [];
    await queue.work<{ ms: number }>(
      'long-run',
      async (job) => {
        attempts.push(job.attempt);
        await new Promise((resolve) => setTimeout(resolve, job.data.ms));
      },
      { pollMs: 500, leaseMs: 2000 },
    );
    const id = await queue.send('long-run', { ms: 6000 }, { maxAttempts: 3 });
    await until(async () => (await queue.state('long-run', id!)) === 'completed', 30_000, 100);
    assert.deepEqual(attempts, [1], 'run once, never taken over while it worked');
  });

  it('a second queued job of a singleton key is refused; a cancelled job does not run', async () => {
    const first = await queue.send('single', { v: 1 }, { singletonKey: 'board:acme', startAfterMs: 60_000 });
    assert.ok(first);
    assert.equal(await queue.send('single', { v: 2 }, { singletonKey: 'board:acme' }), null);
    await queue.cancel('single', first);
    assert.equal(await queue.state('single', first), 'cancelled');
  });

  it("a running job's handler is told when the job is cancelled", async () => {
    let started = false;
    let aborted = false;
    await queue.work(
      'cancel-running',
      async (_job, signal) => {
        started = true;
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        aborted = true;
      },
      { pollMs: 500 },
    );
    const id = await queue.send('cancel-running', {});
    await until(() => started, 15_000, 50);
    await queue.cancel('cancel-running', id!);
    await until(() => aborted, 15_000, 50);
    assert.equal(await queue.state('cancel-running', id!), 'cancelled');
  });
});
