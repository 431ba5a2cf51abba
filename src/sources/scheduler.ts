// Scheduled crawls. A tick (on every instance) reserves sources that are due and unclaimed with a
// claim token and a lease, and queues one run for each on the background queue; whichever instance
// takes the job runs the source only while the token is still the source's. So a source is fetched
// once per due time however many instances tick, and a crashed instance's lease lapses and the
// source is reserved again. After each run: the history row, the next due time (the interval, or a
// capped exponential backoff with jitter after a failure), and a pause after too many failures.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import type { JobQueue } from '../queue/types.ts';
import type { RunOptions, RunResult, SourceRunner } from './runner.ts';
import type { SourceRow, SourceStatus } from './tables.ts';
import { CrawlFailureSummary } from './failures.ts';

export const CRAWL_QUEUE = 'source-crawl';

export interface CrawlSettings {
  /** How often each instance looks for due sources (CRAWL_TICK_MS). */
  tickMs: number;
  /** Sources run at once by one instance (CRAWL_CONCURRENCY). */
  concurrency: number;
  /** How long a reserved or running source is held without renewal (CRAWL_LEASE_MS). */
  leaseMs: number;
  /** First retry delay after a failure, doubled per consecutive failure (CRAWL_RETRY_MS). */
  retryBaseMs: number;
  /** Longest retry delay (CRAWL_RETRY_CAP_MS); never longer than the source's interval either. */
  retryCapMs: number;
  /** Consecutive failures after which a source is paused for the operator (CRAWL_PAUSE_AFTER). */
  pauseAfterFailures: number;
}

interface CrawlJob {
  sourceId: number;
  token: string;
}

/** Run counts per source type since start, for /metrics. */
export interface CrawlTally {
  runs: number;
  failures: number;
  notModified: number;
  held: number;
  listingsChanged: number;
}

export interface SchedulerDeps {
  db: Db;
  queue: JobQueue;
  runner: SourceRunner;
  /** Makes listings that runs left staged searchable (JobService.mergeStagedIndex). */
  mergeIndex: () => Promise<unknown>;
  settings: CrawlSettings;
  logger?: Logger;
  now?: () => number;
  /** Where failed runs are logged: a summary a minute at most (made from the logger otherwise). */
  failureLog?: CrawlFailureSummary;
}

/** The delay before retry `failures` (1 for the first), with ±25% jitter so a host's sources spread out. */
export function backoffMs(
  failures: number,
  settings: Pick<CrawlSettings, 'retryBaseMs' | 'retryCapMs'>,
  intervalMs: number,
  random = Math.random,
): number {
  const cap = Math.max(settings.retryBaseMs, Math.min(settings.retryCapMs, intervalMs));
  const delay = Math.min(cap, settings.retryBaseMs * 2 ** Math.min(30, failures - 1));
  return Math.round(delay * (0.75 + random() * 0.5));
}

export class CrawlScheduler {
  private readonly db: Db;
  private readonly now: () => number;
  private readonly settings: CrawlSettings;
  readonly tallies = new Map<string, CrawlTally>();
  private readonly failureLog: CrawlFailureSummary;
  private stopped = false;
  private readonly stopping = new AbortController();
  private loop?: Promise<void>;
  private wake?: () => void;
  private merging?: Promise<void>;
  private mergeAgain = false;

  constructor(private readonly deps: SchedulerDeps) {
    this.db = deps.db;
    this.now = deps.now ?? Date.now;
    this.settings = deps.settings;
    this.failureLog = deps.failureLog ?? new CrawlFailureSummary({ logger: deps.logger, now: this.now });
  }

  /** Works the crawl queue and ticks until stop. */
  async start(): Promise<void> {
    await this.deps.queue.work<CrawlJob>(CRAWL_QUEUE, (job, signal) => this.runReserved(job.data, signal), {
      concurrency: this.settings.concurrency,
      leaseMs: this.settings.leaseMs,
      // Runs are mostly queued by this instance's own tick, which wakes its workers; polling only
      // catches runs another instance queued, so it need not be frequent.
      pollMs: Math.min(2000, Math.max(200, this.settings.tickMs)),
    });
    this.loop ??= this.tickLoop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    this.wake?.();
    await this.loop;
    await this.merging;
    this.failureLog.flush();
  }

