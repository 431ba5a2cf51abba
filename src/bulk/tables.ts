// Bulk jobs of every product (docs/bulk.md). Instants are epoch ms, amounts millicredits.
import type { Generated } from 'kysely';
import type { BulkJobStatus } from '../email/tables.ts';

export interface BulkJobTable {
  id: string;
  key_id: number;
  /** The product as submitted (email_finder, mobile_finder…). */
  product: string;
  /** The operation whose price rule charges each row (email-finder…): the ledger names it. */
  operation: string;
  status: BulkJobStatus;
  /** Rows submitted, refused ones included. */
  total: number;
  /** Rows that could not be read: answered with their reason, free. */
  refused: number;
  /** Rows answered, charged and served so far (refused ones included). */
  processed: number;
  /** Rows whose answer found something. */
  found: number;
  credits_consumed: number;
  /** JSON list of {reason, rows}: why rows were refused, most frequent first. */
  refusals: string;
  /** Where the job's end is announced (the submit's `callback` or `webhook_url`), else null. */
  callback_url: string | null;
  /** Where its results are read, as the client reached us (sent in the callback). */
  results_url: string | null;
  /** Why the job failed (its runs' retries ran out), else null. */
  failure: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

/** One event of a job's history (bulk/events.ts): the job's figures at that instant. */
export interface BulkJobEventTable {
  id: Generated<number>;
  job_id: string;
  kind: string;
  reason: string | null;
  status: string;
  processed: number;
  found: number;
  credits_consumed: number;
  at: number;
}

/** A job's processed count at an instant (bulk/job-metrics.ts): its recent rows per second. */
export interface BulkJobProgressTable {
  id: Generated<number>;
  job_id: string;
  processed: number;
  at: number;
}

export interface BulkRowTable {
  job_id: string;
  seq: number;
  /** The row as submitted (JSON). */
  input: string;
  /** The single call's answer without credits_consumed (JSON), once known. */
  result: string | null;
  /** Why the row was refused (JSON {message, details}). */
  error: string | null;
  found: number | null;
  cost: number | null;
  charged: number;
}

export interface BulkTables {
  bulk_jobs: BulkJobTable;
  bulk_rows: BulkRowTable;
  bulk_job_events: BulkJobEventTable;
  bulk_job_progress: BulkJobProgressTable;
}
