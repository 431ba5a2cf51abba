// The queue of PostgreSQL deployments: pg-boss (its own schema, SKIP LOCKED claims, retries with
// backoff, expiry of jobs whose worker died). The differences from the embedded queue are pg-boss's
// own: a claim is not renewed (a job running longer than its lease is failed and retried, so the
// lease must cover the longest run), and stopping lets running handlers finish instead of handing
// their jobs back.
import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { CircuitBreaker } from '../db/breaker.ts';
import { createPgPool, type PgTimeouts } from '../db/pg-pool.ts';
import { isUnavailable } from '../db/unavailable.ts';
import type { JobHandler, JobQueue, JobState, SendOptions, WorkOptions } from './types.ts';

const DEFAULTS = { maxAttempts: 3, retryDelayMs: 1000, concurrency: 1, pollMs: 500, leaseMs: 60_000 };

export interface PgBossQueueOptions {
  connectionString: string;
  /** pg-boss's schema (default "pgboss"). */
  schema?: string;
  /**
   * How often pg-boss looks for jobs whose lease ran out (their worker died) and fails them into a
   * retry (default 30 s; pg-boss's own default is 2 minutes).
   */
  maintenanceIntervalSeconds?: number;
  /** How often a running job's state is read, so a cancel reaches its handler (default 1 s). */
  cancelCheckMs?: number;
  onError?: (error: unknown) => void;
  /** Bounds of the queue's own pool (src/db/pg-pool.ts): without them a silent database wedges the queue. */
  timeouts?: PgTimeouts;
  /** The database's circuit breaker, shared with the application's pool. */
  breaker?: CircuitBreaker;
}

let rejectionsGuarded = false;

/**
 * pg-boss completes or fails a job it ran without waiting for the answer (manager.js, `onFetch`): when
 * the database is lost at that moment, the rejection is unhandled and Node ends the process. Such a
 * rejection (a lost connection, nothing else) is handed to `onError` instead; the job, still active,
 * is retried once its lease expires. Any other unhandled rejection still ends the process.
 */
function guardUnhandledRejections(onError: (error: unknown) => void): void {
  if (rejectionsGuarded) return;
  rejectionsGuarded = true;
  process.on('unhandledRejection', (reason) => {
    if (!isUnavailable(reason)) throw reason;
    onError(reason);
  });
}

