// A product bulk job's history (docs/bulk.md, "Life of a job"): one row per event, written with the
// job's figures at that instant, read back by GET /bulk/{id}/events. Kept in the database, so every
// instance serves the same history, whichever one worked the job.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { unitsToCredits } from '../billing/units.ts';
import type { BulkJobStatus } from '../email/tables.ts';

export type BulkEventKind = 'created' | 'started' | 'paused' | 'resumed' | 'restarted' | 'done' | 'failed' | 'cancelled';
/** Why a job paused: its key's balance, its key's spend cap, or its owner asked. */
export type PauseReason = 'credits' | 'spend_cap' | 'owner';
/** Most events a history answer lists (a job pausing for credits again and again writes one per pause). */
const MAX_EVENTS = 1000;

export interface BulkEventView {
  event: BulkEventKind;
  /** paused: credits, spend_cap or owner; failed: the error; else null. */
  reason: string | null;
  /** The job's status right after the event. */
  status: BulkJobStatus;
  processed: number;
  found: number;
  credits_consumed: number;
  at: string;
}

/**
 * Writes an event with the job's figures as they are now (read in the same statement, so in the
 * caller's transaction they are the figures that transaction sees).
 */
export async function recordEvent(
  db: Kysely<Database>,
  jobId: string,
  kind: BulkEventKind,
  at: number,
  reason: string | null = null,
): Promise<void> {
  await db
    .insertInto('bulk_job_events')
    .columns(['job_id', 'kind', 'reason', 'status', 'processed', 'found', 'credits_consumed', 'at'])
    .expression(
      db
        .selectFrom('bulk_jobs')
        .select([
          'id',
          // Typed casts: PostgreSQL cannot tell a bare parameter's type in a select list.
          sql<string>`cast(${kind} as text)`.as('kind'),
          sql<string | null>`cast(${reason} as text)`.as('reason'),
          'status',
          'processed',
          'found',
          'credits_consumed',
          sql<number>`cast(${at} as bigint)`.as('at'),
        ])
        .where('id', '=', jobId),
    )
    .execute();
}

/** The job's events, oldest first (the first MAX_EVENTS). */
export async function jobEvents(db: Kysely<Database>, jobId: string): Promise<BulkEventView[]> {
  const rows = await db.selectFrom('bulk_job_events').selectAll().where('job_id', '=', jobId).orderBy('id').limit(MAX_EVENTS).execute();
  return rows.map((row) => ({
    event: row.kind as BulkEventKind,
    reason: row.reason,
    status: row.status as BulkJobStatus,
    processed: Number(row.processed),
    found: Number(row.found),
    credits_consumed: unitsToCredits(Number(row.credits_consumed)),
    at: new Date(Number(row.at)).toISOString(),
  }));
}
