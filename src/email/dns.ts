// MX discovery (RFC 5321 section 5.1) on node's c-ares resolver with configurable servers.
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { TtlCache } from './ttl-cache.ts';

export type MxLookup =
  /** Hosts in preference order; `implicit` when there was no MX and the domain's own address is used. */
  | { kind: 'mx'; hosts: string[]; implicit: boolean }
  /** RFC 7505 null MX: the domain declares it accepts no mail. */
  | { kind: 'null-mx' }
  /** The domain exists but has neither MX nor address records. */
  | { kind: 'no-mail' }
  | { kind: 'nxdomain' }
  /**
   * NXDOMAIN from a resolver that also denies the canary, a name that exists: the resolver is broken
   * (sinkholed, a captive portal, a filtering proxy), and says nothing about the domain.
   */
  | { kind: 'resolver-failing'; canary: string; code: string }
  /** SERVFAIL, timeout, refused…: nothing can be concluded. */
  | { kind: 'error'; code: string };

export type AddressLookup = { kind: 'ok'; addresses: string[] } | { kind: 'none' } | { kind: 'error'; code: string };

const NOT_FOUND = new Set(['ENOTFOUND']);
const NO_DATA = new Set(['ENODATA']);

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException)?.code ?? 'EUNKNOWN';
}

export interface DnsClientOptions {
  servers: string[];
  timeoutMs: number;
  cacheTtlMs: number;
  /** A name every working resolver finds (EMAIL_DNS_CANARY); asked after an NXDOMAIN. Empty: NXDOMAIN is always believed. */
  canary?: string;
  /** Told when the canary's answer changes what the resolver is held to be (for the log). */
  onResolverState?: (state: { failing: boolean; canary: string; code: string | null }) => void;
}

/** How long the canary's answer is kept: long enough that a sinkholed burst asks it once, short enough that a repaired resolver is believed within seconds. */
export const CANARY_TTL_MS = 15_000;

interface CanaryOutcome {
  failing: boolean;
  /** The canary's error code when it failed (ENOTFOUND, ETIMEOUT…). */
  code: string | null;
  at: number;
}

export class DnsClient {
  private readonly resolver: Resolver;
  private readonly mxCache = new TtlCache<MxLookup>(50_000);
  private readonly addressCache = new TtlCache<AddressLookup>(50_000);
  private readonly inFlight = new Map<string, Promise<MxLookup>>();
  private canary: CanaryOutcome | undefined;
  private canaryInFlight: Promise<CanaryOutcome> | undefined;

  constructor(private readonly options: DnsClientOptions) {
    this.resolver = new Resolver({ timeout: Math.max(100, Math.round(options.timeoutMs / 2)), tries: 2 });
    if (options.servers.length > 0) this.resolver.setServers(options.servers);
  }

  clear(): void {
    this.mxCache.clear();
    this.addressCache.clear();
    this.canary = undefined;
  }

  async lookupMx(domain: string): Promise<MxLookup> {
    const cached = this.mxCache.get(domain);
    if (cached) return cached.value;
    let pending = this.inFlight.get(domain);
    if (!pending) {
      pending = this.lookupMxUncached(domain).finally(() => this.inFlight.delete(domain));
      this.inFlight.set(domain, pending);
    }
    let result = await pending;
    if (result.kind === 'nxdomain') {
      // A sinkholed resolver answers NXDOMAIN for gmail.com too: an NXDOMAIN is a verdict only from
      // a resolver that finds a name known to exist.
      const canary = await this.checkCanary();
      if (canary.failing) result = { kind: 'resolver-failing', canary: this.options.canary!, code: canary.code ?? 'ENOTFOUND' };
    }
    // Failures are not remembered: the next call asks again.
    if (result.kind !== 'error' && result.kind !== 'resolver-failing') this.mxCache.set(domain, result, this.options.cacheTtlMs);
    return result;
  }

  /**
   * For /readyz: 'unavailable' while the resolver is held to be failing. Asks the canary again only
   * when it was last seen failing and that answer is stale (a repaired resolver is seen); a resolver
   * never seen failing is not asked at every poll.
   */
  async resolverState(): Promise<'ok' | 'unavailable'> {
    if (!this.options.canary || !this.canary?.failing) return 'ok';
    return (await this.checkCanary()).failing ? 'unavailable' : 'ok';
  }

