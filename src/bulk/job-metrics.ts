// A product bulk job's figures over time and its log (docs/bulk.md, "Metrics and logs"), read from
// what the database holds: the job's row, its events (bulk_job_events) and its progress samples
// (bulk_job_progress, migration 0030), written by its runs at most every few seconds. Every instance
// answers the same, whichever one works the job.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { BulkJobStatus } from '../email/tables.ts';
import { jobEvents, type BulkEventView } from './events.ts';
import type { BulkJobView, RowError } from './types.ts';

/** How often a run writes a progress sample at most. */
export const PROGRESS_SAMPLE_MS = 5_000;
/** How long samples are kept (the last minute is read, with margin). */
const PROGRESS_KEEP_MS = 5 * 60_000;
const RECENT_MS = 60_000;
const PAUSED: readonly BulkJobStatus[] = ['paused', 'paused_insufficient_credits'];
const ENDED: readonly BulkJobStatus[] = ['done', 'cancelled', 'failed'];

export interface BulkJobMetrics {
  job_id: string;
  product: string;
  status: BulkJobStatus;
  total: number;
  processed: number;
  found: number;
  refused: number;
  /** Rows submitted and not served yet. */
  remaining: number;
  credits_consumed: number;
  /** Rows served per second over the last minute of work (null before a minute's samples exist). */
  rows_per_second_last_minute: number | null;
  /** Rows served per second of working time (paused time left out); null before it starts. */
  rows_per_second_overall: number | null;
  /** Seconds until every row is served at the recent pace (or the overall one); null when paused, ended or not started. */
  eta_seconds: number | null;
  /** Seconds the job spent paused (by its owner or for credits), up to now. */
  paused_seconds: number;
  /** Seconds of work: from its start to its end (or now), paused time left out. */
  running_seconds: number;
  started_at: string | null;
  finished_at: string | null;
  measured_at: string;
}

/** Writes the job's processed count now, and forgets its samples older than a few minutes. */
export async function recordProgress(db: Kysely<Database>, jobId: string, at: number): Promise<void> {
  await db
    .insertInto('bulk_job_progress')
    .columns(['job_id', 'processed', 'at'])
    .expression(
      db
        .selectFrom('bulk_jobs')
        .select(['id', 'processed', sql<number>`cast(${at} as bigint)`.as('at')])
        .where('id', '=', jobId),
    )
    .execute();
  await db
    .deleteFrom('bulk_job_progress')
    .where('job_id', '=', jobId)
    .where('at', '<', at - PROGRESS_KEEP_MS)
    .execute();
}

const ms = (iso: string | null) => (iso === null ? null : Date.parse(iso));
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Milliseconds the job spent paused up to `end`, from its events (a pause lasts until an event leaves the paused states). */
function pausedMs(events: readonly BulkEventView[], end: number): number {
  let total = 0;
  let since: number | null = null;
  for (const event of events) {
    const at = Date.parse(event.at);
    const paused = PAUSED.includes(event.status);
    if (paused && since === null) since = at;
    else if (!paused && since !== null) {
      total += at - since;
      since = null;
    }
  }
  if (since !== null) total += Math.max(0, end - since);
  return total;
}

/** The job's figures, paces and time left, measured at `now`. */
export async function jobMetrics(db: Kysely<Database>, job: BulkJobView, now: number): Promise<BulkJobMetrics> {
  const events = await jobEvents(db, job.id);
  const started = ms(job.started_at);
  const end = ms(job.finished_at) ?? now;
  const paused = pausedMs(events, end);
  const running =
    started === null
      ? 0
      : Math.max(
          0,
          end -
            started -
            pausedMs(
              events.filter((e) => Date.parse(e.at) >= started),
              end,
            ),
        );
  const overall = started === null ? null : running > 0 ? job.processed / (running / 1000) : null;
  // The earliest sample of the last minute of work (progress samples and events both carry the count).
  const since = end - RECENT_MS;
  const sample = await db
    .selectFrom('bulk_job_progress')
    .select(['processed', 'at'])
    .where('job_id', '=', job.id)
    .where('at', '>=', since)
    .orderBy('at')
    .limit(1)
    .executeTakeFirst();
  const candidates = [
    ...(sample ? [{ processed: Number(sample.processed), at: Number(sample.at) }] : []),
    ...events.filter((e) => Date.parse(e.at) >= since).map((e) => ({ processed: e.processed, at: Date.parse(e.at) })),
  ].sort((a, b) => a.at - b.at);
  const first = candidates[0];
  const recent = first && end - first.at >= 1000 ? (job.processed - first.processed) / ((end - first.at) / 1000) : null;
  const remaining = Math.max(0, job.total - job.processed);
  const pace = recent !== null && recent > 0 ? recent : overall;
  const working = !PAUSED.includes(job.status) && !ENDED.includes(job.status);
  return {
    job_id: job.id,
    product: job.product,
    status: job.status,
    total: job.total,
    processed: job.processed,
    found: job.found,
    refused: job.refused,
    remaining,
    credits_consumed: job.credits_consumed,
    rows_per_second_last_minute: recent === null ? null : round(recent),
    rows_per_second_overall: overall === null ? null : round(overall),
    eta_seconds: working && pace !== null && pace > 0 ? Math.ceil(remaining / pace) : null,
    paused_seconds: round(paused / 1000, 3),
    running_seconds: round(running / 1000, 3),
    started_at: job.started_at,
    finished_at: job.finished_at,
    measured_at: new Date(now).toISOString(),
  };
}

