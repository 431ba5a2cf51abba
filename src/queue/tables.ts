// The embedded queue's table (SQLite by default; it works on PostgreSQL too). Instants are epoch ms.

export type QueueJobState = 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';

export interface QueueJobTable {
  id: string;
  queue: string;
  /** The job's data, JSON. */
  data: string;
  state: QueueJobState;
  /** Not claimed before this instant (a delayed start, or the backoff before a retry). */
  run_after: number;
  /** While active: the claim lapses at this instant unless renewed (its worker died), and the job is claimed again. */
  lease_until: number | null;
  /** Claims so far (the first run is attempt 1). */
  attempts: number;
  /** Attempts allowed before the job fails for good. */
  max_attempts: number;
  retry_delay_ms: number;
  /** One job per key at a time among the queued and active ones of a queue. */
  singleton_key: string | null;
  /** Whose work the job is (an API key): a worker claims first the job whose owner has the fewest running (migration 0019). */
  fairness_key: string | null;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

export interface QueueTables {
  queue_jobs: QueueJobTable;
}
