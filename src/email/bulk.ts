// Bulk validation jobs (docs/email.md, "Bulk lists"): a list is stored as one row per distinct
// address, worked through by the background queue in slices, each address's result stored as soon
// as it is known and charged at the single-address price in batches. A result is served only once
// it is charged; a job whose key runs out of credits pauses and looks at the balance again.
import { randomBytes } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Db } from '../db/database.ts';
import { chunk, chunkForParameters } from '../db/chunks.ts';
import { recordCharge } from '../billing/ledger.ts';
import { SpendCapReachedError } from '../billing/errors.ts';
import { unitsToCredits } from '../billing/units.ts';
import type { JobQueue, QueueJob } from '../queue/types.ts';
import { EMAIL_STATUSES, type EmailStatus } from '../contract/email.ts';
import type { EmailValidation } from '../contract/email.ts';
import { withOriginalNames } from '../contract/original-names.ts';
import { DNS_FAILING_REASON, emailValidationCost } from './messages.ts';
import type { EmailValidateInput } from './service.ts';
import type { BulkJobStatus, EmailBulkJobTable } from './tables.ts';

export const BULK_QUEUE = 'email-bulk';
export const MAX_BULK_ADDRESSES = 1_000_000;
/** The ledger's operation name for a bulk job's charges. */
export const BULK_OPERATION = 'email-validate-bulk';

const FINISHED: readonly BulkJobStatus[] = ['done', 'cancelled', 'failed'];
/** Answers that say "later", not "unknown": the address is asked again within the job's greylist deadline. */
const RETRIED_LATER: readonly string[] = ['greylisted', 'rate_limited', 'outbound_blocked', DNS_FAILING_REASON];

/** One entry of a list: the address and whatever else came with it (names, the list's other columns). */
export interface BulkEntry {
  email: unknown;
  [column: string]: unknown;
}

