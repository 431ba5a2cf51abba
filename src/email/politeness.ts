// Limits that keep one customer's burst from getting our address blocked, counted in this process:
// at most N concurrent sessions per key (an MX host), and token buckets per key (new sessions per
// recipient domain, RCPTs per MX host). probe-limits.ts builds on them; shared-limits.ts counts the
// same limits for every instance.

import { setTimeout as delay } from 'node:timers/promises';

export class DeadlineError extends Error {
  constructor() {
    super('validation deadline passed');
  }
}

/** Waits until `signal` aborts or `ms` pass; rejects with DeadlineError on abort. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal });
  } catch (error) {
    if (signal?.aborted) throw new DeadlineError();
    throw error;
  }
}

export class HostSemaphores {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly perHost: number) {}

  /** Resolves with a release function once a slot for `host` is free. */
  async acquire(host: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw new DeadlineError();
    if ((this.active.get(host) ?? 0) < this.perHost) {
      this.active.set(host, (this.active.get(host) ?? 0) + 1);
      return this.releaser(host);
    }
    await new Promise<void>((resolve, reject) => {
      const queue = this.waiting.get(host) ?? [];
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = queue.indexOf(wake);
        if (i >= 0) queue.splice(i, 1);
        reject(new DeadlineError());
      };
      queue.push(wake);
      this.waiting.set(host, queue);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    // The slot was handed over by the releaser: the count already includes us.
    return this.releaser(host);
  }

  /** A release function when a slot for `host` is free right now, else null (never waits). */
  tryAcquire(host: string): (() => void) | null {
    const count = this.active.get(host) ?? 0;
    if (count >= this.perHost) return null;
    this.active.set(host, count + 1);
    return this.releaser(host);
  }

  private releaser(host: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.get(host)?.shift();
      if (next) return next();
      const count = (this.active.get(host) ?? 1) - 1;
      if (count <= 0) this.active.delete(host);
      else this.active.set(host, count);
      if (this.waiting.get(host)?.length === 0) this.waiting.delete(host);
    };
  }
}

/** A token bucket's size for a rate: a tenth of a minute's worth, at least 5 (or the whole rate when below 5). */
export function bucketShape(perMinute: number): { capacity: number; perMs: number } {
  return { capacity: Math.max(Math.min(5, perMinute), Math.ceil(perMinute / 10)), perMs: perMinute / 60_000 };
}

export class DomainBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly capacity: number;
  private readonly perMs: number;

  constructor(perMinute: number) {
    ({ capacity: this.capacity, perMs: this.perMs } = bucketShape(perMinute));
  }

  /** Takes `count` tokens (at most a full bucket) for `domain`, waiting for them when the bucket has fewer. */
  async take(domain: string, signal?: AbortSignal, count = 1): Promise<void> {
    const need = Math.min(this.capacity, Math.max(1, count));
    for (;;) {
      const now = Date.now();
      const bucket = this.buckets.get(domain) ?? { tokens: this.capacity, at: now };
      bucket.tokens = Math.min(this.capacity, bucket.tokens + (now - bucket.at) * this.perMs);
      bucket.at = now;
      this.buckets.set(domain, bucket);
      if (bucket.tokens >= need) {
        bucket.tokens -= need;
        if (this.buckets.size > 100_000) this.buckets.delete(this.buckets.keys().next().value!);
        return;
      }
      await sleep(Math.ceil((need - bucket.tokens) / this.perMs), signal);
    }
  }
}
