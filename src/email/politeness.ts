// Limits that keep one customer's burst from getting our address blocked: at most N concurrent
// sessions per MX host, and a token bucket of new sessions per recipient domain. Per instance.
// Each outbound identity (outbound.ts) has budgets of its own: a mail server counts per sending address.

import { setTimeout as delay } from 'node:timers/promises';

export class DeadlineError extends Error {
  constructor() {
    super('validation deadline passed');
  }
}

/** Waits until `signal` aborts or `ms` pass; rejects with DeadlineError on abort. */
async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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

  /** Resolves with a release function once a slot for `host` is free (`identity`: whose budget, absent: the default one's). */
  async acquire(host: string, signal?: AbortSignal, identity?: string): Promise<() => void> {
    if (identity) host = `${identity}|${host}`;
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
  tryAcquire(host: string, identity?: string): (() => void) | null {
    if (identity) host = `${identity}|${host}`;
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

export class DomainBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly capacity: number;
  private readonly perMs: number;

  constructor(perMinute: number) {
    this.capacity = Math.max(5, Math.ceil(perMinute / 10));
    this.perMs = perMinute / 60_000;
  }

  /** Takes a token for `domain`, waiting for one when the bucket is empty. */
  async take(domain: string, signal?: AbortSignal, identity?: string): Promise<void> {
    if (identity) domain = `${identity}|${domain}`;
    for (;;) {
      const now = Date.now();
      const bucket = this.buckets.get(domain) ?? { tokens: this.capacity, at: now };
      bucket.tokens = Math.min(this.capacity, bucket.tokens + (now - bucket.at) * this.perMs);
      bucket.at = now;
      this.buckets.set(domain, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        if (this.buckets.size > 100_000) this.buckets.delete(this.buckets.keys().next().value!);
        return;
      }
      await sleep(Math.ceil((1 - bucket.tokens) / this.perMs), signal);
    }
  }
}
