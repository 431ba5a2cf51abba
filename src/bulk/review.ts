// A bulk list reviewed before it is submitted (POST /bulk/review, docs/bulk.md): each row read exactly
// as the job would read it, nothing stored, queued or charged. It says how many rows can be read, why
// the others are refused (the job's own summary), the mapping applied, the columns nothing is read
// from, and the most the job can cost.
import { addReason, checkListSize, sortedReasons } from './refusals.ts';
import type { BulkProduct, RowError } from './types.ts';
import type { ColumnMapping } from './input-mapping.ts';

/** Refused rows listed one by one (the summary counts them all). */
const LISTED_ERRORS = 100;
const SAMPLE_ROWS = 5;

export interface BulkReview {
  /** Rows in the list. */
  total: number;
  /** Rows read as the product's request (a rule checked only when answered may still refuse some). */
  readable: number;
  refused: number;
  /** Why rows were refused, most frequent first: the job's `refusals`. */
  refusals: { reason: string; rows: number }[];
  /** The first refused rows, each with its reason. */
  errors: { row_index: number; error: RowError }[];
  /** The first readable rows as the job would store them. */
  sample: { row_index: number; input: Record<string, unknown> }[];
  /** The list's columns (CSV header names, or the rows' keys). */
  columns: string[];
  /** The inputMapping applied, as column → field pairs. */
  mapping: ColumnMapping[];
  /** Columns no request field is read from. */
  unused_columns: string[];
}

/** Reads every row as the job would (the product's own read), and sums up what it found. */
export function reviewRows(
  product: BulkProduct,
  rows: readonly unknown[],
  context: { columns: string[]; mapping: ColumnMapping[]; unusedColumns: string[] },
): BulkReview {
  checkListSize(rows);
  const reasons: Record<string, number> = {};
  const errors: BulkReview['errors'] = [];
  const sample: BulkReview['sample'] = [];
  let refused = 0;
  rows.forEach((row, rowIndex) => {
    const read = product.read(row);
    if ('error' in read) {
      refused++;
      addReason(reasons, read.error);
      if (errors.length < LISTED_ERRORS) errors.push({ row_index: rowIndex, error: read.error });
    } else if (sample.length < SAMPLE_ROWS) sample.push({ row_index: rowIndex, input: read.input });
  });
  return {
    total: rows.length,
    readable: rows.length - refused,
    refused,
    refusals: sortedReasons(reasons),
    errors,
    sample,
    columns: context.columns,
    mapping: context.mapping,
    unused_columns: context.unusedColumns,
  };
}
