// The embedded queue: jobs in the application database (`queue_jobs`), claimed one at a time under
// a lease. A worker renews the lease while its handler runs; a worker that dies (kill -9) stops
// renewing, the lease lapses and another worker claims the job again. The attempt number is the
// claim's token: a worker whose claim lapsed can no longer complete or fail the job.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { QueueJobTable } from './tables.ts';
import type { JobHandler, JobQueue, JobState, SendOptions, WorkOptions } from './types.ts';

const DEFAULTS = { maxAttempts: 3, retryDelayMs: 1000, concurrency: 1, pollMs: 500, leaseMs: 60_000 };

export interface DatabaseQueueOptions {
  db: Db;
  /** The clock (tests move it). */
  now?: () => number;
  /** Called with an error the queue could not act on (a lost database); the queue keeps going. */
  onError?: (error: unknown) => void;
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

export class DatabaseQueue implements JobQueue {
  private readonly db: Db;
  private readonly now: () => number;
  private readonly onError: (error: unknown) => void;
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  private readonly running = new Map<string, Running>();
  /** Wakes idle workers of a queue when a job is sent to it by this process. */
  private readonly wakers = new Map<string, Set<() => void>>();
  private readonly stopping = new AbortController();

  constructor(options: DatabaseQueueOptions) {
    this.db = options.db;
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => {});
  }

  async start(): Promise<void> {
    this.stopped = false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    for (const { controller } of this.running.values()) controller.abort();
    await Promise.allSettled([...this.loops, ...[...this.running.values()].map((r) => r.done)]);
  }

  async check(): Promise<void> {
    await this.db.selectFrom('queue_jobs').select('id').limit(1).execute();
  }

  async send<T>(queue: string, data: T, options: SendOptions = {}): Promise<string | null> {
    const id = randomUUID();
    const now = this.now();
    const row: QueueJobTable = {
      id,
      queue,
      data: JSON.stringify(data ?? null),
      state: 'queued',
      run_after: now + Math.max(0, options.startAfterMs ?? 0),
      lease_until: null,
      attempts: 0,
      max_attempts: Math.max(1, options.maxAttempts ?? DEFAULTS.maxAttempts),
      retry_delay_ms: Math.max(0, options.retryDelayMs ?? DEFAULTS.retryDelayMs),
      singleton_key: options.singletonKey ?? null,
      fairness_key: options.fairnessKey ?? null,
      last_error: null,
      created_at: now,
      finished_at: null,
    };
    const inserted = await this.db.transaction().execute(async (trx) => {
      if (row.singleton_key !== null) {
        const existing = await trx
          .selectFrom('queue_jobs')
          .select('id')
          .where('queue', '=', queue)
          .where('singleton_key', '=', row.singleton_key)
          .where('state', 'in', ['queued', 'active'])
          .executeTakeFirst();
        if (existing) return false;
      }
      await trx.insertInto('queue_jobs').values(row).execute();
      return true;
    });
    if (!inserted) return null;
    for (const wake of this.wakers.get(queue) ?? []) wake();
    return id;
  }

  async work<T>(queue: string, handler: JobHandler<T>, options: WorkOptions = {}): Promise<void> {
    const concurrency = Math.max(1, options.concurrency ?? DEFAULTS.concurrency);
    const settings = { pollMs: options.pollMs ?? DEFAULTS.pollMs, leaseMs: options.leaseMs ?? DEFAULTS.leaseMs };
    for (let i = 0; i < concurrency; i++) this.loops.push(this.loop(queue, handler, settings));
  }

  async cancel(queue: string, id: string): Promise<void> {
    await this.db
      .updateTable('queue_jobs')
      .set({ state: 'cancelled', finished_at: this.now(), lease_until: null })
      .where('id', '=', id)
      .where('queue', '=', queue)
      .where('state', 'in', ['queued', 'active'])
      .execute();
    this.running.get(id)?.controller.abort();
  }

  async state(queue: string, id: string): Promise<JobState | null> {
    const row = await this.db.selectFrom('queue_jobs').select('state').where('id', '=', id).where('queue', '=', queue).executeTakeFirst();
    return row?.state ?? null;
  }

  /** One worker slot: claims a job, runs it, and again; waits `pollMs` (or a local send) when there is none. */
  private async loop<T>(queue: string, handler: JobHandler<T>, settings: { pollMs: number; leaseMs: number }): Promise<void> {
    while (!this.stopped) {
      let ran = false;
      try {
        const job = await this.claim(queue, settings.leaseMs);
        if (job) {
          ran = true;
          await this.run(job, handler, settings.leaseMs);
        }
      } catch (error) {
        // A lost database must not end the worker: it tries again after the poll interval.
        this.onError(error);
      }
      if (!ran && !this.stopped) await this.idle(queue, settings.pollMs);
    }
  }

