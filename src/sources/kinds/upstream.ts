// What every data-set kind does with its upstream: read it at a mirror's address when the source
// names one, and ride out a busy upstream (429 / 503) for a few attempts.
import type { KindFetcher, OnBytes } from '../kind.ts';

/** Attempts of one request the upstream answered 429 or 503 (the host's turn waits its Retry-After). */
const BUSY_ATTEMPTS = 4;
/** A longer Retry-After than this ends the run; the scheduler tries again after it. */
const MAX_RETRY_WAIT_MS = 5 * 60_000;

/** The address at the mirror: the base URL's origin and path prefix in place of the upstream's origin. */
export function mirrored(url: string, baseUrl: string | null | undefined): string {
  if (!baseUrl) return url;
  const upstream = new URL(url);
  const base = new URL(baseUrl);
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${upstream.pathname}${upstream.search}`;
}

/** A GET whose 429 or 503 answers are tried again, each after the Retry-After the host's turn keeps. */
export async function getUnlessBusy(
  fetch: KindFetcher,
  url: string,
  accept: string,
  options: { maxBytes?: number; timeoutMs?: number; signal?: AbortSignal; onBytes?: OnBytes } = {},
): Promise<Buffer> {
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      return await fetch.get(url, accept, options.maxBytes, options.timeoutMs, options.onBytes);
    } catch (error) {
      const { status, retryAfterMs } = error as { status?: number; retryAfterMs?: number | null };
      const busy = status === 429 || status === 503;
      if (!busy || attempt >= BUSY_ATTEMPTS || (retryAfterMs ?? 0) > MAX_RETRY_WAIT_MS) throw error;
    }
  }
}