  /**
   * Merges staged listings into the search index soon: one merge at a time per instance, run again
   * when more runs finished meanwhile. Listings of a queued run become searchable a moment after it.
   */
  private mergeIndexSoon(): void {
    if (this.merging) {
      this.mergeAgain = true;
      return;
    }
    this.merging = (async () => {
      do {
        this.mergeAgain = false;
        try {
          await this.deps.mergeIndex();
        } catch (error) {
          this.deps.logger?.warn(
            { err: { message: (error as Error).message } },
            'crawl: merging new listings into the search index failed; the next run merges them',
          );
        }
      } while (this.mergeAgain);
    })().finally(() => {
      this.merging = undefined;
    });
  }

  private async tickLoop(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.tick();
      } catch (error) {
        this.deps.logger?.warn(
          { err: { message: (error as Error).message } },
          'crawl scheduler: could not look for due sources; trying again',
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.settings.tickMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /**
   * Reserves due sources and queues their runs; how many it queued. At most four runs per worker
   * slot are reserved at a time (across instances), so a large backlog waits in the registry, not
   * in the queue.
   */
  async tick(): Promise<number> {
    const now = this.now();
    const outstanding = await this.db
      .selectFrom('sources')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('claimed_until', '>', now)
      .executeTakeFirst();
    const room = this.settings.concurrency * 4 - Number(outstanding?.n ?? 0);
    if (room <= 0) return 0;
    const due = await this.db
      .selectFrom('sources')
      .select('id')
      .where('status', '=', 'active')
      .where('next_run_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .orderBy('next_run_at')
      .limit(room)
      .execute();
    let queued = 0;
    for (const { id } of due) {
      const token = await this.reserve(Number(id), now, false);
      if (!token) continue; // another instance reserved it first
      await this.deps.queue.send<CrawlJob>(CRAWL_QUEUE, { sourceId: Number(id), token }, { maxAttempts: 1 });
      queued++;
    }
    return queued;
  }

  /** Claims a source for one run: a token, or null when it is claimed already (or, unless `any`, no longer due). */
  private async reserve(id: number, now: number, any: boolean): Promise<string | null> {
    const token = randomUUID();
    let update = this.db
      .updateTable('sources')
      .set({ claim_token: token, claimed_until: now + this.settings.leaseMs })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]));
    if (!any) update = update.where('status', '=', 'active').where('next_run_at', '<=', now);
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? token : null;
  }

  /** A queued run: runs the source if the reservation is still this job's. */
  private async runReserved(job: CrawlJob, signal: AbortSignal): Promise<void> {
    try {
      const result = await this.runClaimed(job.sourceId, job.token, { signal, deferIndexMerge: true });
      if (result && result.counts.inserted + result.counts.updated > 0) this.mergeIndexSoon();
    } finally {
      this.wake?.(); // a slot is free: top the queue up now rather than at the next tick
    }
  }

  /**
   * Runs a source now, whatever its schedule or status (the operator's `sources run`): the result,
   * or null when another instance is running it.
   */
  async runNow(id: number, options: Omit<RunOptions, 'now'> = {}): Promise<RunResult | null> {
    const token = await this.reserve(id, this.now(), true);
    if (!token) return null;
    return this.runClaimed(id, token, options);
  }

