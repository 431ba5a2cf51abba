// Bulk jobs of every product (docs/bulk.md). Instants are epoch ms, amounts millicredits.
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
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
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
}
