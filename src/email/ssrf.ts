// The prober connects wherever a domain's MX points, and anyone can publish an MX record; so a
// host on a loopback, private, link-local or otherwise non-public address is refused, or a
// customer could make us talk to our own infrastructure.
import ipaddr from 'ipaddr.js';

/** True when `ip` is an ordinary public unicast address. */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  // process() turns an IPv4-mapped IPv6 address into the IPv4 address it carries.
  const parsed = ipaddr.process(ip);
  return parsed.range() === 'unicast';
}
