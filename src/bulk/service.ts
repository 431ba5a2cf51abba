// Bulk jobs of every product (docs/bulk.md): a list of rows for one product (the email finder, the
// mobile finder, company search, profile search, email validation) is stored as one row each and
// worked through by the background queue a window at a time. Each row's answer is the single
// call's, stored as soon as it is known and charged at that operation's price rule for what it
// returned; an answer is served only once it is charged. A row that cannot be read is refused with
// its reason (free, served at once). A job whose key runs out of credits pauses and looks again.
import { randomBytes } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Db } from '../db/database.ts';
import { chunk, chunkForParameters } from '../db/chunks.ts';
import { recordCharge } from '../billing/ledger.ts';
import { SpendCapReachedError } from '../billing/errors.ts';
import { unitsToCredits } from '../billing/units.ts';
import type { JobQueue, QueueJob } from '../queue/types.ts';
import { BULK_QUEUE, ledgerRows, runFailure } from '../email/bulk.ts';
import type { BulkJobStatus } from '../email/tables.ts';
import type { BulkJobTable } from './tables.ts';
import { jobEvents, recordEvent, type BulkEventView, type PauseReason } from './events.ts';
import { callbackPayload, type Announce } from './callbacks.ts';
import { PROGRESS_SAMPLE_MS, recordProgress } from './job-metrics.ts';
import { BulkInputError, BulkStateError } from './errors.ts';
import { addReason, checkListSize, reasonsOf } from './refusals.ts';
import type { BulkJobView, BulkListFilter, BulkProduct, BulkRowView, RowError } from './types.ts';

// The HTTP layer and the tests import these from the service they come with.
export { BulkInputError, BulkStateError } from './errors.ts';
export type { BulkJobView, BulkListFilter, BulkProduct, BulkRowView, RowError } from './types.ts';

const FINISHED: readonly BulkJobStatus[] = ['done', 'cancelled', 'failed'];
/** States in which nothing is charged: cancelled for good, paused by the owner until resumed. */
const STOPPED: readonly BulkJobStatus[] = ['cancelled', 'paused'];
/** Most rows one charge takes (the next charge takes the rest). */
const SETTLE_ROWS = 5_000;

