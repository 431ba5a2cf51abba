// Feeds company records from any source format into the store in batches, counting what happened
// to each row. A bad row is rejected with its reason and never aborts the rest of the import.
import type { CompanyService } from '../../companies/service.ts';
import type { UpsertResult } from '../../companies/repository.ts';
import { CompanyInputError, prepareCompany, type CompanyInput, type PreparedCompany } from '../../companies/input.ts';
import { ImportSummary } from '../summary.ts';

/** One record read from a source: a company, or the reason the source row could not be read. */
export type SourceRecord = { line: number; input: CompanyInput } | { line: number; error: string };

export interface RunImportOptions {
  service: CompanyService;
  /** Source name recorded with every fact (for example "pdl", "jsonl", "sec-formd"). */
  source: string;
  records: AsyncIterable<SourceRecord>;
  /** Rows per transaction (default 1000). */
  batchSize?: number;
  /** Called after each batch with the number of rows read so far. */
  onBatch?: (summary: ImportSummary) => void;
  summary?: ImportSummary;
  seenAt?: number;
}

export async function runCompanyImport(options: RunImportOptions): Promise<ImportSummary> {
  const summary = options.summary ?? new ImportSummary();
  const batchSize = options.batchSize ?? 1000;
  const seenAt = options.seenAt ?? Date.now();
  let batch: { line: number; item: PreparedCompany }[] = [];
  await options.service.repository.prepareForBulkImport();

  // One batch is written while the next one is read and validated (PostgreSQL works in its own
  // process meanwhile); a batch starts only after the previous one committed, so it sees its rows.
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (!batch.length) return;
    const current = batch;
    batch = [];
    await writing;
    writing = write(current);
  };
  const write = async (current: { line: number; item: PreparedCompany }[]) => {
    try {
      const results = await options.service.upsertPrepared(current.map((b) => b.item), options.source, seenAt);
      results.forEach((r, i) => tally(summary, r, current[i]!.line));
    } catch {
      // Something in the batch broke a constraint: store row by row so only the bad rows are lost.
      for (const row of current) {
        try {
          tally(summary, (await options.service.upsertPrepared([row.item], options.source, seenAt))[0]!, row.line);
        } catch (error) {
          summary.reject(row.line, reasonOf(error));
        }
      }
    }
    options.onBatch?.(summary);
  };

  for await (const record of options.records) {
    summary.read += 1;
    if ('error' in record) {
      summary.reject(record.line, record.error);
      continue;
    }
    try {
      const item = prepareCompany(record.input);
      batch.push({ line: record.line, item });
    } catch (error) {
      summary.reject(record.line, reasonOf(error));
      continue;
    }
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  await writing;
  // Rows rejected while reading and while storing arrive in two streams: report them in file order.
  summary.rejected.sort((a, b) => a.line - b.line);
  return summary;
}

function tally(summary: ImportSummary, r: UpsertResult, line: number): void {
  if (r.error) summary.reject(line, r.error);
  else if (r.created) summary.inserted += 1;
  else if (r.changed) summary.updated += 1;
  else summary.unchanged += 1;
}

export function reasonOf(error: unknown): string {
  if (error instanceof CompanyInputError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 300);
}
