// Every outbound connection a client or a registered source can aim (SMTP to an MX anyone can
// publish, webhooks, crawls, discovery) goes to public addresses only: a loopback, private,
// link-local or otherwise non-public target is refused, or a caller could make us talk to our own
// infrastructure.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** True when `ip` is an ordinary public unicast address. */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  // process() turns an IPv4-mapped IPv6 address into the IPv4 address it carries.
  const parsed = ipaddr.process(ip);
  // IPv4-compatible IPv6 (::/96, deprecated by RFC 4291) carries an IPv4 address in its last 32
  // bits however it is written ("::7f00:1" is 127.0.0.1): never a public mail host.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return false;
  return parsed.range() === 'unicast';
}

/**
 * dns.lookup that fails unless every address it finds is public: given as `lookup` to a socket, it
 * checks the very address connected to (a name that resolves elsewhere a second time cannot slip by).
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new NotPublicError(`${hostname} resolves to ${refused.address}, not a public address`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

/** A connection refused because its target is not a public address. */
export class NotPublicError extends Error {
  readonly code = 'ERR_NOT_PUBLIC_ADDRESS';
}

/** The IP literal of a URL's host (brackets of IPv6 removed), or null for a name. */
export function ipLiteralOf(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) ? bare : null;
}