/** The callback of a job that ended could not be queued. */
class CallbackError extends Error {
  constructor(readonly cause: unknown) {
    super(`the job's callback could not be queued: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** What a product job's queue message carries (the validation lists' messages have no product). */
interface RowsQueueData {
  jobId: string;
  product: string;
}

/** Whether a message of the bulk queue is a product job's. */
export function isRowsJob(data: unknown): data is RowsQueueData {
  return typeof data === 'object' && data !== null && typeof (data as RowsQueueData).product === 'string';
}

export interface BulkJobOptions {
  db: Db;
  queue: JobQueue;
  /** The products by name (made on first use: they call the services built beside this one). */
  products: () => Readonly<Record<string, BulkProduct>>;
  /** Rows of one job answered at once (default 8). */
  concurrency?: number;
  /** How long one run works before handing over to a queued continuation (default 60 s). */
  sliceMs?: number;
  /** How long a job paused for credits waits before it looks at the balance again (default 15 s). */
  pausedCheckMs?: number;
  /** Runs of one slice in all (the first and its retries) before the job fails (default 20). */
  runAttempts?: number;
  /** Wait before a failed run is tried again, doubled on each retry (default 1 s). */
  retryDelayMs?: number;
  /** Queues a signed delivery (the callback of a job that ended). */
  announce?: Announce;
  /** GET /bulk/{id}/stream: how often it reads the job and sends a heartbeat (defaults 1 s and 15 s). */
  streamTiming?: { pollMs?: number; heartbeatMs?: number };
  now?: () => number;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function view(row: BulkJobTable): BulkJobView {
  return {
    id: row.id,
    job_id: row.id,
    product: row.product,
    operation: row.operation,
    status: row.status,
    total: Number(row.total),
    refused: Number(row.refused),
    processed: Number(row.processed),
    found: Number(row.found),
    credits_consumed: unitsToCredits(Number(row.credits_consumed)),
    refusals: reasonsOf(row.refusals),
    failure_reason: row.failure ?? null,
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  };
}

export class BulkJobService {
  private readonly db: Db;
  private readonly now: () => number;
  private readonly concurrency: number;
  private readonly sliceMs: number;
  private readonly pausedCheckMs: number;
  private readonly runAttempts: number;
  /** When this instance last wrote each job's progress sample. */
  private readonly sampled = new Map<string, number>();
  /** How a job's stream reads it and keeps the connection alive. */
  readonly streamTiming: { pollMs: number; heartbeatMs: number };

  constructor(private readonly options: BulkJobOptions) {
    this.db = options.db;
    this.now = options.now ?? Date.now;
    this.concurrency = options.concurrency ?? 50;
    this.sliceMs = options.sliceMs ?? 60_000;
    this.pausedCheckMs = options.pausedCheckMs ?? 15_000;
    this.runAttempts = options.runAttempts ?? 20;
    this.streamTiming = { pollMs: options.streamTiming?.pollMs ?? 1000, heartbeatMs: options.streamTiming?.heartbeatMs ?? 15_000 };
  }

  /** The product by name; an unknown one is a BulkInputError naming /product. */
  product(name: string): BulkProduct {
    const product = this.options.products()[name];
    if (!product) throw new BulkInputError(`Unknown product "${name}".`, '/product');
    return product;
  }

  /**
   * Stores the rows as a queued job. Each row is read at once: one that cannot be read is stored
   * refused with its reason (answered free) and named in the job's summary.
   */
  async create(
    keyId: number,
    productName: string,
    rows: readonly unknown[],
    options: { callbackUrl?: string; resultsUrl?: (id: string) => string } = {},
  ): Promise<BulkJobView> {
    const product = this.product(productName);
    checkListSize(rows);
    const reasons: Record<string, number> = {};
    let refused = 0;
    const items = rows.map((row, seq) => {
      const read = product.read(row);
      const input = JSON.stringify(row ?? null);
      if ('error' in read) {
        refused++;
        addReason(reasons, read.error);
        // found stays null: a refusal on submit, already in the job's figures (one found while answering has 0).
        return { seq, input, error: JSON.stringify(read.error), cost: 0, found: null };
      }
      return { seq, input: JSON.stringify(read.input), error: null, cost: null, found: null };
    });
    const id = `bjob_${randomBytes(12).toString('hex')}`;
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('bulk_jobs')
        .values({
          id,
          key_id: keyId,
          product: productName,
          operation: product.operation,
          status: 'queued',
          total: rows.length,
          refused,
          processed: 0,
          found: 0,
          credits_consumed: 0,
          refusals: JSON.stringify(reasons),
          callback_url: options.callbackUrl ?? null,
          results_url: options.resultsUrl?.(id) ?? null,
          created_at: now,
          started_at: null,
          finished_at: null,
        })
        .execute();
      await recordEvent(trx, id, 'created', now);
      for (const part of chunkForParameters(items, 7)) {
        await trx
          .insertInto('bulk_rows')
          .values(
            part.map((item) => ({
              job_id: id,
              seq: item.seq,
              input: item.input,
              error: item.error,
              cost: item.cost,
              found: item.found,
              charged: 0,
            })),
          )
          .execute();
      }
    });
    try {
      await this.queueRun(id, keyId, productName, product.operation);
    } catch (error) {
      // The queue did not take the job: the caller is answered 503 and sends it again, so the stored copy is withdrawn.
      await this.db
        .transaction()
        .execute(async (trx) => {
          await trx.deleteFrom('bulk_rows').where('job_id', '=', id).execute();
          await trx.deleteFrom('bulk_job_events').where('job_id', '=', id).execute();
          await trx.deleteFrom('bulk_jobs').where('id', '=', id).execute();
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

  /** The key's jobs, newest first, of the given statuses and product when named, a page at a time. */
  async list(keyId: number, filter: BulkListFilter = {}): Promise<BulkJobView[]> {
    let query = this.db.selectFrom('bulk_jobs').selectAll().where('key_id', '=', keyId);
    if (filter.statuses?.length) query = query.where('status', 'in', filter.statuses);
    if (filter.product) query = query.where('product', '=', filter.product);
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(filter.limit ?? 100)
      .offset(filter.offset ?? 0)
      .execute();
    return rows.map(view);
  }

  /** Cancels a job that has not ended: nothing more is answered or charged. Null as get. */
  async cancel(keyId: number, id: string): Promise<BulkJobView | null> {
    const row = await this.owned(keyId, id);
    if (!row) return null;
    await this.end(id, 'cancelled', 'owner').catch((error: unknown) => {
      // The job is cancelled (nothing more is charged) even when its callback could not be queued.
      if (!(error instanceof CallbackError)) throw error;
    });
    return this.get(keyId, id);
  }

  /**
   * Pauses a job that has not ended: its run stops at the next window, charging nothing more, until
   * `resume`. Pausing a paused job changes nothing. Null as get; BulkStateError for an ended job.
   */
  async pause(keyId: number, id: string): Promise<BulkJobView | null> {
    const row = await this.owned(keyId, id);
    if (!row) return null;
    if (FINISHED.includes(row.status)) throw new BulkStateError(`The job is ${row.status}: there is nothing to pause.`);
    await this.db.transaction().execute(async (trx) => {
      const paused = await trx
        .updateTable('bulk_jobs')
        .set({ status: 'paused' })
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'running', 'paused_insufficient_credits'])
        .executeTakeFirst();
      if (Number(paused.numUpdatedRows)) await recordEvent(trx, id, 'paused', this.now(), 'owner');
    });
    return this.get(keyId, id);
  }

  /**
   * Goes on with a job its owner paused (from the first row not yet served); a job paused for
   * credits looks at its balance at once. Null as get; BulkStateError for an ended job.
   */
  async resume(keyId: number, id: string): Promise<BulkJobView | null> {
    const row = await this.owned(keyId, id);
    if (!row) return null;
    if (FINISHED.includes(row.status)) {
      throw new BulkStateError(`The job is ${row.status}: it cannot be resumed${row.status === 'done' ? '' : ' (restart it)'}.`);
    }
    if (row.status === 'paused') await this.requeue(row, 'paused', 'resumed', 'owner');
    else if (row.status === 'paused_insufficient_credits') await this.queueRun(id, keyId, row.product, row.operation);
    return this.get(keyId, id);
  }

  /**
   * Queues a failed or cancelled job again: the rows not yet served are answered and charged (rows
   * served before stay as they were, charged once). Null as get; BulkStateError for any other state.
   */
  async restart(keyId: number, id: string): Promise<BulkJobView | null> {
    const row = await this.owned(keyId, id);
    if (!row) return null;
    if (row.status !== 'failed' && row.status !== 'cancelled') {
      throw new BulkStateError(
        row.status === 'done'
          ? 'The job is done: every row is served.'
          : `The job is ${row.status}: only a failed or cancelled job restarts.`,
      );
    }
    await this.requeue(row, row.status, 'restarted', null);
    return this.get(keyId, id);
  }

  /** The job's history, oldest first. Null as get. */
  async events(keyId: number, id: string): Promise<{ job: BulkJobView; events: BulkEventView[] } | null> {
    const row = await this.owned(keyId, id);
    if (!row) return null;
    return { job: view(row), events: await jobEvents(this.db, id) };
  }

  /** Queues the job again from `from` (status), with its event; nothing when another call moved it first. */
  private async requeue(row: BulkJobTable, from: BulkJobStatus, event: 'resumed' | 'restarted', reason: string | null): Promise<void> {
    const moved = await this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('bulk_jobs')
        .set({ status: 'queued', failure: null, finished_at: null })
        .where('id', '=', row.id)
        .where('status', '=', from)
        .executeTakeFirst();
      if (!Number(result.numUpdatedRows)) return false;
      await recordEvent(trx, row.id, event, this.now(), reason);
      return true;
    });
    if (!moved) return;
    try {
      await this.queueRun(row.id, Number(row.key_id), row.product, row.operation);
    } catch (error) {
      // The queue did not take the run: the job goes back as it was (the caller is answered 503 and asks again).
      await this.db.updateTable('bulk_jobs').set({ status: from }).where('id', '=', row.id).where('status', '=', 'queued').execute();
      throw error;
    }
  }

  /**
   * Ends a job that has not ended (done, failed with the reason, or cancelled) with its event in the
   * same transaction, and queues its callback. A callback that cannot be queued puts the job back as
   * it was, without that event, and throws CallbackError (the run's retry ends it again: a callback
   * is sent at least once, never lost), except for a cancel, which stands.
   */
  private async end(jobId: string, status: 'done' | 'failed' | 'cancelled', reason: string | null = null): Promise<void> {
    const before = await this.load(jobId);
    if (!before || FINISHED.includes(before.status)) return;
    const at = this.now();
    // The end and its event in one transaction: whoever sees the job ended finds the event too.
    const ended = await this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('bulk_jobs')
        .set({ status, failure: status === 'failed' ? reason : null, finished_at: at })
        .where('id', '=', jobId)
        .where('status', 'not in', FINISHED)
        .executeTakeFirst();
      if (!Number(updated.numUpdatedRows)) return false;
      await recordEvent(trx, jobId, status, at, reason);
      return true;
    });
    if (!ended) return;
    const row = (await this.load(jobId))!;
    try {
      await this.options.announce?.(Number(row.key_id), row.callback_url, callbackPayload(view(row), row.results_url));
    } catch (error) {
      if (status !== 'cancelled') {
        await this.db.transaction().execute(async (trx) => {
          const reverted = await trx
            .updateTable('bulk_jobs')
            .set({ status: before.status, failure: null, finished_at: null })
            .where('id', '=', jobId)
            .where('status', '=', status)
            .executeTakeFirst();
          if (Number(reverted.numUpdatedRows))
            await trx.deleteFrom('bulk_job_events').where('job_id', '=', jobId).where('kind', '=', status).where('at', '=', at).execute();
        });
      }
      throw new CallbackError(error);
    }
  }

  /**
   * The job and its served rows in list order from `offset` (at most `limit`, all when absent),
   * read a page at a time; `refusedOnly` keeps the refused rows.
   */
  async results(
    keyId: number,
    id: string,
    options: { offset?: number; limit?: number; refusedOnly?: boolean } = {},
  ): Promise<{ job: BulkJobView; rows: AsyncIterable<BulkRowView> } | null> {
    const row = await this.owned(keyId, id);
    if (!row) return null;
    return { job: view(row), rows: this.servedRows(id, options) };
  }

  private async *servedRows(id: string, options: { offset?: number; limit?: number; refusedOnly?: boolean }): AsyncGenerator<BulkRowView> {
    let after = (options.offset ?? 0) - 1;
    let left = options.limit ?? Infinity;
    while (left > 0) {
      let query = this.db
        .selectFrom('bulk_rows')
        .select(['seq', 'input', 'result', 'error', 'found', 'cost'])
        .where('job_id', '=', id)
        .where('seq', '>', after)
        .where('charged', '=', 1);
      if (options.refusedOnly) query = query.where('error', 'is not', null);
      const page = await query.orderBy('seq').limit(Math.min(1000, left)).execute();
      for (const item of page) {
        const credits = unitsToCredits(Number(item.cost ?? 0));
        const error = item.error === null ? null : (JSON.parse(item.error) as RowError);
        yield {
          row_index: Number(item.seq),
          status: error ? 'refused' : Number(item.found) ? 'success' : 'not_found',
          input: JSON.parse(item.input) as unknown,
          output: item.result === null ? null : { ...(JSON.parse(item.result) as object), credits_consumed: credits },
          credits_consumed: credits,
          error,
        };
      }
      left -= page.length;
      if (page.length < 1000) return;
      after = Number(page[page.length - 1].seq);
    }
  }

  /** Queues a run: the first, a continuation, or a later look at the balance. A failed run is retried. */
  private async queueRun(jobId: string, keyId: number, product: string, operation: string, startAfterMs = 0): Promise<void> {
    await this.options.queue.send<RowsQueueData>(
      BULK_QUEUE,
      { jobId, product },
      // One queue for every bulk job: workers go first to the key and operation with the fewest runs going.
      {
        startAfterMs: Math.max(0, startAfterMs),
        maxAttempts: this.runAttempts,
        retryDelayMs: this.options.retryDelayMs ?? 1_000,
        fairnessKey: `key:${keyId}:${operation}`,
      },
    );
  }

  private async owned(keyId: number, id: string): Promise<BulkJobTable | undefined> {
    const row = await this.load(id);
    return row && Number(row.key_id) === keyId ? row : undefined;
  }

  private load(id: string): Promise<BulkJobTable | undefined> {
    return this.db.selectFrom('bulk_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * One run of a job (the queue's handler): rows are answered a window at a time in list order,
   * each answer stored as it comes, then charged. After `sliceMs` the run hands over to a queued
   * continuation; a pause, a cancel or the end of the list stop it.
   */
  async run(job: QueueJob<RowsQueueData>, signal: AbortSignal): Promise<void> {
    try {
      await this.work(job, signal);
    } catch (error) {
      // The last attempt failed too: the job ends failed, its charged rows still served, its
      // callback sent, rather than staying `running` with no run left to end it.
      if (job.attempt < this.runAttempts || error instanceof CallbackError) throw error;
      await this.end(job.data.jobId, 'failed', runFailure(error, job.attempt));
    }
  }

  private async work(job: QueueJob<RowsQueueData>, signal: AbortSignal): Promise<void> {
    const { jobId } = job.data;
    const start = this.now();
    const row = await this.load(jobId);
    // A job its owner paused waits for resume (which queues a run of its own).
    if (!row || FINISHED.includes(row.status) || row.status === 'paused') return;
    const keyId = Number(row.key_id);
    const product = this.product(row.product);
    // Answers stored by an earlier run that stopped before charging them are charged first.
    let settled = await this.settle(jobId, keyId, row.operation);
    if (settled === 'stopped') return;
    if (row.status === 'paused_insufficient_credits' && (settled === 'short' || settled === 'capped')) {
      // Still short: it looks again later, without a new event.
      return this.queueRun(jobId, keyId, row.product, row.operation, this.pausedCheckMs);
    }
    if (!(await this.markRunning(row, start))) return;
    // Rows before the charged ones are all answered: the run reads on from there (an index range, not a scan).
    let cursor = Number(row.processed) - 1;
    for (;;) {
      await yieldToEventLoop();
      if (settled === 'stopped' || signal.aborted) return;
      if (settled === 'short' || settled === 'capped') {
        return this.pauseForCredits(jobId, keyId, row.product, row.operation, settled === 'capped' ? 'spend_cap' : 'credits');
      }
      if (this.now() - start >= this.sliceMs) return this.queueRun(jobId, keyId, row.product, row.operation);
      const page = await this.db
        .selectFrom('bulk_rows')
        .select(['seq', 'input'])
        .where('job_id', '=', jobId)
        .where('seq', '>', cursor)
        .where('result', 'is', null)
        .where('error', 'is', null)
        .orderBy('seq')
        .limit(this.concurrency)
        .execute();
      if (!page.length) {
        // Every row is answered: the rest is charged, a batch at a time, before the job ends.
        do settled = await this.settle(jobId, keyId, row.operation);
        while (settled === 'more');
        if (settled === 'ok') break;
        continue;
      }
      cursor = Number(page[page.length - 1].seq);
      await Promise.all(page.map((item) => this.answerRow(jobId, product, Number(item.seq), item.input)));
      settled = await this.settle(jobId, keyId, row.operation);
      await this.sampleProgress(jobId);
    }
    await this.end(jobId, 'done');
  }

  /** Writes the job's processed count for its recent pace (job-metrics.ts), at most every PROGRESS_SAMPLE_MS from this instance. */
  private async sampleProgress(jobId: string): Promise<void> {
    const at = this.now();
    if (at - (this.sampled.get(jobId) ?? -Infinity) < PROGRESS_SAMPLE_MS) return;
    this.sampled.set(jobId, at);
    // Only recent jobs are remembered: an old entry merely lets one more sample through.
    if (this.sampled.size > 10_000) this.sampled.clear();
    await recordProgress(this.db, jobId, at);
  }

  /**
   * The job is running: its first start, or a resume after a pause for credits, is recorded. False
   * when it was paused or ended meanwhile (this run stops).
   */
  private async markRunning(row: BulkJobTable, start: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const marked = await trx
        .updateTable('bulk_jobs')
        .set({ status: 'running', started_at: row.started_at ?? start })
        .where('id', '=', row.id)
        .where('status', 'in', ['queued', 'running', 'paused_insufficient_credits'])
        .executeTakeFirst();
      if (!Number(marked.numUpdatedRows)) return false;
      if (row.started_at === null) await recordEvent(trx, row.id, 'started', start);
      else if (row.status === 'paused_insufficient_credits') await recordEvent(trx, row.id, 'resumed', start, 'credits');
      return true;
    });
  }

  /** Answers one row as its single call would and stores the answer (or the reason it is refused) at once. */
  private async answerRow(jobId: string, product: BulkProduct, seq: number, input: string): Promise<void> {
    const answer = await product.answer(JSON.parse(input) as Record<string, unknown>);
    await this.db
      .updateTable('bulk_rows')
      .set(
        'error' in answer
          ? { error: JSON.stringify(answer.error), cost: 0, found: 0 }
          : { result: JSON.stringify(answer.body), cost: answer.cost, found: answer.found ? 1 : 0 },
      )
      .where('job_id', '=', jobId)
      .where('seq', '=', seq)
      .where('result', 'is', null)
      .where('error', 'is', null)
      .execute();
  }

  /**
   * Charges the answered, unpaid rows in list order as far as the balance goes, marks them served
   * and adds them to the job's figures, in one transaction. 'more' when a full batch was charged
   * and answered rows may follow; 'short' when the balance stopped it; 'cancelled' (nothing charged)
   * once the job is cancelled.
   */
  private async settle(jobId: string, keyId: number, operation: string): Promise<'ok' | 'more' | 'short' | 'capped' | 'stopped'> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        const job = await trx
          .selectFrom('bulk_jobs')
          .select(['status', 'refusals', 'processed'])
          .where('id', '=', jobId)
          .executeTakeFirstOrThrow();
        if (STOPPED.includes(job.status)) return 'stopped';
        // The charged rows are a prefix of the list (served pages never skip a row): what is charged
        // now is the answered run of rows right after it (a row has a cost once answered or refused).
        const next = await trx
          .selectFrom('bulk_rows')
          .select(['seq', 'error', 'found', 'cost'])
          .where('job_id', '=', jobId)
          .where('seq', '>=', Number(job.processed))
          .orderBy('seq')
          .limit(SETTLE_ROWS)
          .execute();
        const unpaid = [];
        for (const [i, item] of next.entries()) {
          if (item.cost === null || Number(item.seq) !== Number(job.processed) + i) break;
          unpaid.push(item);
        }
        if (!unpaid.length) return 'ok';
        const { balance } = await trx.selectFrom('api_keys').select('balance').where('id', '=', keyId).executeTakeFirstOrThrow();
        const reasons = JSON.parse(job.refusals) as Record<string, number>;
        const paid: number[] = [];
        const costs: number[] = [];
        let units = 0;
        let found = 0;
        let refused = 0;
        for (const item of unpaid) {
          const cost = Number(item.cost ?? 0);
          if (units + cost > Number(balance)) break;
          units += cost;
          paid.push(Number(item.seq));
          costs.push(cost);
          if (Number(item.found)) found++;
          // Rows refused while answered join the summary (those refused on submit are in it already).
          if (item.error !== null && item.found !== null) {
            addReason(reasons, JSON.parse(item.error) as RowError);
            refused++;
          }
        }
        if (!paid.length) return 'short';
        // The job's row first, on the condition that it is not cancelled: a cancel that committed
        // meanwhile stops this charge (on PostgreSQL the update waits for it and sees it).
        const figures = await trx
          .updateTable('bulk_jobs')
          .set((eb) => ({
            processed: eb('processed', '+', paid.length),
            found: eb('found', '+', found),
            refused: eb('refused', '+', refused),
            credits_consumed: eb('credits_consumed', '+', units),
            refusals: JSON.stringify(reasons),
          }))
          .where('id', '=', jobId)
          .where('status', 'not in', STOPPED)
          .executeTakeFirst();
        if (!Number(figures.numUpdatedRows)) return 'stopped';
        // Marked on the condition that no other run marked them: a concurrent charge of the same rows rolls this one back.
        let marked = 0;
        for (const part of chunk(paid, 5_000)) {
          const result = await trx
            .updateTable('bulk_rows')
            .set({ charged: 1 })
            .where('job_id', '=', jobId)
            .where('seq', 'in', part)
            .where('charged', '=', 0)
            .executeTakeFirst();
          marked += Number(result.numUpdatedRows);
        }
        if (marked !== paid.length) throw new Error(`bulk job ${jobId}: rows charged by another run meanwhile`);
        for (const ledger of ledgerRows(paid, costs)) {
          if (ledger.units === 0) continue;
          const charged = await recordCharge(trx, {
            keyId,
            units: ledger.units,
            operation: `${operation}-bulk`,
            requestId: `${jobId}:${ledger.ranges}`,
            note: `${ledger.results} rows of bulk job ${jobId}`,
          });
          if (charged === null) throw new Error(`bulk job ${jobId}: the balance changed during the charge`);
        }
        if (paid.length < unpaid.length) return 'short';
        // A full batch was charged: the rows after it are charged by the next settle, before the job ends.
        return unpaid.length === SETTLE_ROWS ? 'more' : 'ok';
      })
      .catch((error: unknown) => {
        // The key's spend cap is reached: the job waits, as it does for credits.
        if (error instanceof SpendCapReachedError) return 'capped' as const;
        throw error;
      });
  }

  /** The balance or the spend cap stopped the charge: the job waits and looks again later. */
  private async pauseForCredits(jobId: string, keyId: number, product: string, operation: string, reason: PauseReason): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const paused = await trx
        .updateTable('bulk_jobs')
        .set({ status: 'paused_insufficient_credits' })
        .where('id', '=', jobId)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      if (Number(paused.numUpdatedRows)) await recordEvent(trx, jobId, 'paused', this.now(), reason);
    });
    await this.queueRun(jobId, keyId, product, operation, this.pausedCheckMs);
  }
}