  /** Whether the resolver finds the canary, asked at most once per CANARY_TTL_MS (concurrent callers share one query). */
  private checkCanary(): Promise<CanaryOutcome> {
    if (!this.options.canary) return Promise.resolve({ failing: false, code: null, at: Date.now() });
    if (this.canary && Date.now() - this.canary.at < CANARY_TTL_MS) return Promise.resolve(this.canary);
    this.canaryInFlight ??= this.askCanary(this.options.canary).finally(() => (this.canaryInFlight = undefined));
    return this.canaryInFlight;
  }

  private async askCanary(name: string): Promise<CanaryOutcome> {
    let code: string | null = null;
    try {
      // The same question as the one that got NXDOMAIN: a resolver filtering by type cannot pass.
      await this.resolver.resolveMx(name);
    } catch (error) {
      const failed = errorCode(error);
      // NODATA: the name exists (no MX). Anything else (NXDOMAIN, SERVFAIL, a timeout) leaves the
      // NXDOMAIN unconfirmed: nothing about the domain can be concluded.
      if (!NO_DATA.has(failed)) code = failed;
    }
    const outcome: CanaryOutcome = { failing: code !== null, code, at: Date.now() };
    if (outcome.failing !== (this.canary?.failing ?? false))
      this.options.onResolverState?.({ failing: outcome.failing, canary: name, code });
    this.canary = outcome;
    return outcome;
  }

  private async lookupMxUncached(domain: string): Promise<MxLookup> {
    try {
      const records = await this.resolver.resolveMx(domain);
      if (records.length === 1 && (records[0].exchange === '' || records[0].exchange === '.')) return { kind: 'null-mx' };
      const usable = records.filter((r) => r.exchange && r.exchange !== '.');
      if (usable.length === 0) return { kind: 'null-mx' };
      return { kind: 'mx', hosts: orderByPreference(usable), implicit: false };
    } catch (error) {
      const code = errorCode(error);
      if (NOT_FOUND.has(code)) return { kind: 'nxdomain' };
      if (!NO_DATA.has(code)) return { kind: 'error', code };
    }
    // No MX records: RFC 5321 5.1 says the domain itself is the implicit MX if it has an address.
    const addresses = await this.addresses(domain);
    if (addresses.kind === 'ok') return { kind: 'mx', hosts: [domain], implicit: true };
    if (addresses.kind === 'none') return { kind: 'no-mail' };
    return { kind: 'error', code: addresses.code };
  }

  /** A and AAAA addresses of a host (IPv4 first). */
  async addresses(host: string): Promise<AddressLookup> {
    // RFC 5321 wants a name in MX, but an address literal is published often enough to honour it.
    if (isIP(host)) return { kind: 'ok', addresses: [host] };
    const cached = this.addressCache.get(host);
    if (cached) return cached.value;
    const [v4, v6] = await Promise.allSettled([this.resolver.resolve4(host), this.resolver.resolve6(host)]);
    const found = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    let result: AddressLookup;
    if (found.length > 0) result = { kind: 'ok', addresses: found };
    else {
      const codes = [v4, v6].map((r) => (r.status === 'rejected' ? errorCode(r.reason) : 'ENODATA'));
      const hard = codes.find((c) => !NOT_FOUND.has(c) && !NO_DATA.has(c));
      result = hard ? { kind: 'error', code: hard } : { kind: 'none' };
    }
    if (result.kind !== 'error') this.addressCache.set(host, result, this.options.cacheTtlMs);
    return result;
  }
}

/** Lowest preference first; ties by name, so mx_record is stable from one call to the next. */
function orderByPreference(records: { exchange: string; priority: number }[]): string[] {
  const sorted = [...records].sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange));
  const seen = new Set<string>();
  const hosts: string[] = [];
  for (const r of sorted) {
    const host = r.exchange.toLowerCase().replace(/\.$/, '');
    if (!seen.has(host)) {
      seen.add(host);
      hosts.push(host);
    }
  }
  return hosts;
}
