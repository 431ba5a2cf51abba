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
// ASCII dot-atom @ dot-atom of letters, digits and hyphens: nearly every address, and one the
// RFC 5322 parser reads as exactly these two parts, so it is split here at a fraction of the cost.
const PLAIN_ADDRESS = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

/**
 * Characters no one types into an address: invisible format characters (zero-width space and
 * joiners, BOM, bidi controls, soft hyphen), controls and unassigned or private-use code points.
 * RFC 6532 would let them through a UTF-8 local part, and IDNA mapping drops some of them from a
 * domain (so "gm\u200bail.com" would be probed as gmail.com).
 */
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Co}\p{Cn}\u2028\u2029]/u;

/** The parsed address, or null when it is not a deliverable addr-spec. */
export function parseAddress(input: string): ParsedAddress | null {
  const text = input.trim();
  if (text.length > 512) return null;
  if (PLAIN_ADDRESS.test(text)) {
    const at = text.indexOf('@');
    return checkParts(text.slice(0, at), text.slice(at + 1));
  }
  return parseAddressFully(text);
}

/** parseAddress through the full RFC 5322 / 6532 parser only (quoted local parts, UTF-8, comments…). */
export function parseAddressFully(input: string): ParsedAddress | null {
  const text = input.trim();
  if (!text || text.length > 512 || INVISIBLE.test(text)) return null;
  const parsed = emailAddresses.parseOneAddress({ input: text, rfc6532: true, rejectTLD: true });
  if (!parsed || parsed.type !== 'mailbox') return null;
  const mailbox = parsed as emailAddresses.ParsedMailbox & {
    comments: string;
    parts: { address: { tokens: string }; local: { tokens: string } };
  };
  // A display name ("Jane <j@x.com>") or comments are not an address.
  if (mailbox.name !== null || mailbox.comments || mailbox.parts.address.tokens !== text) return null;
  if (mailbox.domain.startsWith('[')) return null; // address literals are not probed
  return checkParts(mailbox.parts.local.tokens, mailbox.domain);
}

/** RFC 5321 limits and DNS rules on a parsed local part and domain; the domain in its ASCII form. */
function checkParts(local: string, rawDomain: string): ParsedAddress | null {
  const domain = domainToASCII(rawDomain.toLowerCase()).replace(/\.$/, '');
  if (!domain || domain.length > MAX_DOMAIN) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || !TLD.test(labels.at(-1)!)) return null;
  if (Buffer.byteLength(local, 'utf8') > MAX_LOCAL) return null;
  const address = `${local}@${domain}`;
  if (Buffer.byteLength(address, 'utf8') > MAX_PATH) return null;
  return { local, domain, address };
}
