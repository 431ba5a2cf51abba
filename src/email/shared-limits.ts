// Probe limits counted for every instance (docs/email.md, "Safety"): a connection slot is a lease
// in a shared store (Redis, or the database), held with a time to live that this instance renews
// every heartbeat, so the slots of an instance that died come free within that time. A validation
// that finds no free slot takes a ticket in the key's line; the store hands free slots to the
// earliest tickets, whichever instance holds them, so waiters are served in arrival order across
// the cluster. Budgets (sessions per domain, RCPTs per host) are token buckets in the store.
//
// While the store cannot be reached, limits are counted in this process with a conservative share:
// the limit divided by the instances last seen alive (at least 1), and the slots this instance
// still holds count against it. The heartbeat keeps trying; once the store answers, it is told of
// every slot held and every ticket waiting (re-created when the store lost them), and counting there
// resumes once the other instances have told it theirs (see rejoin).
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { bucketShape, DeadlineError, DomainBuckets, sleep } from './politeness.ts';
import { limitKey, type LimitSettings, type ProbeLimits, type SlotRelease } from './probe-limits.ts';

/** What one entry of a renewal says: a slot held, or a ticket in line. */
export interface LeaseEntry {
  key: string;
  lease: string;
  waiting: boolean;
}

/** A store of slots, lines and token buckets several instances share. Every method may throw when the store is unreachable. */
export interface LeaseStore {
  /** How often a waiter asks the store whether its turn came (ms); seldom when the store pushes grants (listen). */
  readonly pollMs: number;
  /** True while grants are pushed to this instance (listen is in place). */
  readonly pushing?: boolean;
  /**
   * Holds `lease` on `key` when fewer than `limit` hold it and nobody waits (true). Otherwise,
   * when `queue`, gives it the next ticket in the key's line (false).
   */
  enter(key: string, lease: string, limit: number, ttlMs: number, queue: boolean): Promise<boolean>;
  /** Of `leases` in `key`'s line, those whose turn it is now, or that were granted since: they hold the key from now on. */
  grant(key: string, leases: string[], limit: number, ttlMs: number): Promise<string[]>;
  /**
   * Gives up a slot or a ticket. A store that hands slots over itself grants what came free to the
   * earliest tickets in the same step and returns them (their instances are told through listen).
   */
  leave(key: string, lease: string, limit: number, ttlMs: number): Promise<string[]>;
  /** Calls `onGrant` with each lease of `instance` the store grants a slot (pushed, at most once); may be retried. */
  listen?(instance: string, onGrant: (lease: string) => void): Promise<void>;
  /** Closes what listen opened. */
  close?(): Promise<void>;
  /** Extends every slot and ticket listed that the store has by `ttlMs`; returns the leases it does not have. */
  renew(entries: LeaseEntry[], ttlMs: number): Promise<Set<string>>;
  /** Puts back slots and tickets the store lost (a ticket at the end of its line). */
  restore(entries: LeaseEntry[], ttlMs: number): Promise<void>;
  /** Takes `units` from `key`'s token bucket: 0 when taken, else how long until there are enough (nothing taken). */
  take(key: string, units: number, capacity: number, perMs: number): Promise<number>;
  /** Says `instance` is alive for `ttlMs`; returns the instances that are (this one among them). */
  beat(instance: string, ttlMs: number): Promise<string[]>;
}

/** How many slot times to live after the store's return an instance seen before the loss may stay silent before it is taken for gone. */
const GONE_AFTER_TTLS = 5;

export interface SharedLimitsOptions extends LimitSettings {
  store: LeaseStore;
  /** How long a slot or ticket outlives the last heartbeat of its instance. */
  leaseTtlMs: number;
  logger?: Logger;
}

interface Waiter {
  lease: string;
  resolve: (release: SlotRelease) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
  onAbort: () => void;
}