export interface BulkJobView {
  id: string;
  status: BulkJobStatus;
  total: number;
  duplicates: number;
  refused: number;
  processed: number;
  counts: Record<EmailStatus, number>;
  /** Credits charged so far. */
  credits_consumed: number;
  /** Why the job failed, else null. */
  failure_reason: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** A served row: the list's other columns, then every field of the single-address answer. */
export type BulkResultRow = Record<string, unknown>;

export type FinishedBulkJob = BulkJobView & { keyId: number; webhookUrl: string | null; resultsUrl: string | null };

/** The completion webhook's body: the job's figures and where its results are read. */
export const completionPayload = (job: FinishedBulkJob) => ({
  id: job.id,
  status: job.status,
  total: job.total,
  counts: job.counts,
  credits_consumed: job.credits_consumed,
  results_url: job.resultsUrl,
  ...(job.failure_reason ? { failure_reason: job.failure_reason } : {}),
});

export class BulkInputError extends Error {}

interface BulkQueueData {
  jobId: string;
}

/** Other jobs worked off the bulk queue: which messages are theirs, and their handler. */
export interface BulkQueueShare {
  accepts(data: unknown): boolean;
  run(job: QueueJob<never>, signal: AbortSignal): Promise<void>;
}

export interface BulkValidationOptions {
  db: Db;
  validator: { validateDetailed(input: EmailValidateInput): Promise<{ validation: EmailValidation; reason: string }> };
  queue: JobQueue;
  /** Addresses of one job validated at once (default 200); the engine still paces each mail host. */
  concurrency?: number;
  /** How often a run charges the results stored since the last charge (default 1 s). */
  settleEveryMs?: number;
  /** How long one run of a job works before handing over to a queued continuation, so that no run outlives a queue lease (default 60 s). */
  sliceMs?: number;
  /** The queue claim's lease (default 120 s): renewed while a run works, so a run whose instance died is taken over about this long after. */
  leaseMs?: number;
  /** How long a greylisted address waits before it is asked again (default 5 min). */
  greylistRetryMs?: number;
  /** From a job's start, how long greylisted addresses are asked again; after it their answer is unknown (default 30 min). */
  greylistDeadlineMs?: number;
  /** How long a job paused for credits waits before it looks at the balance again (default 15 s). */
  pausedCheckMs?: number;
  /** Called once when a job ends (done or failed): the completion webhook. */
  onFinished?: (job: FinishedBulkJob) => Promise<void>;
  /** Runs of one slice in all (the first and its retries) before the job fails (default 20). */
  runAttempts?: number;
  /** Wait before a failed run is tried again, doubled on each retry (default 1 s). */
  retryDelayMs?: number;
  now?: () => number;
}

/** Why a job failed: its last run's error, after how many attempts. */
export function runFailure(error: unknown, attempts: number): string {
  const message = error instanceof Error ? error.message : String(error);
  return `${message.slice(0, 500)} (the run failed ${attempts} times)`;
}

/** Most position ranges one ledger row names; a charge with more gaps is written as several rows. */
const RANGES_PER_LEDGER_ROW = 50;

/**
 * The ledger rows of one charge. Results are produced out of list order (a window of addresses is
 * validated at once, greylisted ones come back later), so the positions paid at once have gaps: a
 * row names its positions as ranges ("0-2,5,7-9"), never a span that would include positions other
 * rows pay for. `paid` is ascending, `costs` the price of each.
 */
export function ledgerRows(paid: number[], costs: number[]): { ranges: string; units: number; results: number }[] {
  const rows: { ranges: string; units: number; results: number }[] = [];
  let ranges: string[] = [];
  let units = 0;
  let results = 0;
  for (let i = 0; i < paid.length;) {
    let end = i;
    while (end + 1 < paid.length && paid[end + 1] === paid[end] + 1) end++;
    ranges.push(end > i ? `${paid[i]}-${paid[end]}` : `${paid[i]}`);
    for (let k = i; k <= end; k++) units += costs[k];
    results += end - i + 1;
    i = end + 1;
    if (ranges.length === RANGES_PER_LEDGER_ROW || i === paid.length) {
      rows.push({ ranges: ranges.join(','), units, results });
      ranges = [];
      units = 0;
      results = 0;
    }
  }
  return rows;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const emptyCounts = () => Object.fromEntries(EMAIL_STATUSES.map((s) => [s, 0])) as Record<EmailStatus, number>;

function view(row: EmailBulkJobTable): BulkJobView {
  return {
    id: row.id,
    status: row.status,
    total: Number(row.total),
    duplicates: Number(row.duplicates),
    refused: Number(row.refused),
    processed: Number(row.processed),
    counts: { ...emptyCounts(), ...(JSON.parse(row.counts) as Record<EmailStatus, number>) },
    credits_consumed: unitsToCredits(Number(row.credits_consumed)),
    failure_reason: row.failure ?? null,
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

export class BulkValidationService {
  private readonly db: Db;
  private readonly now: () => number;
  private readonly concurrency: number;
  private readonly settleEveryMs: number;
  private readonly sliceMs: number;
  private readonly leaseMs: number;
  private readonly pausedCheckMs: number;
  private readonly greylistRetryMs: number;
  private readonly greylistDeadlineMs: number;
  private readonly runAttempts: number;

  constructor(private readonly options: BulkValidationOptions) {
    this.db = options.db;
    this.now = options.now ?? Date.now;
    this.concurrency = options.concurrency ?? 200;
    this.settleEveryMs = options.settleEveryMs ?? 1000;
    this.sliceMs = options.sliceMs ?? 60_000;
    this.leaseMs = options.leaseMs ?? 120_000;
    this.pausedCheckMs = options.pausedCheckMs ?? 15_000;
    this.greylistRetryMs = options.greylistRetryMs ?? 5 * 60_000;
    this.greylistDeadlineMs = options.greylistDeadlineMs ?? 30 * 60_000;
    this.runAttempts = options.runAttempts ?? 20;
  }

  /**
   * Starts the queue's worker for bulk jobs (the server; a CLI command does not). The queue is
   * shared with the other products' bulk jobs (`others`): one set of workers, fair shares across
   * every key's jobs of every kind.
   */
  async startWorker(workerConcurrency = 2, others?: BulkQueueShare): Promise<void> {
    await this.options.queue.work<BulkQueueData>(
      BULK_QUEUE,
      (job, signal) => (others?.accepts(job.data) ? others.run(job as QueueJob<never>, signal) : this.run(job, signal)),
      { concurrency: workerConcurrency, leaseMs: this.leaseMs },
    );
  }

  /**
   * Stores a list as a queued job. Addresses repeated case-insensitively are kept once; entries
   * with no address are counted as refused. `columns` names the list's other columns (CSV).
   */
  async create(
    keyId: number,
    entries: readonly BulkEntry[],
    options: { columns?: string[]; webhookUrl?: string; resultsUrl?: (id: string) => string } = {},
  ): Promise<BulkJobView> {
    if (entries.length > MAX_BULK_ADDRESSES) {
      throw new BulkInputError(`A list holds at most ${MAX_BULK_ADDRESSES} addresses; this one has ${entries.length}.`);
    }
    const seen = new Set<string>();
    const items: { email: string; input: string }[] = [];
    let duplicates = 0;
    let refused = 0;
    for (const entry of entries) {
      const email = typeof entry.email === 'string' ? entry.email.trim() : '';
      if (!email) {
        refused++;
        continue;
      }
      const key = email.toLowerCase();
      if (seen.has(key)) {
        duplicates++;
        continue;
      }
      seen.add(key);
      const { email: _email, ...rest } = entry;
      items.push({ email, input: JSON.stringify(rest) });
    }
    if (!items.length) throw new BulkInputError('The list has no addresses.');
    const id = `bulk_${randomBytes(12).toString('hex')}`;
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('email_bulk_jobs')
        .values({
          id,
          key_id: keyId,
          status: 'queued',
          total: items.length,
          duplicates,
          refused,
          processed: 0,
          counts: '{}',
          credits_consumed: 0,
          columns: JSON.stringify(options.columns ?? []),
          webhook_url: options.webhookUrl ?? null,
          results_url: options.resultsUrl?.(id) ?? null,
          created_at: now,
          started_at: null,
          finished_at: null,
        })
        .execute();
      let seq = 0;
      for (const part of chunkForParameters(items, 5)) {
        await trx
          .insertInto('email_bulk_items')
          .values(part.map((item) => ({ job_id: id, seq: seq++, email: item.email, input: item.input, charged: 0 })))
          .execute();
      }
    });
    try {
      await this.queueRun(id, keyId);
    } catch (error) {
      // The queue did not take the job (its database stalled or went away): the caller is answered
      // 503 and sends the list again, so the stored copy is withdrawn rather than left queued forever.
      await this.db
        .transaction()
        .execute(async (trx) => {
          await trx.deleteFrom('email_bulk_items').where('job_id', '=', id).execute();
          await trx.deleteFrom('email_bulk_jobs').where('id', '=', id).execute();
        })
        .catch(() => {});
      throw error;
    }
    return (await this.get(keyId, id))!;
  }

  /** The job as its key sees it; null for another key's job or no job. */
  async get(keyId: number, id: string): Promise<BulkJobView | null> {
    const row = await this.owned(keyId, id);
    return row ? view(row) : null;
  }

  /** Cancels a job that has not ended: nothing more is validated or charged. Null as get. */
  async cancel(keyId: number, id: string): Promise<BulkJobView | null> {
    const row = await this.owned(keyId, id);
    if (!row) return null;
    if (!FINISHED.includes(row.status)) {
      await this.db
        .updateTable('email_bulk_jobs')
        .set({ status: 'cancelled', finished_at: this.now() })
        .where('id', '=', id)
        .where('status', 'not in', FINISHED)
        .execute();
    }
    return this.get(keyId, id);
  }

  /** The job's other columns (CSV header) and its charged results in list order, read a page at a time. */
  async results(keyId: number, id: string): Promise<{ columns: string[]; rows: AsyncIterable<BulkResultRow> } | null> {
    const row = await this.owned(keyId, id);
    if (!row) return null;
    return { columns: JSON.parse(row.columns) as string[], rows: this.chargedRows(id) };
  }

  private async *chargedRows(id: string): AsyncGenerator<BulkResultRow> {
    let after = -1;
    for (;;) {
      const page = await this.db
        .selectFrom('email_bulk_items')
        .select(['seq', 'input', 'result', 'cost'])
        .where('job_id', '=', id)
        .where('seq', '>', after)
        .where('charged', '=', 1)
        .orderBy('seq')
        .limit(1000)
        .execute();
      for (const item of page) {
        yield {
          ...(JSON.parse(item.input) as object),
          // The single call's answer, original field names included (company_linkedin_url beside company_prof_url…).
          ...withOriginalNames(JSON.parse(item.result!) as object),
          credits_consumed: unitsToCredits(Number(item.cost)),
        };
      }
      if (page.length < 1000) return;
      after = Number(page[page.length - 1].seq);
    }
  }

  /** Queues a run of the job: the first, a continuation, or a later look (greylisting, paused). A failed run is retried. */
  private async queueRun(jobId: string, keyId: number, startAfterMs = 0): Promise<void> {
    await this.options.queue.send<BulkQueueData>(
      BULK_QUEUE,
      { jobId },
      // A short first retry: a run whose instance died is retried (pg-boss) after the delay too, on top of its lease.
      // The key owns the run: workers go first to the key with the fewest runs going (fair shares between keys).
      {
        startAfterMs: Math.max(0, startAfterMs),
        maxAttempts: this.runAttempts,
        retryDelayMs: this.options.retryDelayMs ?? 1_000,
        fairnessKey: `key:${keyId}`,
      },
    );
  }

  /** The job, when it is this key's. */
  private async owned(keyId: number, id: string): Promise<EmailBulkJobTable | undefined> {
    const row = await this.load(id);
    return row && Number(row.key_id) === keyId ? row : undefined;
  }

  private load(id: string): Promise<EmailBulkJobTable | undefined> {
    return this.db.selectFrom('email_bulk_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * One run of a job (the queue's handler). Addresses are validated in list order through a window
   * of `concurrency` at a time (the engine paces each mail host), each result stored as it comes;
   * the stored results are charged every `settleEveryMs`. After `sliceMs` the run drains its window
   * and hands over to a queued continuation; a pause, a cancel or the end of the list stop it.
   */
  async run(job: QueueJob<BulkQueueData>, signal: AbortSignal): Promise<void> {
    try {
      await this.work(job, signal);
    } catch (error) {
      // The last attempt failed too: the job ends failed (its charged results stay served) rather
      // than staying `running` with no run left to end it.
      if (job.attempt < this.runAttempts) throw error;
      await this.finish(job.data.jobId, runFailure(error, job.attempt));
    }
  }

  private async work(job: QueueJob<BulkQueueData>, signal: AbortSignal): Promise<void> {
    const { jobId } = job.data;
    const start = this.now();
    const row = await this.load(jobId);
    if (!row || FINISHED.includes(row.status)) return;
    await this.db
      .updateTable('email_bulk_jobs')
      .set({ status: 'running', started_at: row.started_at ?? start })
      .where('id', '=', jobId)
      .where('status', 'not in', FINISHED)
      .execute();
    const keyId = Number(row.key_id);
    const greylistUntil = Number(row.started_at ?? start) + this.greylistDeadlineMs;
    const sliceEnd = start + this.sliceMs;
    /** The positions being validated now: a retry never asks one of them a second time meanwhile. */
    const inFlight = new Set<number>();
    let wake: (() => void) | undefined;
    let failure: Error | undefined;
    const drain = async () => {
      while (inFlight.size > 0) await new Promise<void>((resolve) => (wake = resolve));
      if (failure) throw failure;
    };
    // Addresses put back for a greylisting host that this run has passed, by position: when each is
    // asked again. They are asked again inside this run once their time comes, not left for a
    // continuation queued after the whole pass: a list's greylisted addresses would otherwise wait for
    // its slowest host, then for the queue. Kept here (from the answers, and from the rows the pass
    // skips) so that finding them never scans the job's rows.
    const putBack = new Map<number, number>();
    let nextRetryAt = Infinity;
    const waitFor = (seq: number, retryAt: number) => {
      putBack.set(seq, retryAt);
      nextRetryAt = Math.min(nextRetryAt, retryAt);
    };
    const validate = (item: { seq: number; email: string; input: string }) => {
      inFlight.add(Number(item.seq));
      this.validateItem(jobId, item, greylistUntil)
        .then((retryAt) => retryAt !== null && waitFor(Number(item.seq), retryAt))
        .catch((error: unknown) => (failure ??= error instanceof Error ? error : new Error(String(error))))
        .finally(() => {
          inFlight.delete(Number(item.seq));
          wake?.();
        });
    };
    // Results stored by an earlier run that stopped before charging them are charged first.
    let settled = await this.settle(jobId, keyId);
    let settledAt = this.now();
    let cursor = -1;
    let listEnd = false;
    for (;;) {
      // Answers served from a cache (and SQLite's synchronous queries) resolve without I/O: a run
      // would then go on in promise callbacks alone, and no timer, socket or other list's run would
      // get a turn until it ended. It yields to the event loop once a turn.
      await yieldToEventLoop();
      if (settled === 'cancelled') return drain();
      if (settled === 'short') {
        await drain();
        if ((await this.settle(jobId, keyId)) === 'cancelled') return;
        return this.pause(jobId, keyId);
      }
      if (failure) throw failure;
      if (signal.aborted) return drain();
      // The pass is over and nothing waits that this run could ask before its slice ends.
      if (listEnd && inFlight.size === 0 && nextRetryAt > sliceEnd) {
        // The last answers may have come in after the last charge: charged before the job ends.
        settled = await this.settle(jobId, keyId);
        if (settled === 'ok') break;
        continue;
      }
      if (this.now() >= sliceEnd) {
        await drain();
        settled = await this.settle(jobId, keyId);
        if (settled !== 'ok') continue;
        await this.queueRun(jobId, keyId);
        return;
      }
      let free = this.concurrency - inFlight.size;
      if (free > 0 && nextRetryAt <= this.now()) {
        // Put-back addresses whose time has come, in list order, as far as the window has room.
        const now = this.now();
        const due = [...putBack]
          .filter(([, at]) => at <= now)
          .map(([seq]) => seq)
          .sort((x, y) => x - y)
          .slice(0, free);
        for (const seq of due) putBack.delete(seq);
        nextRetryAt = Infinity;
        for (const at of putBack.values()) nextRetryAt = Math.min(nextRetryAt, at);
        for (const part of chunk(due, 500)) {
          const rows = await this.db
            .selectFrom('email_bulk_items')
            .select(['seq', 'email', 'input'])
            .where('job_id', '=', jobId)
            .where('seq', 'in', part)
            .where('result', 'is', null)
            .execute();
          for (const item of rows) validate(item);
        }
        free = this.concurrency - inFlight.size;
      }
      if (!listEnd && free > 0) {
        const now = this.now();
        const page = await this.db
          .selectFrom('email_bulk_items')
          .select(['seq', 'email', 'input', 'retry_at'])
          .where('job_id', '=', jobId)
          .where('seq', '>', cursor)
          .where('result', 'is', null)
          .orderBy('seq')
          .limit(free)
          .execute();
        if (!page.length) listEnd = true;
        for (const { retry_at: retryAt, ...item } of page) {
          cursor = Number(item.seq);
          // Put back by an earlier run, and not due yet: asked when its time comes.
          if (retryAt !== null && Number(retryAt) > now) waitFor(cursor, Number(retryAt));
          else validate(item);
        }
        if (page.length) continue;
      }
      // Wait for a free place in the window, the next charge, or the next greylisted address's time.
      const retryWaitMs = inFlight.size < this.concurrency ? nextRetryAt - this.now() : Infinity;
      const waitMs = Math.min(this.settleEveryMs - (this.now() - settledAt), retryWaitMs, sliceEnd - this.now());
      if (waitMs > 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, Math.max(1, waitMs)).unref();
        });
      }
      if (this.now() - settledAt >= this.settleEveryMs || (listEnd && inFlight.size === 0)) {
        settled = await this.settle(jobId, keyId);
        settledAt = this.now();
      }
    }
    // Every address has an answer or waits for a greylisting host past this slice.
    const next = await this.nextRetry(jobId);
    if (next === null) return this.finish(jobId);
    await this.queueRun(jobId, keyId, next - this.now());
  }

