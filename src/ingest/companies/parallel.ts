// Runs the parse-and-validate half of a file import in a worker thread (prepare-worker.ts).
import { availableParallelism } from 'node:os';
import { siblingModule, startTsWorker } from '../../platform/ts-worker.ts';
import type { FileFormat, PrepareWorkerData, WorkerMessage } from './prepare-worker.ts';
import type { PreparedRow } from './runner.ts';

const WORKER_URL = siblingModule('./prepare-worker', import.meta.url);

export interface PreparedStream {
  batches: AsyncIterable<PreparedRow[]>;
  /** Bytes of the file read so far (for a progress bar). */
  position: () => number;
  /** Keys of the records no field reads (JSONL), known once every batch was taken. */
  unreadKeys: () => string[];
}

/**
 * Whether file imports parse in a worker thread unless told otherwise: when the machine has a
 * second core. The storing thread is the bottleneck; the worker takes reading, parsing and
 * validation off it (about 7 µs per row) for the cost of handing each batch over as JSON text
 * (about 3 µs per row on the storing thread, 9 µs of CPU in all). 1,000,000 companies into SQLite on
 * two cores: 36,800 rows/s against 32,300 on one thread with the second core idle; with other work
 * on it, one thread was faster (32,600 against 23,500), hence --no-parallel.
 */
export function parallelByDefault(): boolean {
  return availableParallelism() >= 2;
}

/** Prepared rows of a file, parsed in a worker thread, in order, in batches of `batchSize`. */
export function prepareFileInWorker(format: FileFormat, path: string, batchSize: number, maxInFlight = 4, skipRows = 0): PreparedStream {
  const data: PrepareWorkerData = { format, path, batchSize, maxInFlight, skipRows };
  let bytes = 0;
  let unread: string[] = [];
  async function* batches(): AsyncIterable<PreparedRow[]> {
    // A young generation larger than the default: a batch's rows are short-lived garbage, freed by
    // fewer scavenges.
    const worker = startTsWorker(WORKER_URL, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: 128 } });
    const queue: WorkerMessage[] = [];
    let wake: (() => void) | undefined;
    let crashed: Error | undefined;
    worker.on('message', (m: WorkerMessage) => {
      queue.push(m);
      wake?.();
    });
    worker.on('error', (error) => {
      crashed = error;
      wake?.();
    });
    try {
      for (;;) {
        while (!queue.length && !crashed) await new Promise<void>((r) => (wake = r));
        if (crashed) throw crashed;
        const m = queue.shift()!;
        if ('failed' in m) throw new Error(m.failed);
        bytes = m.bytes;
        if ('done' in m) {
          unread = m.unread;
          return;
        }
        worker.postMessage('ack');
        yield JSON.parse(m.rows) as PreparedRow[];
      }
    } finally {
      await worker.terminate();
    }
  }
  return { batches: batches(), position: () => bytes, unreadKeys: () => unread };
}
