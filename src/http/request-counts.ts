// Requests and errors per minute over the last 24 hours, counted by this instance in memory (the
// console's overview chart). Each instance counts what it served; nothing is stored.
const MINUTE_MS = 60_000;
const MINUTES = 24 * 60;

export interface TrafficBucket {
  /** Start of the bucket, ISO 8601. */
  at: string;
  requests: number;
  /** Answers 400–499 (refused requests). */
  client_errors: number;
  /** Answers 500 and above. */
  server_errors: number;
}

export class RequestCounter {
  private readonly minute = new Float64Array(MINUTES).fill(-1);
  private readonly requests = new Uint32Array(MINUTES);
  private readonly clientErrors = new Uint32Array(MINUTES);
  private readonly serverErrors = new Uint32Array(MINUTES);

  record(status: number, now = Date.now()): void {
    const minute = Math.floor(now / MINUTE_MS);
    const slot = minute % MINUTES;
    if (this.minute[slot] !== minute) {
      this.minute[slot] = minute;
      this.requests[slot] = 0;
      this.clientErrors[slot] = 0;
      this.serverErrors[slot] = 0;
    }
    this.requests[slot]++;
    if (status >= 500) this.serverErrors[slot]++;
    else if (status >= 400) this.clientErrors[slot]++;
  }

  /** The last 24 hours in buckets of `bucketMinutes`, oldest first. */
  lastDay(bucketMinutes = 15, now = Date.now()): TrafficBucket[] {
    const current = Math.floor(now / MINUTE_MS);
    const last = current - (current % bucketMinutes);
    const first = last - (MINUTES / bucketMinutes - 1) * bucketMinutes;
    const buckets: TrafficBucket[] = [];
    for (let start = first; start <= last; start += bucketMinutes) {
      const bucket = { at: new Date(start * MINUTE_MS).toISOString(), requests: 0, client_errors: 0, server_errors: 0 };
      for (let minute = start; minute < start + bucketMinutes; minute++) {
        const slot = minute % MINUTES;
        if (this.minute[slot] !== minute) continue;
        bucket.requests += this.requests[slot];
        bucket.client_errors += this.clientErrors[slot];
        bucket.server_errors += this.serverErrors[slot];
      }
      buckets.push(bucket);
    }
    return buckets;
  }
}
