// Why a crawl run failed, in a few kinds, and how failures reach the log. Offline, or with an
// upstream gone, thousands of sources fail the same way: one log line each buried everything else
// (a thousand lines in a quarter of an hour), so failures are logged as one summary a minute at most.
import { FetchError } from '../net/http-client.ts';

/**
 * `dns`: the host's name did not resolve; `connect`: no connection could be opened (refused, no
 * route, connect timeout). Both mean the host was never reached. `http`: it answered a non-2xx
 * status; `timeout`: no complete answer in time; `other`: anything else (a payload of the wrong
 * shape, a body too large, a refused address).
 */
export type FailureKind = 'dns' | 'connect' | 'http' | 'timeout' | 'other';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL']);
const CONNECT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'UND_ERR_CONNECT_TIMEOUT']);

/** The kind of a run's error, looking through wrapped errors (`cause`) for the fetch that failed. */
export function failureKind(error: unknown): FailureKind {
  for (let at = error, depth = 0; at && depth < 5; at = (at as { cause?: unknown }).cause, depth++) {
    if (at instanceof FetchError) {
      if (at.reason === 'timeout') return 'timeout';
      if (at.reason !== 'network') return 'other';
      if (at.code && DNS_CODES.has(at.code)) return 'dns';
      if (at.code && CONNECT_CODES.has(at.code)) return 'connect';
      return 'other';
    }
    const status = (at as { status?: unknown }).status;
    if (typeof status === 'number') return 'http';
  }
  return 'other';
}

/** The host was never reached: its name did not resolve, or no connection opened. */
export const unreachable = (kind: FailureKind | null | undefined): boolean => kind === 'dns' || kind === 'connect';

/** The few logger methods used (pino's, or a test's collector). */
export interface FailureLogger {
  warn(details: object, message: string): void;
}

export interface CrawlFailure {
  source: number;
  type: string;
  locator: string;
  kind: FailureKind;
  error: string | null;
}

export interface FailureSummaryOptions {
  logger?: FailureLogger;
  /** Between two summaries at least (default a minute). */
  intervalMs?: number;
  /** Examples given per summary. */
  examples?: number;
  now?: () => number;
}

/**
 * Collects failed runs and logs them as one `crawl failures` line at most once per interval: the
 * count by kind, by source type, and a few examples. The first failure after a quiet interval is
 * logged at once (an operator watching sees it); the ones after it wait for the interval's end.
 */
export class CrawlFailureSummary {
  private readonly intervalMs: number;
  private readonly examples: number;
  private readonly now: () => number;
  private pending: CrawlFailure[] = [];
  private pendingCount = 0;
  private byKind: Partial<Record<FailureKind, number>> = {};
  private byType: Record<string, number> = {};
  private lastLoggedAt: number | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: FailureSummaryOptions = {}) {
    this.intervalMs = Math.max(1, options.intervalMs ?? 60_000);
    this.examples = Math.max(1, options.examples ?? 3);
    this.now = options.now ?? Date.now;
  }

  /** One failed run; logged now if the last summary is an interval old, else with the next one. */
  add(failure: CrawlFailure): void {
    this.pendingCount++;
    this.byKind[failure.kind] = (this.byKind[failure.kind] ?? 0) + 1;
    this.byType[failure.type] = (this.byType[failure.type] ?? 0) + 1;
    if (this.pending.length < this.examples) this.pending.push(failure);
    this.flushIfDue();
    if (this.pendingCount && !this.timer && this.lastLoggedAt !== null) {
      // Logged when the interval ends even if no further failure comes to trigger it.
      this.timer = setTimeout(
        () => {
          this.timer = null;
          this.flushIfDue();
        },
        Math.max(0, this.lastLoggedAt + this.intervalMs - this.now()),
      );
      this.timer.unref();
    }
  }

  /** Logs what is pending when the last summary is an interval old (or there was none). */
  flushIfDue(): void {
    if (!this.pendingCount) return;
    if (this.lastLoggedAt !== null && this.now() - this.lastLoggedAt < this.intervalMs) return;
    this.flush();
  }

  /** Logs what is pending now, whatever the interval (the scheduler's stop). */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.pendingCount) return;
    const at = this.now();
    const since = this.lastLoggedAt;
    this.options.logger?.warn(
      {
        failures: this.pendingCount,
        by_kind: this.byKind,
        by_type: this.byType,
        examples: this.pending.map((f) => ({ source: f.source, type: f.type, locator: f.locator, kind: f.kind, error: f.error })),
        ...(since !== null ? { since: new Date(since).toISOString() } : {}),
      },
      this.pendingCount === 1 ? 'crawl failures: 1 source run failed' : `crawl failures: ${this.pendingCount} source runs failed`,
    );
    this.lastLoggedAt = at;
    this.pending = [];
    this.pendingCount = 0;
    this.byKind = {};
    this.byType = {};
  }
}
