// Politeness per host, across every instance: at most one fetch at a time to a host, a minimum
// interval between the starts of two fetches (CRAWL_HOST_INTERVAL_MS, or the rate a host publishes),
// and a host's Retry-After honoured by all. A host's turn is a row of `crawl_hosts` taken with a
// conditional update; inside one instance a chain per host keeps its own fetches from polling the row
// against each other.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/database.ts';

/**
 * Hosts whose owners publish the rate they accept: that rate replaces CRAWL_HOST_INTERVAL_MS for
 * them. The SEC's fair-access rule allows at most 10 requests per second to www.sec.gov.
 */
const PUBLISHED_HOST_INTERVALS_MS: Record<string, number> = { 'www.sec.gov': 100 };

export interface PolitenessOptions {
  db: Db;
  /** Between the starts of two fetches to one host (CRAWL_HOST_INTERVAL_MS). */
  minIntervalMs: number;
  /** Per host (host[:port]), an interval replacing minIntervalMs: the rates upstreams publish, and a simulated upstream's. */
  hostIntervalsMs?: Record<string, number>;
  /** How long a turn holds if its instance dies before giving it back. */
  holdMs?: number;
  now?: () => number;
}

/** Gives a host's turn back; a Retry-After the host sent delays its next turn. */
export type Release = (retryAfterMs?: number | null) => Promise<void>;

export class HostPoliteness {
  private readonly db: Db;
  private readonly now: () => number;
  private readonly holdMs: number;
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly hostIntervalsMs: Record<string, number>;
  /** Fetches started per host key (tests and the benchmark read it). */
  turnsTaken = 0;

  constructor(private readonly options: PolitenessOptions) {
    this.db = options.db;
    this.now = options.now ?? Date.now;
    this.holdMs = options.holdMs ?? 120_000;
    this.hostIntervalsMs = { ...PUBLISHED_HOST_INTERVALS_MS, ...options.hostIntervalsMs };
  }

  /** Runs `fetch` in the host's next turn; `fetch` returns the host's Retry-After, if it sent one. */
  async inTurn<T>(
    host: string,
    signal: AbortSignal | undefined,
    fetch: () => Promise<{ value: T; retryAfterMs?: number | null }>,
  ): Promise<T> {
    const previous = this.chains.get(host) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const chained = previous.then(() => mine);
    this.chains.set(host, chained);
    try {
      await previous;
      const release = await this.acquire(host, signal);
      let retryAfterMs: number | null | undefined;
      try {
        const result = await fetch();
        retryAfterMs = result.retryAfterMs;
        return result.value;
      } finally {
        await release(retryAfterMs).catch(() => {});
      }
    } finally {
      done();
      if (this.chains.get(host) === chained) this.chains.delete(host);
    }
  }

  private async acquire(host: string, signal: AbortSignal | undefined): Promise<Release> {
    await this.db
      .insertInto('crawl_hosts')
      .values({ host, busy_until: 0, next_fetch_at: 0 })
      .onConflict((oc) => oc.column('host').doNothing())
      .execute();
    const interval = this.hostIntervalsMs[host] ?? this.options.minIntervalMs;
    for (;;) {
      signal?.throwIfAborted();
      const now = this.now();
      const taken = await this.db
        .updateTable('crawl_hosts')
        .set({ busy_until: now + this.holdMs, next_fetch_at: now + interval })
        .where('host', '=', host)
        .where('busy_until', '<=', now)
        .where('next_fetch_at', '<=', now)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) {
        this.turnsTaken++;
        return async (retryAfterMs) => {
          const after = this.now();
          await this.db
            .updateTable('crawl_hosts')
            .set({
              busy_until: 0,
              // The interval counts from this turn's start; a Retry-After pushes the next turn further.
              next_fetch_at: Math.max(now + interval, retryAfterMs ? after + retryAfterMs : 0),
            })
            .where('host', '=', host)
            .execute();
        };
      }
      const row = await this.db
        .selectFrom('crawl_hosts')
        .select(['busy_until', 'next_fetch_at'])
        .where('host', '=', host)
        .executeTakeFirst();
      const wait = row ? Math.max(Number(row.next_fetch_at), Number(row.busy_until) > now ? now + 50 : 0) - now : 0;
      await sleep(Math.min(1000, Math.max(5, wait)), undefined, { signal });
    }
  }
}