export class SharedProbeLimits implements ProbeLimits {
  private readonly store: LeaseStore;
  private readonly instance = randomBytes(6).toString('hex');
  private sequence = 0;
  /** Slots this instance holds: lease → key. */
  private readonly held = new Map<string, string>();
  private readonly heldPerKey = new Map<string, number>();
  /** This instance's waiters per key, in arrival order. */
  private readonly lines = new Map<string, Waiter[]>();
  /** The key each waiting lease waits for (to serve a pushed grant). */
  private readonly waitingFor = new Map<string, string>();
  /** Leases whose entry in the store is under way; true once a grant for it came first. */
  private readonly entering = new Map<string, boolean>();
  /** A wake-up for the loop that polls a key's line. */
  private readonly pollers = new Map<string, () => void>();
  /** Slots given back while the store was unreachable: told to it once it answers. */
  private readonly unsentLeaves: { key: string; lease: string }[] = [];
  private readonly pending = new Set<Promise<unknown>>();
  private instances = 1;
  /** The instances the store said were alive, over the last few times to live (see sharers). */
  private recentAlive: { at: number; alive: string[] }[] = [];
  private degraded = false;
  /**
   * While the store is away: no new slot before this time, so that sessions other instances opened
   * beyond their share before the loss (which this one cannot see) end first.
   */
  private settleUntil = 0;
  /**
   * While the store is away: the other instances seen alive before the loss. Each may hold slots
   * the store does not know of (it restarted empty, or they count their share alone): counting is
   * shared again once each has beaten since the return (a beat follows the putting back of what it
   * holds), or has stayed silent so long after it that it is taken for gone.
   */
  private awaited = new Set<string>();
  /** When the store first answered again (0: it has not yet). */
  private returnedAt = 0;
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly heartbeatMs: number;
  private beating: Promise<void> | undefined;
  private fallback: { instances: number; sessions: DomainBuckets; rcpts: DomainBuckets | null } | undefined;

  constructor(private readonly options: SharedLimitsOptions) {
    this.store = options.store;
    // Several beats within one time to live: a slow beat or two never lets a live instance's slots expire.
    this.heartbeatMs = Math.max(50, Math.min(1000, Math.floor(options.leaseTtlMs / 4)));
    this.heartbeat = setInterval(() => void this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
    void this.beat();
  }

  /** Asks the store to push grants (retried every heartbeat until it does; meanwhile waiters poll). */
  private listen(): void {
    void this.store.listen?.(this.instance, (lease) => this.granted(lease)).catch(() => {});
  }

  async acquire(host: string, signal?: AbortSignal, identity?: string): Promise<SlotRelease> {
    if (signal?.aborted) throw new DeadlineError();
    const key = limitKey.connections(host, identity);
    const lease = this.newLease();
    if (!this.degraded) {
      this.entering.set(lease, false);
      try {
        const held = await this.track(this.store.enter(key, lease, this.options.hostConnections, this.options.leaseTtlMs, true));
        // Queued, and granted by another instance's release before this answer came back.
        if (held || this.entering.get(lease)) return this.hold(key, lease, signal);
      } catch (error) {
        this.failed(error);
      } finally {
        this.entering.delete(lease);
      }
    } else if (!this.lines.get(key)?.length && this.heldOf(key) < this.localShare(this.options.hostConnections)) {
      return this.told(key, lease, this.hold(key, lease));
    }
    return this.told(key, lease, await this.wait(key, lease, signal));
  }

  /**
   * A slot taken while counting alone, once the store answers again, is put in the store before its
   * connection opens: an instance that has rejoined counts on the store holding every slot of an
   * instance that has beaten since the return, and this one goes on taking slots until it rejoins.
   */
  private async told(key: string, lease: string, release: SlotRelease): Promise<SlotRelease> {
    if (!this.degraded || !this.returnedAt || !this.held.has(lease)) return release;
    try {
      await this.track(this.store.restore([{ key, lease, waiting: false }], this.options.leaseTtlMs));
    } catch (error) {
      this.failed(error);
    }
    return release;
  }

  async tryAcquire(host: string, identity?: string): Promise<SlotRelease | null> {
    const key = limitKey.connections(host, identity);
    if (!this.degraded) {
      const lease = this.newLease();
      try {
        const held = await this.track(this.store.enter(key, lease, this.options.hostConnections, this.options.leaseTtlMs, false));
        return held ? this.hold(key, lease) : null;
      } catch (error) {
        this.failed(error);
      }
    }
    if (this.lines.get(key)?.length || this.heldOf(key) >= this.localShare(this.options.hostConnections)) return null;
    const lease = this.newLease();
    return this.told(key, lease, this.hold(key, lease));
  }

  takeSession(domain: string, signal?: AbortSignal, identity?: string): Promise<void> {
    return this.take(limitKey.sessions(domain, identity), 1, this.options.domainSessionsPerMinute, signal, 'sessions');
  }

  async takeRcpts(host: string, count: number, signal?: AbortSignal, identity?: string): Promise<void> {
    if (this.options.hostRcptsPerMinute <= 0) return;
    await this.take(limitKey.rcpts(host, identity), count, this.options.hostRcptsPerMinute, signal, 'rcpts');
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const wake of this.pollers.values()) wake();
    await this.beating;
    await Promise.allSettled([...this.pending]);
    await this.store.close?.().catch(() => {});
  }

