// Background work behind one interface: the embedded queue in the application database (SQLite by
// default) and pg-boss on PostgreSQL. Free of any domain: bulk validation jobs and scheduled crawls
// are its users, not its concern.

export type JobState = 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';

export interface QueueJob<T> {
  id: string;
  queue: string;
  data: T;
  /** 1 on the first run; more when the job is run again after a failure or a lapsed claim. */
  attempt: number;
}

export interface SendOptions {
  /** Runs in total before the job fails for good (default 3). */
  maxAttempts?: number;
  /** Wait before a failed job runs again, doubled on each retry (default 1000). */
  retryDelayMs?: number;
  /** Not run before this many milliseconds from now. */
  startAfterMs?: number;
  /** At most one queued or active job per key in the queue: a second send returns null. */
  singletonKey?: string;
  /**
   * Whose work the job is (an API key, a tenant): among the due jobs of a queue, a worker takes first
   * one whose owner has the fewest jobs running, then the longest waiting, so owners share the workers.
   */
  fairnessKey?: string;
}

export interface WorkOptions {
  /** Jobs of this queue run at once by this worker (default 1). */
  concurrency?: number;
  /** How often an idle worker looks for work (default 500 ms). */
  pollMs?: number;
  /** How long a claim holds without renewal; a worker renews it while the handler runs (default 60 s). */
  leaseMs?: number;
}

/** Runs one job; a throw fails this attempt (retried while attempts are left). */
export type JobHandler<T> = (job: QueueJob<T>, signal: AbortSignal) => Promise<void>;

export interface JobQueue {
  start(): Promise<void>;
  /** Stops claiming, waits for the running handlers (their signal aborts), then closes. */
  stop(): Promise<void>;
  /** Queues a job; its id, or null when `singletonKey` already has a queued or active job. */
  send<T>(queue: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Starts working the queue with `handler`. */
  work<T>(queue: string, handler: JobHandler<T>, options?: WorkOptions): Promise<void>;
  /** Cancels a queued or active job: it is not run (again); a running handler's signal aborts. */
  cancel(queue: string, id: string): Promise<void>;
  /** The job's state, or null when there is no such job. */
  state(queue: string, id: string): Promise<JobState | null>;
  /** Resolves when the queue can take and hand out work now (for /readyz); throws otherwise. */
  check(): Promise<void>;
}