  private async idle(queue: string, ms: number): Promise<void> {
    const wakers = this.wakers.get(queue) ?? new Set();
    this.wakers.set(queue, wakers);
    const woken = new AbortController();
    const wake = () => woken.abort();
    wakers.add(wake);
    try {
      await sleep(ms, undefined, { signal: AbortSignal.any([woken.signal, this.stopping.signal]) });
    } catch {
      // Woken by a send, or stopping.
    } finally {
      wakers.delete(wake);
    }
  }

  /** Claims the next due job of `queue` (or one whose claim lapsed); null when there is none. */
  private async claim(queue: string, leaseMs: number): Promise<QueueJobTable | null> {
    const now = this.now();
    // Parenthesized as a whole: beside the other conditions an unbracketed "or" would escape them.
    const due = sql<boolean>`((state = 'queued' and run_after <= ${now}) or (state = 'active' and lease_until < ${now}))`;
    // Fair shares: the owner with the fewest running jobs first (a job with no owner counts as its
    // own), then the longest waiting; a continuation queued behind other owners' jobs waits its turn.
    const running = sql<number>`(select count(*) from queue_jobs as mine where mine.queue = queue_jobs.queue and mine.state = 'active'
      and mine.fairness_key = queue_jobs.fairness_key)`;
    const next = this.db
      .selectFrom('queue_jobs')
      .select('id')
      .where('queue', '=', queue)
      .where(due)
      .orderBy(running)
      .orderBy('run_after')
      .orderBy('created_at')
      .limit(1);
    const claimed = await this.db
      .updateTable('queue_jobs')
      .set((eb) => ({ state: 'active', lease_until: now + leaseMs, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', next)
      .where(due)
      .returningAll()
      .executeTakeFirst();
    if (!claimed) return null;
    if (claimed.attempts > claimed.max_attempts) {
      // Claimed again after its last attempt's worker died: failed for good.
      await this.finish(claimed, 'failed', 'its worker stopped (the claim lapsed) on the last attempt');
      return this.claim(queue, leaseMs);
    }
    return claimed;
  }

  private async run<T>(job: QueueJobTable, handler: JobHandler<T>, leaseMs: number): Promise<void> {
    const controller = new AbortController();
    const renewal = setInterval(
      () => {
        void this.renew(job, leaseMs).then(
          (held) => {
            if (!held) controller.abort();
          },
          (error: unknown) => this.onError(error),
        );
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    renewal.unref();
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    this.running.set(job.id, { controller, done });
    try {
      await handler({ id: job.id, queue: job.queue, data: JSON.parse(job.data) as T, attempt: job.attempts }, controller.signal);
      await this.finish(job, 'completed', null);
    } catch (error) {
      if (!controller.signal.aborted || this.stopped) await this.failAttempt(job, error);
    } finally {
      clearInterval(renewal);
      this.running.delete(job.id);
      settle();
    }
  }

  /**
   * Updates the job only while this worker's claim holds: still active, and claimed with this
   * attempt number (a worker whose claim lapsed and was taken over no longer matches). The count of
   * rows changed says whether it did.
   */
  private async updateClaimed(job: QueueJobTable, values: Partial<QueueJobTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('queue_jobs')
      .set(values)
      .where('id', '=', job.id)
      .where('state', '=', 'active')
      .where('attempts', '=', job.attempts)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Extends the claim; false when it is no longer ours (cancelled, or claimed again after it lapsed). */
  private renew(job: QueueJobTable, leaseMs: number): Promise<boolean> {
    return this.updateClaimed(job, { lease_until: this.now() + leaseMs });
  }

  private async finish(job: QueueJobTable, state: 'completed' | 'failed', error: string | null): Promise<void> {
    await this.updateClaimed(job, { state, finished_at: this.now(), lease_until: null, last_error: error });
  }

  /**
   * A failed attempt: when stopping, the job goes back to the queue as it was (not counted); else it
   * is queued again after the backoff while attempts are left, and failed for good after the last.
   */
  private async failAttempt(job: QueueJobTable, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    if (this.stopped) {
      await this.updateClaimed(job, { state: 'queued', lease_until: null, run_after: this.now(), attempts: job.attempts - 1 });
    } else if (job.attempts >= job.max_attempts) {
      await this.finish(job, 'failed', message);
    } else {
      await this.updateClaimed(job, {
        state: 'queued',
        lease_until: null,
        last_error: message,
        run_after: this.now() + job.retry_delay_ms * 2 ** (job.attempts - 1),
      });
    }
  }
}
