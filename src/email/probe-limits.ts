// What the prober asks before it talks to a mail host (docs/email.md, "Safety"): a connection slot
// per MX host, a session from the recipient domain's budget, and RCPTs from the MX host's budget.
// Every limit is kept per outbound identity (the source address or proxy a probe leaves from): a
// host blocks the address it sees, so each identity has budgets of its own. One implementation
// counts in this process (LocalProbeLimits); SharedProbeLimits (shared-limits.ts) counts for every
// instance through Redis or the database.
import type { EmailConfig } from './config.ts';
import { DomainBuckets, HostSemaphores } from './politeness.ts';

/** The identity of a deployment that probes from one address (the default). */
export const DEFAULT_IDENTITY = 'default';

/** Gives a connection slot back; calling it again does nothing. */
export type SlotRelease = () => void;

export interface ProbeLimits {
  /**
   * A connection slot for MX `host` from `identity`: resolves once one is free, waiters being
   * served in arrival order. Rejects with DeadlineError when `signal` aborts first.
   */
  acquire(host: string, signal?: AbortSignal, identity?: string): Promise<SlotRelease>;
  /** A slot when one is free now and nobody waits for one, else null; never waits in line. */
  tryAcquire(host: string, identity?: string): Promise<SlotRelease | null>;
  /** One new session from `domain`'s budget (sessions per minute), waiting for it when spent. */
  takeSession(domain: string, signal?: AbortSignal, identity?: string): Promise<void>;
  /** `count` RCPTs from MX `host`'s budget (RCPTs per minute; no wait when that limit is off). */
  takeRcpts(host: string, count: number, signal?: AbortSignal, identity?: string): Promise<void>;
  /** Stops background work and gives back what is held in a shared store. */
  close(): Promise<void>;
}

/** The limits themselves, whoever counts them (from EmailConfig). */
export interface LimitSettings {
  /** Connections at once per MX host and identity. */
  hostConnections: number;
  /** New sessions per recipient domain and identity per minute. */
  domainSessionsPerMinute: number;
  /** RCPTs per MX host and identity per minute; 0: not limited. */
  hostRcptsPerMinute: number;
}

export function limitSettings(config: EmailConfig): LimitSettings {
  return {
    hostConnections: config.maxSessionsPerMxHost,
    domainSessionsPerMinute: config.domainSessionsPerMinute,
    hostRcptsPerMinute: config.hostRcptsPerMinute,
  };
}

/** The names limits are counted under: one per MX host (or domain) and outbound identity. */
export const limitKey = {
  connections: (host: string, identity?: string) => `conn|${host.toLowerCase()}|${identity ?? DEFAULT_IDENTITY}`,
  sessions: (domain: string, identity?: string) => `sess|${domain.toLowerCase()}|${identity ?? DEFAULT_IDENTITY}`,
  rcpts: (host: string, identity?: string) => `rcpt|${host.toLowerCase()}|${identity ?? DEFAULT_IDENTITY}`,
};

/** Today's single-instance behaviour: everything counted in this process. */
export class LocalProbeLimits implements ProbeLimits {
  private readonly slots: HostSemaphores;
  private readonly sessions: DomainBuckets;
  private readonly rcpts: DomainBuckets | null;

  constructor(settings: LimitSettings) {
    this.slots = new HostSemaphores(settings.hostConnections);
    this.sessions = new DomainBuckets(settings.domainSessionsPerMinute);
    this.rcpts = settings.hostRcptsPerMinute > 0 ? new DomainBuckets(settings.hostRcptsPerMinute) : null;
  }

  acquire(host: string, signal?: AbortSignal, identity?: string): Promise<SlotRelease> {
    return this.slots.acquire(limitKey.connections(host, identity), signal);
  }

  async tryAcquire(host: string, identity?: string): Promise<SlotRelease | null> {
    return this.slots.tryAcquire(limitKey.connections(host, identity));
  }

  takeSession(domain: string, signal?: AbortSignal, identity?: string): Promise<void> {
    return this.sessions.take(limitKey.sessions(domain, identity), signal);
  }

  async takeRcpts(host: string, count: number, signal?: AbortSignal, identity?: string): Promise<void> {
    await this.rcpts?.take(limitKey.rcpts(host, identity), signal, count);
  }

  async close(): Promise<void> {}
}
