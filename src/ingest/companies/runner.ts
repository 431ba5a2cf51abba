// Feeds company records from any source format into the store in batches, counting what happened
// to each row. A bad row is rejected with its reason and never aborts the rest of the import.
import type { CompanyService } from '../../companies/service.ts';
import type { UpsertResult } from '../../companies/repository.ts';
import { CompanyInputError, prepareCompany, type CompanyInput, type PreparedCompany } from '../../companies/input.ts';
import { ImportStoppedError, ImportSummary } from '../../platform/import-summary.ts';
import { isLockedOrUnavailable, retryWhileUnavailable, type WriteRetryOptions } from '../../db/retry.ts';

/** One record read from a source: a company, or the reason the source row could not be read. */
export type SourceRecord = { line: number; input: CompanyInput } | { line: number; error: string };

/** One validated row, ready for the store, or the reason it was rejected. */
export type PreparedRow = { line: number; item: PreparedCompany } | { line: number; error: string };

/**
 * Rows per transaction by default. Large on purpose: most of a company's cost is random inserts
 * into the domain and name indexes, and a commit writes every index page it touched, so pages are
 * shared by more rows in a larger transaction (1,000,000 companies on SQLite: 2,000 rows per
 * transaction stored about 10,000 rows/s, 10,000 rows about 20,000 rows/s).
 */
export const DEFAULT_BATCH_SIZE = 10_000;

export interface RunImportOptions {
  service: CompanyService;
  /** Source name recorded with every fact (for example "pdl", "jsonl", "sec-formd"). */
  source: string;
  /** Raw records, validated here in batches of `batchSize`… */
  records?: AsyncIterable<SourceRecord>;
  /** …or rows validated elsewhere (a worker thread), already in batches. */
  batches?: AsyncIterable<PreparedRow[]>;
  /** Rows per transaction (default DEFAULT_BATCH_SIZE). */
  batchSize?: number;
  /** Called after each batch is stored. */
  onBatch?: (summary: ImportSummary) => void;
  summary?: ImportSummary;
  seenAt?: number;
  /** How long to wait out a locked or unreachable database before stopping (see retryWhileUnavailable). */
  retry?: WriteRetryOptions;
}

async function* batchesOf(records: AsyncIterable<SourceRecord>, batchSize: number): AsyncIterable<PreparedRow[]> {
  let batch: PreparedRow[] = [];
  for await (const record of records) {
    batch.push(prepareRow(record));
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

export async function runCompanyImport(options: RunImportOptions): Promise<ImportSummary> {
  const summary = options.summary ?? new ImportSummary();
  const seenAt = options.seenAt ?? Date.now();
  const batches = options.batches ?? (options.records ? batchesOf(options.records, options.batchSize ?? DEFAULT_BATCH_SIZE) : undefined);
  if (!batches) throw new Error('runCompanyImport needs records or batches');
  const finishBulkImport = await options.service.repository.prepareForBulkImport();
  try {
    await storeBatches(options, batches, summary, seenAt);
  } finally {
    await finishBulkImport();
  }
  // Rows rejected while reading and while storing arrive in two streams: report them in file order.
  summary.rejected.sort((a, b) => a.line - b.line);
  return summary;
}

async function storeBatches(
  options: RunImportOptions,
  batches: AsyncIterable<PreparedRow[]>,
  summary: ImportSummary,
  seenAt: number,
): Promise<void> {
  const upsert = (items: PreparedCompany[]) =>
    retryWhileUnavailable(() => options.service.upsertPrepared(items, options.source, seenAt), options.retry);
  // A locked or unreachable database is never the rows' fault: stop, keep what is stored, say how to resume.
  const stop = (error: unknown, unwritten: number): never => {
    summary.notWritten += unwritten;
    throw new ImportStoppedError(summary, error);
  };
  const write = async (current: { line: number; item: PreparedCompany }[]) => {
    if (!current.length) return;
    try {
      const results = await upsert(current.map((b) => b.item));
      results.forEach((r, i) => tally(summary, r, current[i].line));
    } catch (batchError) {
      if (isLockedOrUnavailable(batchError)) stop(batchError, current.length);
      // Something in the batch broke a constraint: store row by row so only the bad rows are lost.
      for (const [index, row] of current.entries()) {
        try {
          tally(summary, (await upsert([row.item]))[0], row.line);
        } catch (error) {
          if (isLockedOrUnavailable(error)) stop(error, current.length - index);
          summary.reject(row.line, reasonOf(error));
        }
      }
    }
    options.onBatch?.(summary);
  };

  // One batch is written while the next one is read and validated (PostgreSQL works in its own
  // process meanwhile); a batch starts only after the previous one committed, so it sees its rows.
  let writing: Promise<void> = Promise.resolve();
  for await (const batch of batches) {
    const good: { line: number; item: PreparedCompany }[] = [];
    for (const row of batch) {
      summary.read += 1;
      if ('error' in row) summary.reject(row.line, row.error);
      else good.push(row);
    }
    await writing;
    writing = write(good);
    // It is awaited before the next batch; until then a stop must not count as an unhandled rejection.
    writing.catch(() => {});
  }
  await writing;
}

function tally(summary: ImportSummary, r: UpsertResult, line: number): void {
  if (r.error) summary.reject(line, r.error);
  else if (r.created) summary.inserted += 1;
  else if (r.changed) summary.updated += 1;
  else summary.unchanged += 1;
}

/** Validates one source record; a record that cannot be stored becomes a rejection with its reason. */
export function prepareRow(record: SourceRecord): PreparedRow {
  if ('error' in record) return record;
  try {
    return { line: record.line, item: prepareCompany(record.input) };
  } catch (error) {
    return { line: record.line, error: reasonOf(error) };
  }
}

export function reasonOf(error: unknown): string {
  if (error instanceof CompanyInputError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0].slice(0, 300);
}
