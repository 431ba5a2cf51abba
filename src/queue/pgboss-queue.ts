// The queue of PostgreSQL deployments: pg-boss (its own schema, SKIP LOCKED claims, retries with
// backoff, expiry of jobs whose worker died). As in the embedded queue, a running job's claim is
// renewed (pg-boss 10 has no heartbeat of its own: its expiry counts from the job's started_on, which
// the worker moves forward every third of the lease), so a lease need not cover the longest run, and
// a job whose worker died is retried about one lease later. Unlike it, stopping lets running handlers
// finish instead of handing their jobs back.
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
   * How often pg-boss does its maintenance (archiving, and looking for jobs whose lease ran out;
   * default 30 s, pg-boss's own default is 2 minutes). A process working a queue also looks for
   * lapsed leases every quarter of that queue's lease, so a dead worker's job is retried about one lease later.
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

/** The field of a job's data holding its owner (SendOptions.fairnessKey); removed before the handler sees the data. */
const FAIRNESS_FIELD = '__fairness_key';

interface ClaimedJob<T> {
  id: string;
  data: T;
  retryCount: number;
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
  private readonly schema: string;
  /** Looks for lapsed leases (see watchLeases), at the pace of the shortest lease worked here. */
  private leaseWatch?: { everyMs: number; timer: NodeJS.Timeout };
  private readonly running = new Set<AbortController>();
  private readonly loops: Promise<void>[] = [];
  private stopped = false;
  /**
   * Wakes the idle worker slots when the queue stops. One set of wake-ups rather than each slot's
   * sleep listening on an AbortSignal: a server works 14 slots (bulk 2, webhooks 4, crawls 8) and a
   * signal with more than 10 listeners makes Node print MaxListenersExceededWarning on every start.
   */
  private readonly sleepers = new Set<() => void>();
  private readonly onError: (error: unknown) => void;
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
    this.schema = options.schema ?? 'pgboss';
    this.onError = options.onError ?? (() => {});
    this.boss = this.createBoss();
    this.cancelCheckMs = options.cancelCheckMs ?? 1000;
    guardUnhandledRejections(this.onError);
  }

  private createBoss(): PgBoss {
    const boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => this.pool.query(text, values) },
      schema: this.options.schema,
      schedule: false,
      maintenanceIntervalSeconds: this.options.maintenanceIntervalSeconds ?? 30,
    });
    // A lost database is reported, never thrown from a timer: pg-boss keeps retrying.
    boss.on('error', this.onError);
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
    this.stopped = true;
    for (const wake of this.sleepers) wake();
    if (this.leaseWatch) clearInterval(this.leaseWatch.timer);
    this.leaseWatch = undefined;
    if (this.starting) {
      for (const controller of this.running) controller.abort();
      // The handlers finish (their signal aborted) and their jobs are completed or failed.
      await Promise.allSettled(this.loops);
      await this.starting.catch(() => {});
      await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    }
    await this.pool.end();
  }

  async check(): Promise<void> {
    await this.start();
    await this.pool.query(`select 1 from ${this.schema}.version`);
  }

  async send<T>(queue: string, data: T, options: SendOptions = {}): Promise<string | null> {
    await this.start();
    await this.ensure(queue);
    const retryDelayMs = options.retryDelayMs ?? DEFAULTS.retryDelayMs;
    // pg-boss has no column for the owner: it travels in the job's data, under a name of its own.
    const owned = options.fairnessKey !== undefined && typeof data === 'object' && data !== null && !Array.isArray(data);
    const payload = owned ? { ...data, [FAIRNESS_FIELD]: options.fairnessKey } : (data ?? {});
    return this.boss.send(queue, payload, {
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
    if (options.leaseMs !== undefined) await this.keepLease(queue, options.leaseMs);
    const concurrency = Math.max(1, options.concurrency ?? DEFAULTS.concurrency);
    const pollMs = Math.max(500, options.pollMs ?? DEFAULTS.pollMs);
    const leaseMs = options.leaseMs ?? DEFAULTS.leaseMs;
    this.watchLeases(leaseMs);
    for (let i = 0; i < concurrency; i++) this.loops.push(this.loop(queue, handler, pollMs, leaseMs));
  }

  /**
   * One worker slot: fetches a job, runs it, and again; waits `pollMs` when there is none. Jobs are
   * fetched here rather than through pg-boss's work(), which fails a handler running longer than the
   * job's expiry: a claim renewed while its handler runs may run for as long as it needs.
   */
  private async loop<T>(queue: string, handler: JobHandler<T>, pollMs: number, leaseMs: number): Promise<void> {
    while (!this.stopped) {
      let job: ClaimedJob<T> | undefined;
      try {
        job = await this.claim<T>(queue);
      } catch (error) {
        // A lost database must not end the worker: it tries again after the poll interval.
        this.onError(error);
      }
      if (job) await this.run(queue, job, handler, leaseMs);
      else if (!this.stopped) await this.idle(pollMs);
    }
  }

  /** Waits `ms`, or until the queue stops. */
  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  /**
   * Claims the next job of `queue` as pg-boss's own fetch does (its states, retry count and
   * skip-locked row lock), in fair-share order: the owner with the fewest active jobs first, then
   * pg-boss's order (priority, then the longest waiting). The owner is read from the job's data.
   */
  private async claim<T>(queue: string): Promise<ClaimedJob<T> | undefined> {
    await this.start();
    const s = this.schema;
    const owner = (alias: string) => `${alias}.data->>'${FAIRNESS_FIELD}'`;
    const { rows } = await this.boss.getDb().executeSql(
      `with next as (
         select j.id from ${s}.job j
         where j.name = $1 and j.state < 'active' and j.start_after < now()
         order by (select count(*) from ${s}.job a where a.name = $1 and a.state = 'active' and ${owner('a')} = ${owner('j')}),
           j.priority desc, j.created_on, j.id
         limit 1
         for update skip locked
       )
       update ${s}.job j set state = 'active', started_on = now(),
         retry_count = case when j.started_on is not null then j.retry_count + 1 else j.retry_count end
       from next where j.name = $1 and j.id = next.id
       returning j.id, j.data, j.retry_count`,
      [queue],
    );
    const row = rows[0] as { id: string; data: unknown; retry_count: number } | undefined;
    if (!row) return undefined;
    let data = row.data;
    if (data && typeof data === 'object' && FAIRNESS_FIELD in data) {
      const { [FAIRNESS_FIELD]: _owner, ...rest } = data as Record<string, unknown>;
      data = rest;
    }
    return { id: row.id, data: data as T, retryCount: row.retry_count };
  }

  private async run<T>(queue: string, job: ClaimedJob<T>, handler: JobHandler<T>, leaseMs: number): Promise<void> {
    const controller = new AbortController();
    this.running.add(controller);
    // The claim is lost when the job is no longer active (cancelled, or its lease lapsed and it was
    // failed into a retry, perhaps already taken by another worker): the handler is told to stop and
    // the job is left as it is.
    let lost = false;
    const renewal = setInterval(
      () =>
        void this.renew(queue, job.id).then(
          (held) => {
            if (held) return;
            lost = true;
            controller.abort();
          },
          (error: unknown) => this.onError(error),
        ),
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    renewal.unref();
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
      if (!lost) await this.boss.complete(queue, job.id);
    } catch (error) {
      // Failed into a retry while attempts are left (pg-boss's backoff), for good after the last.
      if (!lost)
        await this.boss
          .fail(queue, job.id, { message: error instanceof Error ? error.message : String(error) })
          .catch((e: unknown) => this.onError(e));
    } finally {
      clearInterval(renewal);
      clearInterval(watch);
      this.running.delete(controller);
    }
  }

  /**
   * pg-boss fails jobs whose lease lapsed (their worker died) into a retry only in its maintenance,
   * every maintenanceIntervalSeconds: for a short lease that is run here every quarter of it too.
   */
  private watchLeases(leaseMs: number): void {
    const everyMs = Math.max(250, Math.floor(leaseMs / 4));
    if (this.leaseWatch && this.leaseWatch.everyMs <= everyMs) return;
    if (this.leaseWatch) clearInterval(this.leaseWatch.timer);
    const timer = setInterval(() => void this.boss.expire().catch(() => {}), everyMs);
    timer.unref();
    this.leaseWatch = { everyMs, timer };
  }

  /**
   * Extends a running job's claim: pg-boss fails an active job into a retry once started_on plus its
   * expiry has passed, so moving started_on forward is a renewal (a lost database only skips one).
   */
  private async renew(queue: string, id: string): Promise<boolean> {
    const { rows } = await this.boss
      .getDb()
      .executeSql(`update ${this.schema}.job set started_on = now() where name = $1 and id = $2 and state = 'active' returning id`, [
        queue,
        id,
      ]);
    return rows.length > 0;
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

  /** A queue made before with another lease (an older version, another setting, a send first) gets the worker's. */
  private async keepLease(queue: string, leaseMs: number): Promise<void> {
    const expireInSeconds = Math.ceil(leaseMs / 1000);
    const existing = await this.boss.getQueue(queue);
    if (existing && existing.expireInSeconds !== expireInSeconds) {
      await this.boss.updateQueue(queue, { name: queue, policy: existing.policy, expireInSeconds });
    }
  }

  private async createQueue(queue: string, leaseMs?: number): Promise<void> {
    const expireInSeconds = Math.ceil((leaseMs ?? DEFAULTS.leaseMs) / 1000);
    for (let attempt = 1; ; attempt++) {
      if (await this.boss.getQueue(queue)) return;
      try {
        await this.boss.createQueue(queue, { name: queue, policy: 'stately', expireInSeconds });
        return;
      } catch (error) {
        if (attempt === 3) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }
}