  /** When the job's earliest address waiting for a greylisting host is asked again, null when none waits. */
  private async nextRetry(jobId: string): Promise<number | null> {
    const waiting = await this.db
      .selectFrom('email_bulk_items')
      .select((eb) => eb.fn.min('retry_at').as('next'))
      .where('job_id', '=', jobId)
      .where('result', 'is', null)
      .executeTakeFirst();
    return waiting?.next === null || waiting?.next === undefined ? null : Number(waiting.next);
  }

  /** Validates one address and stores its answer at once, or when greylisted the instant to ask again (returned; else null). */
  private async validateItem(
    jobId: string,
    item: { seq: number; email: string; input: string },
    greylistUntil: number,
  ): Promise<number | null> {
    const input = JSON.parse(item.input) as Record<string, unknown>;
    const { validation, reason } = await this.options.validator.validateDetailed({
      email: item.email,
      first_name: typeof input.first_name === 'string' ? input.first_name : undefined,
      last_name: typeof input.last_name === 'string' ? input.last_name : undefined,
    });
    const retryAt = this.now() + this.greylistRetryMs;
    // A greylisting or rate-limiting host is asked again inside the job, and so is an address no
    // outbound identity could ask (every one quarantined) or whose domain a failing DNS resolver
    // denied (the list waits rather than being answered unknown at once); past the job's deadline
    // the answer stays unknown.
    const again = RETRIED_LATER.includes(reason) && retryAt <= greylistUntil;
    // Stored at once: a run that dies later does not validate this address again.
    await this.db
      .updateTable('email_bulk_items')
      .set(
        again
          ? { retry_at: retryAt }
          : { result: JSON.stringify(validation), cost: emailValidationCost(validation.email_status), retry_at: null },
      )
      .where('job_id', '=', jobId)
      .where('seq', '=', item.seq)
      .where('result', 'is', null)
      .execute();
    return again ? retryAt : null;
  }

