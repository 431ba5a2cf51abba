// How an outage of a dependency (the database, Redis) reaches the log: one line when it starts, one
// line per interval with how many requests it turned away, one line when it ends. A line per refused
// request would bury everything else (tens of thousands of lines a minute under load).

/** The few logger methods used (pino's, or a test's collector). */
export interface OutageLogger {
  warn(details: object, message: string): void;
}

export interface OutageLogOptions {
  logger?: OutageLogger;
  /** How often a running outage logs its count of refusals (OUTAGE_LOG_INTERVAL_MS, default 10 s). */
  intervalMs?: number;
}

interface Outage {
  since: number;
  /** Refusals since the last interval line. */
  refused: number;
  total: number;
  /** Set while a circuit breaker holds the outage open: it ends it, not a quiet interval. */
  held: boolean;
  timer: NodeJS.Timeout;
}

export class OutageLog {
  private readonly outages = new Map<string, Outage>();
  private readonly intervalMs: number;

  constructor(private readonly options: OutageLogOptions = {}) {
    this.intervalMs = Math.max(100, options.intervalMs ?? 10_000);
  }

  /** True while `dependency` is in an outage. */
  isDown(dependency: string): boolean {
    return this.outages.has(dependency);
  }

  /**
   * The dependency failed: starts an outage (one line) when none runs. `held` outages end only
   * through `ended` (a circuit breaker's recovery); others end after an interval without failures.
   */
  started(dependency: string, error?: unknown, held = false): void {
    const running = this.outages.get(dependency);
    if (running) {
      running.held ||= held;
      return;
    }
    const outage: Outage = {
      since: Date.now(),
      refused: 0,
      total: 0,
      held,
      timer: setInterval(() => this.tick(dependency), this.intervalMs),
    };
    outage.timer.unref();
    this.outages.set(dependency, outage);
    const err = error as { message?: string; code?: string } | undefined;
    this.options.logger?.warn(
      { dependency, ...(err ? { err: { message: err.message, code: err.code } } : {}) },
      `${dependency} unavailable (a count of affected requests follows every ${this.intervalMs / 1000} s until it returns)`,
    );
  }

  /** One request affected (a 503, or Redis's per-instance fallback); starts an outage when none runs. */
  refused(dependency: string, error?: unknown): void {
    if (!this.outages.has(dependency)) this.started(dependency, error);
    const outage = this.outages.get(dependency)!;
    outage.refused++;
    outage.total++;
  }

  /** The dependency answers again: one line with the outage's length and refusals. */
  ended(dependency: string): void {
    const outage = this.outages.get(dependency);
    if (!outage) return;
    clearInterval(outage.timer);
    this.outages.delete(dependency);
    // A warning like the outage's start, so a log kept at warn level shows both ends.
    this.options.logger?.warn(
      { dependency, downMs: Date.now() - outage.since, affected: outage.total },
      `${dependency} available again after ${((Date.now() - outage.since) / 1000).toFixed(1)} s`,
    );
  }

  /** Stops the interval timers (process shutdown). */
  close(): void {
    for (const outage of this.outages.values()) clearInterval(outage.timer);
    this.outages.clear();
  }

  private tick(dependency: string): void {
    const outage = this.outages.get(dependency);
    if (!outage) return;
    if (outage.refused === 0 && !outage.held) return this.ended(dependency);
    const refused = outage.refused;
    outage.refused = 0;
    this.options.logger?.warn(
      { dependency, affected: refused, downMs: Date.now() - outage.since },
      `${dependency} still unavailable: ${refused} requests affected in the last ${this.intervalMs / 1000} s`,
    );
  }
}