  private async take(key: string, units: number, perMinute: number, signal: AbortSignal | undefined, kind: 'sessions' | 'rcpts') {
    const { capacity, perMs } = bucketShape(perMinute);
    const need = Math.min(capacity, Math.max(1, units));
    while (!this.degraded) {
      if (signal?.aborted) throw new DeadlineError();
      let waitMs: number;
      try {
        waitMs = await this.track(this.store.take(key, need, capacity, perMs));
      } catch (error) {
        this.failed(error);
        break;
      }
      if (waitMs <= 0) return;
      await sleep(Math.min(waitMs, 1000), signal);
    }
    const buckets = this.fallbackBuckets()[kind];
    await buckets?.take(key, signal, need);
  }

  /** This instance's share of `limit` while the store is away: never more than the limit, at least one. */
  private share(limit: number): number {
    return Math.max(1, Math.floor(limit / Math.max(1, this.instances)));
  }

  /** How many slots of a key this instance may hold while counting alone: none while settling, else its share. */
  private localShare(limit: number): number {
    return Date.now() < this.settleUntil ? 0 : this.share(limit);
  }

  private fallbackBuckets() {
    if (this.fallback?.instances !== this.instances) {
      const rcpts = this.options.hostRcptsPerMinute;
      this.fallback = {
        instances: this.instances,
        sessions: new DomainBuckets(Math.max(1, Math.floor(this.options.domainSessionsPerMinute / this.instances))),
        rcpts: rcpts > 0 ? new DomainBuckets(Math.max(1, Math.floor(rcpts / this.instances))) : null,
      };
    }
    return this.fallback;
  }

  private newLease(): string {
    return `${this.instance}:${(this.sequence += 1)}`;
  }

  private heldOf(key: string): number {
    return this.heldPerKey.get(key) ?? 0;
  }

  /** Records a slot held; the release gives it back to the store (or later, when the store is away). */
  private hold(key: string, lease: string, signal?: AbortSignal): SlotRelease {
    this.held.set(lease, key);
    this.heldPerKey.set(key, this.heldOf(key) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.held.delete(lease);
      const left = this.heldOf(key) - 1;
      if (left <= 0) this.heldPerKey.delete(key);
      else this.heldPerKey.set(key, left);
      if (this.degraded) {
        this.unsentLeaves.push({ key, lease });
        this.pollers.get(key)?.();
      } else this.leave(key, lease);
    };
    // Granted just as the deadline passed: given straight back.
    if (signal?.aborted) {
      release();
      throw new DeadlineError();
    }
    return release;
  }

