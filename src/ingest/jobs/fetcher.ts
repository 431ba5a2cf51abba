// Polite HTTP for job boards: one request at a time per task slot (a concurrency bound), a timeout
// per request, retries with exponential backoff (and Retry-After) on 429, 5xx and network errors.
import { request } from 'undici';
import type { HttpGet } from './types.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import pLimit, { type LimitFunction } from 'p-limit';

export interface FetcherOptions {
  concurrency?: number;
  timeoutMs?: number;
  retries?: number;
  /** First backoff delay; doubles each retry, with jitter. */
  backoffMs?: number;
  userAgent?: string;
  /** Largest body accepted. */
  maxBytes?: number;
}

export class HttpStatusError extends Error {
  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super(`GET ${url} answered HTTP ${status}`);
  }
}

export class PoliteFetcher implements HttpGet {
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly userAgent: string;
  private readonly maxBytes: number;
  private readonly limit: LimitFunction;
  /** Requests sent, retries included (for summaries and tests). */
  requests = 0;
  /** Most requests in flight at once. */
  peakConcurrency = 0;

  constructor(options: FetcherOptions = {}) {
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.retries = options.retries ?? 3;
    this.backoffMs = options.backoffMs ?? 500;
    this.userAgent = options.userAgent ?? 'leadbase-jobs/0.1 (+https://github.com/leadbase)';
    this.maxBytes = options.maxBytes ?? 50 * 1024 * 1024;
    this.limit = pLimit(this.concurrency);
  }

  getText(url: string, accept = 'application/json'): Promise<string> {
    return this.limit(() => {
      this.peakConcurrency = Math.max(this.peakConcurrency, this.limit.activeCount);
      return this.getWithRetries(url, accept);
    });
  }

  private async getWithRetries(url: string, accept: string): Promise<string> {
    let attempt = 0;
    for (;;) {
      this.requests++;
      let retryAfterMs: number | null = null;
      try {
        const response = await request(url, {
          method: 'GET',
          headers: { accept, 'user-agent': this.userAgent },
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
          maxRedirections: 5,
          // undici's own timers are coarse (about a second); the signal bounds the whole exchange.
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        if (response.statusCode >= 200 && response.statusCode < 300) {
          const chunks: Buffer[] = [];
          let size = 0;
          for await (const chunk of response.body) {
            size += chunk.length;
            if (size > this.maxBytes) {
              response.body.destroy();
              throw new Error(`GET ${url}: body larger than ${this.maxBytes} bytes`);
            }
            chunks.push(chunk as Buffer);
          }
          return Buffer.concat(chunks).toString('utf8');
        }
        await response.body.dump();
        const retryable = response.statusCode === 429 || response.statusCode >= 500;
        if (!retryable || attempt >= this.retries) throw new HttpStatusError(url, response.statusCode);
        const header = response.headers['retry-after'];
        const seconds = Number(Array.isArray(header) ? header[0] : header);
        if (Number.isFinite(seconds) && seconds >= 0) retryAfterMs = Math.min(seconds * 1000, 60_000);
      } catch (error) {
        if (error instanceof HttpStatusError || attempt >= this.retries) throw error;
        if (error instanceof Error && error.message.includes('body larger')) throw error;
      }
      const backoff = this.backoffMs * 2 ** attempt;
      await sleep(retryAfterMs ?? backoff + Math.random() * backoff * 0.25);
      attempt++;
    }
  }

  async mapBounded<T, R>(items: T[], task: (item: T) => Promise<R>): Promise<R[]> {
    // getText already holds the bound; running all tasks at once just queues them behind it.
    return Promise.all(items.map(task));
  }
}