  private async runClaimed(id: number, token: string, options: Omit<RunOptions, 'now'>): Promise<RunResult | null> {
    const source = await this.db.selectFrom('sources').selectAll().where('id', '=', id).executeTakeFirst();
    if (!source || source.claim_token !== token) return null;
    const started = this.now();
    // The lease is renewed while the run lasts; a crash stops renewing it and another instance takes over.
    const renew = setInterval(
      () => {
        this.db
          .updateTable('sources')
          .set({ claimed_until: this.now() + this.settings.leaseMs })
          .where('id', '=', id)
          .where('claim_token', '=', token)
          .execute()
          .catch(() => {});
      },
      Math.max(1000, this.settings.leaseMs / 3),
    );
    let result: RunResult;
    try {
      result = await this.deps.runner.run(source, { ...options, now: started });
    } finally {
      clearInterval(renew);
    }
    await this.finish(source, token, started, result);
    this.tally(source.type, result);
    // Failed runs are a warning, summed up a minute at a time: offline, thousands of sources fail alike
    // and a line each would bury the log (a held one says so in its status).
    const log = { source: id, type: source.type, outcome: result.outcome, counts: result.counts, error: result.error ?? undefined };
    if (result.outcome === 'failed') {
      this.deps.logger?.debug(log, 'source run failed');
      this.failureLog.add({ source: id, type: source.type, locator: source.locator, kind: result.failure ?? 'other', error: result.error });
    } else this.deps.logger?.info(log, 'source run');
    return result;
  }

  private tally(type: string, result: RunResult): void {
    let tally = this.tallies.get(type);
    if (!tally) this.tallies.set(type, (tally = { runs: 0, failures: 0, notModified: 0, held: 0, listingsChanged: 0 }));
    tally.runs++;
    if (result.outcome === 'failed') tally.failures++;
    if (result.outcome === 'not_modified') tally.notModified++;
    if (result.outcome === 'held') tally.held++;
    tally.listingsChanged += result.counts.inserted + result.counts.updated + result.counts.expired;
  }

  /** Records the run and schedules the next, if the claim is still ours. */
  private async finish(source: SourceRow, token: string, started: number, result: RunResult): Promise<void> {
    const now = this.now();
    const interval = Number(source.interval_ms);
    const failed = result.outcome === 'failed';
    const failures = failed ? Number(source.consecutive_failures) + 1 : 0;
    let status: SourceStatus = source.status;
    let reason = source.status_reason;
    if (result.outcome === 'held') {
      status = 'held';
      reason = result.heldReason ?? 'held';
    } else if (failed && failures >= this.settings.pauseAfterFailures && status === 'active') {
      status = 'paused';
      reason = `paused after ${failures} consecutive failures; the last: ${result.error}`;
    } else if (!failed && status === 'held') {
      status = 'active';
      reason = null;
    }
    const nextRun = failed ? now + Math.max(backoffMs(failures, this.settings, interval), result.retryAfterMs ?? 0) : started + interval;
    const success = !failed && result.outcome !== 'held';
    const changed = result.outcome === 'changed';
    await this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('sources')
        .set({
          status,
          status_reason: reason,
          next_run_at: nextRun,
          claim_token: null,
          claimed_until: null,
          last_attempt_at: started,
          consecutive_failures: failures,
          last_error: failed ? result.error : null,
          last_counts: JSON.stringify(result.counts),
          ...(success ? { last_success_at: now } : {}),
          ...(changed ? { last_change_at: now } : {}),
          ...(result.validators
            ? { validator_url: result.validators.url, etag: result.validators.etag, last_modified: result.validators.lastModified }
            : {}),
        })
        .where('id', '=', source.id)
        .where('claim_token', '=', token)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return; // removed, or the lease lapsed and another run took over
      await trx
        .insertInto('source_runs')
        .values({
          source_id: source.id,
          started_at: started,
          finished_at: now,
          outcome: result.outcome,
          http_status: result.httpStatus,
          ...result.counts,
          error: result.error ?? result.heldReason ?? null,
        })
        .execute();
    });
  }

  /** Waits until nothing is reserved (tests, the benchmark). */
  async idle(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const row = await this.db
        .selectFrom('sources')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('claimed_until', '>', this.now())
        .executeTakeFirst();
      if (!Number(row?.n)) return;
      await sleep(50, undefined, { signal });
    }
  }
}
