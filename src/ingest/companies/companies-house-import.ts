// One Companies House BasicCompanyData file (zip or CSV) into the company store, through the
// companies importer: parsed and validated in a worker thread where there is a second core,
// written in large batches, with checkpoints so an interrupted load resumes inside the file.
import type { CompanyService } from '../../companies/service.ts';
import type { ImportSummary } from '../../platform/import-summary.ts';
import type { WriteRetryOptions } from '../../db/retry.ts';
import { DEFAULT_BATCH_SIZE, runCompanyImport, type PreparedRow } from './runner.ts';
import { prepareFileInWorker } from './parallel.ts';
import { prepareCompaniesHouseRow, readCompaniesHouse } from './companies-house.ts';

/** The source name recorded with every fact the register gives. */
export const COMPANIES_HOUSE_SOURCE = 'companies-house';

export interface CompaniesHouseImportOptions {
  service: CompanyService;
  /** The zip as downloaded, or its CSV. */
  path: string;
  /** Parse and validate in a worker thread. */
  parallel: boolean;
  /** Rows per transaction (default DEFAULT_BATCH_SIZE). */
  batchSize?: number;
  /** Data rows stored by an earlier, interrupted run: passed over. */
  skipRows?: number;
  /** Called with the data rows stored whole so far (counting skipped ones), about every `checkpointRows`. */
  onCheckpoint?: (rowsStored: number) => Promise<void>;
  /** Rows between checkpoints (default 250,000). */
  checkpointRows?: number;
  /** Called after each batch is written (progress). */
  onBatch?: (summary: ImportSummary) => void;
  seenAt?: number;
  retry?: WriteRetryOptions;
  /** Checked between batches: an aborted import stops after the batch being written. */
  signal?: AbortSignal;
}

export interface CompaniesHouseImport {
  /** The summary, once every row is stored (rejects when the file cannot be read or the import stopped). */
  done: Promise<ImportSummary>;
  /** Bytes of the file read so far (progress). */
  position: () => number;
}

/**
 * Imports the file. A file that is not a BasicCompanyData zip or CSV throws (nothing is read as
 * "empty"); rows that cannot be read are rejected with their line and reason in the summary.
 */
export function importCompaniesHouseFile(options: CompaniesHouseImportOptions): CompaniesHouseImport {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const skip = options.skipRows ?? 0;
  let position: () => number = () => 0;
  let unread: () => string[] = () => [];
  let source: AsyncIterable<PreparedRow[]>;
  if (options.parallel) {
    const stream = prepareFileInWorker('companies-house', options.path, batchSize, 4, skip);
    source = stream.batches;
    position = stream.position;
    unread = stream.unreadKeys;
  } else {
    const input = readCompaniesHouse(options.path, { skipRows: skip });
    position = input.position;
    unread = input.unreadColumns;
    source = (async function* () {
      let batch: PreparedRow[] = [];
      for await (const record of input.records) {
        batch.push(prepareCompaniesHouseRow(record));
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length) yield batch;
    })();
  }

  // The importer writes batch k while batch k+1 is read, and asks for batch k+2 only once batch k
  // is committed: each time this generator resumes, every batch but the last one handed over is stored.
  const every = options.checkpointRows ?? 250_000;
  async function* checkpointed(): AsyncIterable<PreparedRow[]> {
    let stored = skip;
    let pending = 0;
    let lastCheckpoint = skip;
    for await (const batch of source) {
      options.signal?.throwIfAborted();
      stored += pending;
      if (options.onCheckpoint && stored - lastCheckpoint >= every) {
        await options.onCheckpoint(stored);
        lastCheckpoint = stored;
      }
      pending = batch.length;
      yield batch;
    }
  }

  const done = runCompanyImport({
    service: options.service,
    source: COMPANIES_HOUSE_SOURCE,
    batches: checkpointed(),
    seenAt: options.seenAt,
    retry: options.retry,
    onBatch: options.onBatch,
  }).then((summary) => {
    summary.unreadColumns = unread();
    return summary;
  });
  return { done, position: () => position() };
}
