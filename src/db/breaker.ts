// A circuit breaker in front of a dependency (the PostgreSQL pools, Redis). While the dependency is
// down, every caller is refused at once (DependencyUnavailableError, a 503) without touching it, and
// one probe at a time is let through, spaced by a doubling wait up to a cap: a few connection
// attempts a second at most, instead of one per request (a busy instance would otherwise open tens
// of thousands a second and may even hold the port the database restarts on). The first probe that
// succeeds closes the breaker, so service returns within the cap of the dependency's return.
import { DependencyUnavailableError, isUnavailable } from './unavailable.ts';
import type { OutageLog } from '../platform/outage-log.ts';

export interface CircuitBreakerOptions {
  dependency: 'database' | 'redis';
  /** Wait after the first failure before a probe is let through; doubled per failed probe (default 100 ms). */
  firstProbeMs?: number;
  /** Longest wait between two probes (default 1000 ms): how late a returning dependency may be seen. */
  maxProbeMs?: number;
  /** Where the outage is logged (once at start, a count per interval, once at end). */
  outages?: OutageLog;
}

export class CircuitBreaker {
  readonly dependency: 'database' | 'redis';
  private readonly firstProbeMs: number;
  private readonly maxProbeMs: number;
  private openSince?: number;
  private waitMs = 0;
  private nextProbeAt = 0;
  private probing = false;

  constructor(private readonly options: CircuitBreakerOptions) {
    this.dependency = options.dependency;
    this.firstProbeMs = Math.max(1, options.firstProbeMs ?? 100);
    this.maxProbeMs = Math.max(this.firstProbeMs, options.maxProbeMs ?? 1000);
  }

  /** True while the dependency is held to be down. */
  get isOpen(): boolean {
    return this.openSince !== undefined;
  }

  /**
   * Runs `attempt` unless the breaker is open and it is not yet time for a probe (then throws
   * DependencyUnavailableError without calling it). `attempt` learns whether it is the probe, so it
   * can check the dependency truly answers (an idle pooled connection says nothing).
   */
  async run<T>(attempt: (probe: boolean) => Promise<T>): Promise<T> {
    let probe = false;
    if (this.isOpen) {
      if (this.probing || Date.now() < this.nextProbeAt) throw new DependencyUnavailableError(this.dependency);
      probe = this.probing = true;
    }
    try {
      const result = await attempt(probe);
      // A success of an attempt started before the breaker opened says nothing about now.
      if (probe) this.close();
      return result;
    } catch (error) {
      if (isUnavailable(error)) this.failed(error);
      throw error;
    } finally {
      if (probe) this.probing = false;
    }
  }

  /** A failure seen elsewhere (a query that timed out or lost its connection): opens the breaker or spaces probes further. */
  failed(error: unknown): void {
    const now = Date.now();
    if (this.isOpen) {
      this.waitMs = Math.min(this.maxProbeMs, this.waitMs * 2);
    } else {
      this.openSince = now;
      this.waitMs = this.firstProbeMs;
      this.options.outages?.started(this.dependency, error, true);
    }
    this.nextProbeAt = now + this.waitMs;
  }

  /** The dependency answered a probe (or a caller saw it answer): service resumes. */
  close(): void {
    if (!this.isOpen) return;
    this.openSince = undefined;
    this.waitMs = 0;
    this.options.outages?.ended(this.dependency);
  }
}