  /**
   * Gives `lease` back to the store. The slot goes to the earliest ticket in the same step when the
   * store hands over (this instance's served from the answer, others' told by the store); else this
   * instance's waiters ask for it at once.
   */
  private leave(key: string, lease: string, requeue = true): void {
    void this.track(this.store.leave(key, lease, this.options.hostConnections, this.options.leaseTtlMs)).then(
      (granted) => {
        for (const next of granted) this.granted(next, key);
        if (!this.store.listen) this.pollers.get(key)?.();
      },
      (error) => {
        if (requeue) this.unsentLeaves.push({ key, lease });
        this.failed(error);
      },
    );
  }

  /**
   * The store granted `lease` a slot (in an answer, or pushed): its waiter is served, unless it was
   * served already or is not this instance's. A waiter gone (its deadline passed) gave its ticket back
   * when it left; one the store still granted in an answer for `key` is given straight back.
   */
  private granted(lease: string, key?: string): void {
    if (this.closed || this.held.has(lease) || !lease.startsWith(`${this.instance}:`)) return;
    if (this.entering.has(lease)) {
      this.entering.set(lease, true);
      return;
    }
    const lineKey = key ?? this.waitingFor.get(lease);
    const line = lineKey === undefined ? undefined : this.lines.get(lineKey);
    const waiter = line?.find((w) => w.lease === lease);
    if (waiter) this.serve(line!, waiter, lineKey!);
    else if (key !== undefined && !this.degraded) this.leave(key, lease, false);
  }