  /**
   * Charges the stored, unpaid results in list order as far as the balance goes, marks them served
   * and adds them to the job's figures, in one transaction. 'short' when the balance stopped it.
   */
  private async settle(jobId: string, keyId: number): Promise<'ok' | 'short' | 'cancelled'> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        const job = await trx.selectFrom('email_bulk_jobs').select(['status', 'counts']).where('id', '=', jobId).executeTakeFirstOrThrow();
        if (job.status === 'cancelled') return 'cancelled';
        const unpaid = await trx
          .selectFrom('email_bulk_items')
          .select(['seq', 'result', 'cost'])
          .where('job_id', '=', jobId)
          .where('charged', '=', 0)
          .where('result', 'is not', null)
          .orderBy('seq')
          .execute();
        if (!unpaid.length) return 'ok';
        const { balance } = await trx.selectFrom('api_keys').select('balance').where('id', '=', keyId).executeTakeFirstOrThrow();
        const paid: number[] = [];
        const costs: number[] = [];
        const counts = JSON.parse(job.counts) as Record<string, number>;
        let units = 0;
        for (const item of unpaid) {
          const cost = Number(item.cost);
          if (units + cost > Number(balance)) break;
          units += cost;
          paid.push(Number(item.seq));
          costs.push(cost);
          const status = (JSON.parse(item.result!) as EmailValidation).email_status;
          counts[status] = (counts[status] ?? 0) + 1;
        }
        if (!paid.length) return 'short';
        // Marked first, on the condition that no other run marked them: a concurrent run's charge
        // for the same results makes this one roll back rather than charge twice.
        let marked = 0;
        for (const part of chunk(paid, 5_000)) {
          const result = await trx
            .updateTable('email_bulk_items')
            .set({ charged: 1 })
            .where('job_id', '=', jobId)
            .where('seq', 'in', part)
            .where('charged', '=', 0)
            .executeTakeFirst();
          marked += Number(result.numUpdatedRows);
        }
        if (marked !== paid.length) throw new Error(`bulk job ${jobId}: results charged by another run meanwhile`);
        for (const row of ledgerRows(paid, costs)) {
          if (row.units === 0) continue;
          const charged = await recordCharge(trx, {
            keyId,
            units: row.units,
            operation: BULK_OPERATION,
            requestId: `${jobId}:${row.ranges}`,
            note: `${row.results} results of bulk job ${jobId}`,
          });
          if (charged === null) throw new Error(`bulk job ${jobId}: the balance changed during the charge`);
        }
        await trx
          .updateTable('email_bulk_jobs')
          .set((eb) => ({
            processed: eb('processed', '+', paid.length),
            credits_consumed: eb('credits_consumed', '+', units),
            counts: JSON.stringify(counts),
          }))
          .where('id', '=', jobId)
          .execute();
        return paid.length < unpaid.length ? 'short' : 'ok';
      })
      .catch((error: unknown) => {
        // The key's spend cap is reached: the job waits, as it does for credits, until the period ends
        // or the cap is raised.
        if (error instanceof SpendCapReachedError) return 'short' as const;
        throw error;
      });
  }

  private async pause(jobId: string, keyId: number): Promise<void> {
    await this.db
      .updateTable('email_bulk_jobs')
      .set({ status: 'paused_insufficient_credits' })
      .where('id', '=', jobId)
      .where('status', 'not in', FINISHED)
      .execute();
    await this.queueRun(jobId, keyId, this.pausedCheckMs);
  }

  /** Ends the job: done, or failed with `failure` (why); the completion webhook is queued. */
  private async finish(jobId: string, failure?: string): Promise<void> {
    const ended = await this.db
      .updateTable('email_bulk_jobs')
      .set({ status: failure ? 'failed' : 'done', failure: failure ?? null, finished_at: this.now() })
      .where('id', '=', jobId)
      .where('status', 'not in', FINISHED)
      .executeTakeFirst();
    if (!Number(ended.numUpdatedRows) || !this.options.onFinished) return;
    const row = (await this.load(jobId))!;
    try {
      await this.options.onFinished({ ...view(row), keyId: Number(row.key_id), webhookUrl: row.webhook_url, resultsUrl: row.results_url });
    } catch (error) {
      // The webhook could not be queued: the job goes back to running and this run fails, so the
      // queue's retry finishes it again (a webhook is sent at least once, never lost).
      await this.db
        .updateTable('email_bulk_jobs')
        .set({ status: 'running', failure: null, finished_at: null })
        .where('id', '=', jobId)
        .where('status', '=', failure ? 'failed' : 'done')
        .execute();
      throw error;
    }
  }
}