const STATES: Record<string, JobState> = {
  created: 'queued',
  retry: 'queued',
  active: 'active',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

export class PgBossQueue implements JobQueue {
  private boss: PgBoss;
  private readonly pool: pg.Pool;
  private readonly created = new Map<string, Promise<void>>();
  private readonly cancelCheckMs: number;
  private readonly running = new Set<AbortController>();
  private starting?: Promise<void>;
  /** The last queue creation: the next one waits for it. */
  private creating: Promise<void> = Promise.resolve();

  constructor(private readonly options: PgBossQueueOptions) {
    // pg-boss runs its SQL on our pool, so it has the same connect, query and idle bounds and the same
    // circuit breaker as the application's: its own pool has no connect timeout, and a database that
    // accepts connections and never answers would hold its start, its sends and its workers for good.
    this.pool = createPgPool({
      connectionString: options.connectionString,
      max: 10,
      applicationName: 'leadbase-queue',
      timeouts: options.timeouts,
      breaker: options.breaker,
    });
    this.boss = this.createBoss();
    this.cancelCheckMs = options.cancelCheckMs ?? 1000;
    guardUnhandledRejections(options.onError ?? (() => {}));
  }

  private createBoss(): PgBoss {
    const boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => this.pool.query(text, values) },
      schema: this.options.schema,
      schedule: false,
      maintenanceIntervalSeconds: this.options.maintenanceIntervalSeconds ?? 30,
    });
    // A lost database is reported, never thrown from a timer: pg-boss keeps retrying.
    boss.on('error', this.options.onError ?? (() => {}));
    return boss;
  }

  /** Connects pg-boss (once); every other call waits for it, so a caller need not start the queue first. */
  start(): Promise<void> {
    this.starting ??= this.boss.start().then(
      () => {},
      (error: unknown) => {
        // pg-boss keeps a start that failed half-way as "starting" and never starts again: the next
        // call starts a fresh instance.
        this.starting = undefined;
        this.boss = this.createBoss();
        throw error;
      },
    );
    return this.starting;
  }

  async stop(): Promise<void> {
    if (this.starting) {
      for (const controller of this.running) controller.abort();
      await this.starting.catch(() => {});
      await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    }
    await this.pool.end();
  }

  async check(): Promise<void> {
    await this.start();
    await this.pool.query(`select 1 from ${this.options.schema ?? 'pgboss'}.version`);
  }

  async send<T>(queue: string, data: T, options: SendOptions = {}): Promise<string | null> {
    await this.start();
    await this.ensure(queue);
    const retryDelayMs = options.retryDelayMs ?? DEFAULTS.retryDelayMs;
    return this.boss.send(queue, data ?? {}, {
      retryLimit: Math.max(1, options.maxAttempts ?? DEFAULTS.maxAttempts) - 1,
      retryDelay: Math.max(1, Math.ceil(retryDelayMs / 1000)),
      retryBackoff: true,
      ...(options.startAfterMs ? { startAfter: new Date(Date.now() + options.startAfterMs) } : {}),
      // Under the "stately" policy jobs without a key would all share one: each gets a key of its own.
      singletonKey: options.singletonKey ?? randomUUID(),
    });
  }

  async work<T>(queue: string, handler: JobHandler<T>, options: WorkOptions = {}): Promise<void> {
    await this.start();
    await this.ensure(queue, options.leaseMs);
    const concurrency = Math.max(1, options.concurrency ?? DEFAULTS.concurrency);
    const pollingIntervalSeconds = Math.max(0.5, (options.pollMs ?? DEFAULTS.pollMs) / 1000);
    for (let i = 0; i < concurrency; i++) {
      await this.boss.work<T>(queue, { batchSize: 1, pollingIntervalSeconds, includeMetadata: true }, async ([job]) => {
        const controller = new AbortController();
        this.running.add(controller);
        // pg-boss does not tell a handler its job was cancelled: its state is read while it runs.
        const watch = setInterval(() => {
          void this.state(queue, job.id).then(
            (state) => state === 'cancelled' && controller.abort(),
            () => {},
          );
        }, this.cancelCheckMs);
        watch.unref();
        try {
          await handler({ id: job.id, queue, data: job.data, attempt: job.retryCount + 1 }, controller.signal);
        } finally {
          clearInterval(watch);
          this.running.delete(controller);
        }
      });
    }
  }

  async cancel(queue: string, id: string): Promise<void> {
    await this.start();
    await this.boss.cancel(queue, id);
  }

  async state(queue: string, id: string): Promise<JobState | null> {
    await this.start();
    const job = await this.boss.getJobById(queue, id, { includeArchive: true });
    return job ? (STATES[job.state] ?? null) : null;
  }

  /**
   * pg-boss queues exist before jobs are sent to them. "stately" allows one queued and one active
   * job per singleton key, the nearest of its policies to "one queued or active job per key" (a
   * second job of a key is taken while the first runs).
   *
   * Creating a queue attaches a partition to pg-boss's job table, and two creations at once can
   * deadlock: this instance creates one queue at a time, and a creation that fails (another
   * instance's at the same moment) is tried again after looking whether the queue exists by then.
   */
  private ensure(queue: string, leaseMs?: number): Promise<void> {
    let created = this.created.get(queue);
    if (!created) {
      created = this.creating = this.creating.catch(() => {}).then(() => this.createQueue(queue, leaseMs));
      this.created.set(queue, created);
      created.catch(() => this.created.delete(queue));
    }
    return created;
  }

  private async createQueue(queue: string, leaseMs?: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (await this.boss.getQueue(queue)) return;
      try {
        await this.boss.createQueue(queue, {
          name: queue,
          policy: 'stately',
          expireInSeconds: Math.ceil((leaseMs ?? DEFAULTS.leaseMs) / 1000),
        });
        return;
      } catch (error) {
        if (attempt === 3) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }
}
