// Runs the parse-and-validate half of a file import in a worker thread (prepare-worker.ts).
import { startTsWorker } from '../../ts-worker.ts';
import type { FileFormat, PrepareWorkerData, WorkerMessage } from './prepare-worker.ts';
import type { PreparedRow } from './runner.ts';

const WORKER_URL = new URL('./prepare-worker.ts', import.meta.url);

export interface PreparedStream {
  batches: AsyncIterable<PreparedRow[]>;
  /** Bytes of the file read so far (for a progress bar). */
  position: () => number;
}

/** Prepared rows of a file, parsed in a worker thread, in order, in batches of `batchSize`. */
export function prepareFileInWorker(format: FileFormat, path: string, batchSize: number, maxInFlight = 4): PreparedStream {
  const data: PrepareWorkerData = { format, path, batchSize, maxInFlight };
  let bytes = 0;
  async function* batches(): AsyncIterable<PreparedRow[]> {
    const worker = startTsWorker(WORKER_URL, { workerData: data });
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
        if ('done' in m) return;
        worker.postMessage('ack');
        yield JSON.parse(m.rows) as PreparedRow[];
      }
    } finally {
      await worker.terminate();
    }
  }
  return { batches: batches(), position: () => bytes };
}