export interface BulkLogLine {
  /** The line's place in the log, from 0 (the offset that starts a page at it). */
  line: number;
  /** When it happened; null for a refused row (rows carry no time). */
  at: string | null;
  level: 'info' | 'warning' | 'error';
  /** The event it tells (created, paused…), or null for a refused row. */
  event: string | null;
  /** The refused row's row_index, or null for an event. */
  row_index: number | null;
  message: string;
}

const PAUSE_WORDS: Record<string, string> = {
  credits: "the key's balance does not cover the next rows",
  spend_cap: "the key's spend cap is reached",
  owner: 'its owner paused it',
};

/** An event in words, with the job's figures at that instant. */
function eventWords(event: BulkEventView, total: number): string {
  const figures = `${event.processed} of ${total} rows served, ${event.found} found, ${event.credits_consumed} credits`;
  switch (event.event) {
    case 'created':
      return `Job created with ${total} rows.`;
    case 'started':
      return `Job started (${figures}).`;
    case 'paused':
      return `Job paused: ${PAUSE_WORDS[event.reason ?? ''] ?? event.reason ?? 'no reason given'} (${figures}).`;
    case 'resumed':
      return `Job resumed${event.reason === 'credits' ? ': the balance covers the next rows' : event.reason === 'owner' ? ' by its owner' : ''} (${figures}).`;
    case 'restarted':
      return `Job restarted: the rows not yet served are answered again (${figures}).`;
    case 'done':
      return `Job done (${figures}).`;
    case 'failed':
      return `Job failed: ${event.reason ?? 'no reason given'} (${figures}).`;
    case 'cancelled':
      return `Job cancelled${event.reason === 'owner' ? ' by its owner' : ''} (${figures}).`;
  }
}

/** A refusal's words: its message, then the fields at fault. */
function refusalWords(seq: number, error: RowError): string {
  const fields = error.details?.map((d) => `${d.field} ${d.message}`).join('; ');
  return `Row ${seq} refused: ${error.message}${fields ? ` (${fields})` : ''}`;
}

/**
 * A page of the job's log: its events in words (oldest first), then each served refused row with
 * its reason (in list order). `next_offset` is null on the last page so far.
 */
export async function jobLogs(
  db: Kysely<Database>,
  job: BulkJobView,
  page: { offset: number; limit: number },
): Promise<{ lines: BulkLogLine[]; next_offset: number | null }> {
  const events = await jobEvents(db, job.id);
  const lines: BulkLogLine[] = events.slice(page.offset, page.offset + page.limit).map((event, i) => ({
    line: page.offset + i,
    at: event.at,
    level: event.event === 'failed' ? 'error' : event.event === 'paused' && event.reason !== 'owner' ? 'warning' : 'info',
    event: event.event,
    row_index: null,
    message: eventWords(event, job.total),
  }));
  const left = page.limit - lines.length;
  if (left > 0) {
    const skip = Math.max(0, page.offset - events.length);
    const refused = await db
      .selectFrom('bulk_rows')
      .select(['seq', 'error'])
      .where('job_id', '=', job.id)
      .where('charged', '=', 1)
      .where('error', 'is not', null)
      .orderBy('seq')
      .limit(left)
      .offset(skip)
      .execute();
    for (const [i, row] of refused.entries()) {
      lines.push({
        line: events.length + skip + i,
        at: null,
        level: 'warning',
        event: null,
        row_index: Number(row.seq),
        message: refusalWords(Number(row.seq), JSON.parse(row.error!) as RowError),
      });
    }
  }
  return { lines, next_offset: lines.length === page.limit ? page.offset + page.limit : null };
}
