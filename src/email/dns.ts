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
}

export class DnsClient {
  private readonly resolver: Resolver;
  private readonly mxCache = new TtlCache<MxLookup>(50_000);
  private readonly addressCache = new TtlCache<AddressLookup>(50_000);
  private readonly inFlight = new Map<string, Promise<MxLookup>>();

  constructor(private readonly options: DnsClientOptions) {
    this.resolver = new Resolver({ timeout: Math.max(100, Math.round(options.timeoutMs / 2)), tries: 2 });
    if (options.servers.length > 0) this.resolver.setServers(options.servers);
  }

  clear(): void {
    this.mxCache.clear();
    this.addressCache.clear();
  }

  async lookupMx(domain: string): Promise<MxLookup> {
    const cached = this.mxCache.get(domain);
    if (cached) return cached.value;
    let pending = this.inFlight.get(domain);
    if (!pending) {
      pending = this.lookupMxUncached(domain).finally(() => this.inFlight.delete(domain));
      this.inFlight.set(domain, pending);
    }
    const result = await pending;
    // Failures are not remembered: the next call asks again.
    if (result.kind !== 'error') this.mxCache.set(domain, result, this.options.cacheTtlMs);
    return result;
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
