// Refused rows and lists: a job counts why rows were refused (its summary lists the reasons), and a
// list with no rows or too many is refused whole. Shared by a submit and its review.
import { MAX_BULK_ROWS } from '../contract/bulk.ts';
import { BulkInputError } from './errors.ts';
import type { RowError } from './types.ts';

/** Distinct refusal reasons a job's summary lists (the rows themselves each carry theirs). */
const MAX_REASONS = 20;

/** The reasons stored with a job (JSON), most frequent first. */
export function reasonsOf(json: string): { reason: string; rows: number }[] {
  return sortedReasons(JSON.parse(json) as Record<string, number>);
}

/** Reasons counted while reading a list, most frequent first. */
export function sortedReasons(reasons: Record<string, number>): { reason: string; rows: number }[] {
  return Object.entries(reasons)
    .map(([reason, rows]) => ({ reason, rows }))
    .sort((a, b) => b.rows - a.rows || a.reason.localeCompare(b.reason));
}

/** Refuses a list a job cannot hold: no rows, or more than MAX_BULK_ROWS (a submit and its review alike). */
export function checkListSize(rows: readonly unknown[]): void {
  if (!rows.length) throw new BulkInputError('The list has no rows.', '/rows');
  if (rows.length > MAX_BULK_ROWS) {
    throw new BulkInputError(`A job holds at most ${MAX_BULK_ROWS} rows; this one has ${rows.length}.`, '/rows');
  }
}

/** Adds a refusal to the reasons (at most MAX_REASONS distinct; the rest are counted as "other reasons"). */
export function addReason(reasons: Record<string, number>, error: RowError): void {
  const reason = error.details?.length ? `${error.details[0].field}: ${error.details[0].message}` : error.message;
  const key = reason in reasons || Object.keys(reasons).length < MAX_REASONS ? reason : 'other reasons';
  reasons[key] = (reasons[key] ?? 0) + 1;
}
