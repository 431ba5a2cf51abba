// Worker thread: reads a company file, parses and validates every row, and posts batches of
// prepared rows to the importer, so parsing runs beside the database writes on another core.
import { parentPort, workerData } from 'node:worker_threads';
import { readLines } from './lines.ts';
import { parseCompanyJsonl } from './jsonl.ts';
import { parsePdlNdjson, readPdlCsv } from './pdl.ts';
import { prepareRow, reasonOf, type SourceRecord } from './runner.ts';
import { prepareCompaniesHouseRow, readCompaniesHouse } from './companies-house.ts';

export type FileFormat = 'jsonl' | 'pdl-csv' | 'pdl-ndjson' | 'companies-house';

export interface PrepareWorkerData {
  format: FileFormat;
  path: string;
  batchSize: number;
  /** Batches posted but not yet taken by the importer before the worker waits (memory bound). */
  maxInFlight: number;
  /** Data rows to pass over first (an import resuming inside a file). */
  skipRows?: number;
}

/**
 * A batch travels as JSON text (`rows`, a PreparedRow[]): parsing it costs the importer's thread
 * about a third of what copying the same objects by postMessage does, and that thread is the
 * bottleneck. Prepared rows are plain data without undefined values, so nothing is lost.
 */
export type WorkerMessage = { rows: string; bytes: number } | { done: true; bytes: number; unread: string[] } | { failed: string };

function open(data: PrepareWorkerData, unread: Set<string>): { records: AsyncIterable<SourceRecord>; position: () => number } {
  const { format, path } = data;
  if (format === 'pdl-csv') return readPdlCsv(path);
  if (format === 'companies-house') {
    const input = readCompaniesHouse(path, { skipRows: data.skipRows });
    async function* records(): AsyncIterable<SourceRecord> {
      yield* input.records;
      for (const column of input.unreadColumns()) unread.add(column);
    }
    return { records: records(), position: input.position };
  }
  const { lines, position } = readLines(path);
  return { records: format === 'jsonl' ? parseCompanyJsonl(lines, unread) : parsePdlNdjson(lines), position };
}

async function run(data: PrepareWorkerData, port: NonNullable<typeof parentPort>): Promise<void> {
  let credits = data.maxInFlight;
  let wake: (() => void) | undefined;
  port.on('message', (m) => {
    if (m === 'ack') {
      credits += 1;
      wake?.();
    }
  });
  // Rows as JSON text, the same text as the batch's JSON.stringify.
  const send = async (batch: string[], bytes: number) => {
    while (credits <= 0) await new Promise<void>((r) => (wake = r));
    credits -= 1;
    port.postMessage({ rows: `[${batch.join(',')}]`, bytes } satisfies WorkerMessage);
  };
  const unread = new Set<string>();
  const { records, position } = open(data, unread);
  const prepare = data.format === 'companies-house' ? prepareCompaniesHouseRow : prepareRow;
  let batch: string[] = [];
  for await (const record of records) {
    // Each row becomes text at once, so its objects die young (a scavenge frees them for nothing):
    // a batch of 10,000 rows held as objects until it was sent outlived several scavenges and was
    // copied into the old generation, most of this thread's garbage collection.
    batch.push(JSON.stringify(prepare(record)));
    if (batch.length >= data.batchSize) {
      await send(batch, position());
      batch = [];
    }
  }
  if (batch.length) await send(batch, position());
  port.postMessage({ done: true, bytes: position(), unread: [...unread] } satisfies WorkerMessage);
}

if (parentPort && workerData?.format) {
  const port = parentPort;
  run(workerData as PrepareWorkerData, port).catch((error) => port.postMessage({ failed: reasonOf(error) } satisfies WorkerMessage));
}
