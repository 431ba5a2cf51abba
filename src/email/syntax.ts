// Address syntax: RFC 5322 addr-spec (with RFC 6532 UTF-8) via email-addresses, RFC 5321 length
// limits, and the domain turned into its ASCII (IDNA) form for DNS and SMTP.
import { domainToASCII } from 'node:url';
import emailAddresses from 'email-addresses';

export interface ParsedAddress {
  /** Local part as it must be written in RCPT TO (quoted when the input was quoted). */
  local: string;
  /** Lower-case ASCII (A-label) domain. */
  domain: string;
  /** local@domain with the ASCII domain: what is probed and cached. */
  address: string;
}

const MAX_LOCAL = 64; // RFC 5321 4.5.3.1.1
const MAX_DOMAIN = 253; // DNS limit of a name without the final dot
const MAX_PATH = 254; // RFC 5321 path limit (256) minus the angle brackets
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** The parsed address, or null when it is not a deliverable addr-spec. */
export function parseAddress(input: string): ParsedAddress | null {
  const text = input.trim();
  if (!text || text.length > 512 || /[\r\n\0]/.test(text)) return null;
  const parsed = emailAddresses.parseOneAddress({ input: text, rfc6532: true, rejectTLD: true });
  if (!parsed || parsed.type !== 'mailbox') return null;
  const mailbox = parsed as emailAddresses.ParsedMailbox & { comments: string; parts: { address: { tokens: string }; local: { tokens: string } } };
  // A display name ("Jane <j@x.com>") or comments are not an address.
  if (mailbox.name !== null || mailbox.comments || mailbox.parts.address.tokens !== text) return null;
  const local = mailbox.parts.local.tokens;
  const rawDomain = mailbox.domain;
  if (rawDomain.startsWith('[')) return null; // address literals are not probed
  const domain = domainToASCII(rawDomain.toLowerCase()).replace(/\.$/, '');
  if (!domain || domain.length > MAX_DOMAIN) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || !TLD.test(labels.at(-1)!)) return null;
  if (Buffer.byteLength(local, 'utf8') > MAX_LOCAL) return null;
  const address = `${local}@${domain}`;
  if (Buffer.byteLength(address, 'utf8') > MAX_PATH) return null;
  return { local, domain, address };
}