  private wait(key: string, lease: string, signal?: AbortSignal): Promise<SlotRelease> {
    if (signal?.aborted) {
      if (!this.degraded) this.leave(key, lease, false);
      return Promise.reject(new DeadlineError());
    }
    return new Promise<SlotRelease>((resolve, reject) => {
      const line = this.lines.get(key) ?? [];
      this.lines.set(key, line);
      const waiter: Waiter = {
        lease,
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = line.indexOf(waiter);
          if (i < 0) return;
          line.splice(i, 1);
          this.waitingFor.delete(lease);
          if (!this.degraded) this.leave(key, lease, false);
          reject(new DeadlineError());
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      line.push(waiter);
      this.waitingFor.set(lease, key);
      if (!this.pollers.has(key)) void this.poll(key, line);
    });
  }

  /** Serves a key's waiters of this instance, in order, for as long as any wait. */
  private async poll(key: string, line: Waiter[]): Promise<void> {
    let wake = () => {};
    let woken: boolean;
    this.pollers.set(key, () => {
      woken = true;
      wake();
    });
    const limit = this.options.hostConnections;
    // A store that pushes grants handed out what was free when the ticket was queued: its first question waits a poll.
    let asked = this.store.pushing === true;
    try {
      while (line.length && !this.closed) {
        woken = false;
        if (!this.degraded && !asked) {
          try {
            const granted = await this.track(
              this.store.grant(
                key,
                line.map((w) => w.lease),
                limit,
                this.options.leaseTtlMs,
              ),
            );
            for (const lease of granted) this.granted(lease, key);
          } catch (error) {
            this.failed(error);
          }
        }
        if (this.degraded) {
          while (line.length && this.heldOf(key) < this.localShare(limit)) this.serve(line, line[0], key);
        }
        asked = false;
        if (!line.length || woken) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.degraded ? this.heartbeatMs : this.store.pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = () => {};
      }
    } finally {
      this.pollers.delete(key);
      if (this.lines.get(key) === line && !line.length) this.lines.delete(key);
      if (this.closed) for (const waiter of line.splice(0)) waiter.reject(new DeadlineError());
    }
  }

  private serve(line: Waiter[], waiter: Waiter, key: string): void {
    line.splice(line.indexOf(waiter), 1);
    this.waitingFor.delete(waiter.lease);
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
    try {
      waiter.resolve(this.hold(key, waiter.lease, waiter.signal));
    } catch (error) {
      waiter.reject(error as Error);
    }
  }

  /** Says this instance is alive, renews what it holds and waits for, and notices the store's loss and return. */
  private beat(): Promise<void> {
    if (this.beating || this.closed) return this.beating ?? Promise.resolve();
    this.beating = (async () => {
      try {
        // Renewed first: of a slow heartbeat, the slots' expiry matters most.
        const entries: LeaseEntry[] = [...this.held].map(([lease, key]) => ({ key, lease, waiting: false }));
        for (const [key, line] of this.lines) for (const w of line) entries.push({ key, lease: w.lease, waiting: true });
        const missing = await this.track(this.store.renew(entries, this.options.leaseTtlMs));
        // The store answers again: slots taken alone from here on are told to it (see told).
        if (this.degraded && !this.returnedAt) this.returnedAt = Date.now();
        // Lost by the store (it restarted empty, or this instance stalled past the time to live): put
        // back, unless given back or served meanwhile (never resurrect a slot released during the renewal).
        const lost = entries.filter((e) => missing.has(e.lease) && this.stillCurrent(e));
        if (lost.length) await this.track(this.store.restore(lost, this.options.leaseTtlMs));
        for (const { key, lease } of this.unsentLeaves.splice(0))
          for (const next of await this.track(this.store.leave(key, lease, this.options.hostConnections, this.options.leaseTtlMs)))
            this.granted(next, key);
        const alive = await this.track(this.store.beat(this.instance, this.options.leaseTtlMs));
        // While counting alone, the share never grows: right after the store returns empty, the
        // first instance to beat again sees itself alone while the others still hold their shares.
        this.instances = this.degraded ? Math.max(this.instances, alive.length) : this.sharers(alive);
        this.listen();
        if (this.degraded) this.rejoin(alive);
      } catch (error) {
        this.failed(error);
      } finally {
        this.beating = undefined;
      }
    })();
    return this.beating;
  }

  /**
   * How many instances the share divides by if the store goes away: the most it counted over the
   * last three times to live, so that a count that dipped because another instance was slow to beat
   * (a busy machine) does not hand this one the other's share just before a loss.
   */
  private sharers(alive: string[]): number {
    const now = Date.now();
    this.recentAlive = this.recentAlive.filter((c) => c.at >= now - 3 * this.options.leaseTtlMs);
    this.recentAlive.push({ at: now, alive });
    return Math.max(...this.recentAlive.map((c) => c.alive.length));
  }

  /**
   * The store answered a beat while this instance counts alone: shared counting resumes once every
   * instance awaited is alive in the store again, or once the awaited have been silent for
   * `GONE_AFTER_TTLS` times to live since the return (stopped while the store was away: a process
   * gone holds no connection). Resuming earlier lets the store hand out slots beside connections
   * another instance holds and has not yet told it of (seen: 6 at a limit of 4 on a busy machine,
   * where the other instance's reconnection and beat came more than a time to live after this one's).
   */
  private rejoin(alive: string[]): void {
    const now = Date.now();
    if (!this.returnedAt) this.returnedAt = now;
    for (const instance of alive) this.awaited.delete(instance);
    const gone = now - this.returnedAt >= GONE_AFTER_TTLS * this.options.leaseTtlMs;
    if (this.awaited.size && !gone) return;
    this.degraded = false;
    this.returnedAt = 0;
    this.options.logger?.info(
      { instances: this.instances, silent: this.awaited.size },
      'probe limits: the shared store answers again; limits are shared',
    );
    this.awaited.clear();
    for (const wake of this.pollers.values()) wake();
  }

  private stillCurrent(entry: LeaseEntry): boolean {
    if (!entry.waiting) return this.held.has(entry.lease);
    return this.lines.get(entry.key)?.some((w) => w.lease === entry.lease) ?? false;
  }

  private failed(error: unknown): void {
    this.returnedAt = 0;
    if (this.degraded || this.closed) return;
    this.degraded = true;
    this.awaited = new Set(this.recentAlive.flatMap((c) => c.alive).filter((instance) => instance !== this.instance));
    this.settleUntil = Date.now() + this.options.leaseTtlMs;
    this.options.logger?.warn(
      { err: { message: (error as Error)?.message }, instances: this.instances },
      'probe limits: the shared store is unreachable; counting a share of each limit in this instance',
    );
    for (const wake of this.pollers.values()) wake();
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise)).catch(() => {});
    return promise;
  }
}
