// The shapes of bulk jobs shared by the service, its helpers and the HTTP layer: kept apart from
// service.ts so that the helpers service.ts imports need not import it back.
import type { BulkJobStatus } from '../email/tables.ts';

/** Why a row was refused: a message, and the fields at fault when known. */
export interface RowError {
  message: string;
  details?: { field: string; message: string }[];
}

/** A product's rows: how one is read and answered, exactly as the operation's single call does. */
export interface BulkProduct {
  /** The operation whose single call a row is (its price rule charges the row). */
  operation: string;
  /** The row as the operation's request, or why it cannot be one. */
  read(row: unknown): { input: Record<string, unknown> } | { error: RowError };
  /** The single call's answer (price in millicredits, body without credits_consumed, whether it found something), or why the row is refused. */
  answer(input: Record<string, unknown>): Promise<{ cost: number; body: object; found: boolean } | { error: RowError }>;
}

export interface BulkJobView {
  id: string;
  /** The same id, under the name LeadMagic's clients read. */
  job_id: string;
  product: string;
  operation: string;
  status: BulkJobStatus;
  total: number;
  refused: number;
  processed: number;
  found: number;
  credits_consumed: number;
  /** Why rows were refused, most frequent first. */
  refusals: { reason: string; rows: number }[];
  /** Why the job failed (its retries ran out), else null. */
  failure_reason: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** One served row: its answer (the single call's, with credits_consumed) or why it was refused. */
export interface BulkRowView {
  row_index: number;
  status: 'success' | 'not_found' | 'refused';
  input: unknown;
  output: Record<string, unknown> | null;
  credits_consumed: number;
  error: RowError | null;
}

/** Which of a key's jobs `list` answers. */
export interface BulkListFilter {
  statuses?: readonly BulkJobStatus[];
  product?: string;
  /** Most jobs answered (default 100). */
  limit?: number;
  offset?: number;
}
