// The prober connects wherever a domain's MX points, and anyone can publish an MX record; so a
// host on a loopback, private, link-local or otherwise non-public address is refused, or a
// customer could make us talk to our own infrastructure.
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
