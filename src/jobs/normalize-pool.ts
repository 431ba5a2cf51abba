// Normalization beside storage: one worker thread normalizes postings while the importing thread
// writes earlier ones. It starts on demand and is used only once it has loaded (an import never
// waits for it to start); while idle it does not keep the process alive; if it fails, whatever it
// still owed is normalized on the calling thread.
import type { Worker } from 'node:worker_threads';
import { siblingModule, startTsWorker } from '../platform/ts-worker.ts';
import type { SourceListing } from './input.ts';
import { normalizeOutcome, type NormalizeContext, type NormalizeOutcome } from './listing.ts';
import type { NormalizeReply, NormalizeRequest } from './normalize-worker.ts';

const WORKER_URL = siblingModule('./normalize-worker', import.meta.url);

interface Pending {
  raws: SourceListing[];
  ctx: NormalizeContext;
  resolve: (outcomes: NormalizeOutcome[]) => void;
}

export class NormalizerWorker {
  private worker?: Worker;
  private ready = false;
  private failed = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private settled?: () => void;
  private readonly startup = new Promise<void>((resolve) => (this.settled = resolve));

  /** Starts the thread if it is not running yet; returns at once. */
  start(): void {
    if (this.worker || this.failed) return;
    const worker = startTsWorker(WORKER_URL);
    this.worker = worker;
    worker.on('message', (reply: NormalizeReply) => {
      if ('ready' in reply) {
        this.ready = true;
        this.settled?.();
        return;
      }
      const request = this.pending.get(reply.id);
      if (!request) return;
      this.pending.delete(reply.id);
      if (!this.pending.size) worker.unref();
      request.resolve(reply.outcomes);
    });
    worker.on('error', () => this.fail());
    worker.on('exit', () => this.fail());
    // After the listeners: attaching a 'message' listener refs the thread's port again.
    worker.unref();
  }

  /** Resolves once the thread is ready or has failed; the process stays alive while this waits. */
  async whenStarted(): Promise<void> {
    if (this.ready || this.failed || !this.worker) return;
    this.worker.ref();
    await this.startup;
    if (!this.pending.size) this.worker.unref();
  }

  /** Loaded and working: requests will be answered by the thread. */
  get available(): boolean {
    return this.ready && !this.failed;
  }

  /**
   * Normalization outcomes of `raws`, in order; with `terms`, each listing also has its job_terms
   * vector (termsBinary) when the thread made it (the importer makes what is missing).
   */
  normalize(raws: SourceListing[], ctx: NormalizeContext, terms = false): Promise<NormalizeOutcome[]> {
    if (!raws.length) return Promise.resolve([]);
    if (!this.available || !this.worker) return Promise.resolve(raws.map((raw) => normalizeOutcome(raw, ctx)));
    const id = this.nextId++;
    try {
      this.worker.postMessage({ id, raws, ctx, terms } satisfies NormalizeRequest);
    } catch {
      // A posting that cannot be copied to the thread (not plain data) is normalized here.
      return Promise.resolve(raws.map((raw) => normalizeOutcome(raw, ctx)));
    }
    // An answer is owed: the process must not exit before it comes.
    this.worker.ref();
    return new Promise((resolve) => this.pending.set(id, { raws, ctx, resolve }));
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.failed = true;
    this.settled?.();
    this.flushPending();
    if (worker) await worker.terminate();
  }

  private fail(): void {
    this.failed = true;
    this.settled?.();
    this.flushPending();
  }

  private flushPending(): void {
    for (const [id, { raws, ctx, resolve }] of this.pending) {
      this.pending.delete(id);
      resolve(raws.map((raw) => normalizeOutcome(raw, ctx)));
    }
  }
}
