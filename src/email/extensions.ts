// What people expect beside the status (extensions to the original response): a disposable
// mailbox, a role account, a free-mail provider, and the address someone probably meant.
import { createRequire } from 'node:module';
import { isFreeMailDomain } from './free-mail.ts';

export interface AddressExtensions {
  is_disposable: boolean;
  is_role_account: boolean;
  is_free_email: boolean;
  did_you_mean: string | null;
}

const require = createRequire(import.meta.url);
let disposable: { exact: Set<string>; anySubdomainOf: Set<string> } | undefined;

/** The maintained list of disposable-mail domains (the `disposable-email-domains` package), loaded once. */
function disposableLists() {
  disposable ??= {
    exact: new Set(require('disposable-email-domains') as string[]),
    anySubdomainOf: new Set(require('disposable-email-domains/wildcard.json') as string[]),
  };
  return disposable;
}

export function isDisposableDomain(domain: string): boolean {
  const { exact, anySubdomainOf } = disposableLists();
  if (exact.has(domain)) return true;
  for (let dot = domain.indexOf('.'); dot > 0; dot = domain.indexOf('.', dot + 1)) {
    if (anySubdomainOf.has(domain.slice(dot + 1))) return true;
  }
  return anySubdomainOf.has(domain);
}

/** Local parts that name a function or a team rather than a person. */
const ROLE_LOCAL_PARTS = new Set(
  `abuse accounting accounts admin administrator billing booking bookings careers contact contactus customercare
customerservice customersupport dev developers enquiries enquiry feedback finance hello help helpdesk hostmaster hr info
information inquiries inquiry investor investors it jobs legal mail marketing media news newsletter noc noreply no-reply
notifications office operations ops orders partners partnerships payments postmaster press privacy procurement purchasing
recruiting recruitment reservations root sales security service services shop staff support sysadmin team tech
webmaster welcome`.split(/\s+/),
);

export function isRoleAccount(local: string): boolean {
  const base = local.toLowerCase().replace(/^"|"$/g, '').split('+')[0];
  return ROLE_LOCAL_PARTS.has(base) || ROLE_LOCAL_PARTS.has(base.replace(/[._-]/g, ''));
}

/** Domains most typos are of: consumer mail providers people type every day. */
const COMMON_DOMAINS = [
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'live.com',
  'msn.com',
  'icloud.com',
  'aol.com',
  'protonmail.com',
  'proton.me',
  'gmx.com',
  'gmx.de',
  'web.de',
  'yandex.com',
  'mail.com',
  'comcast.net',
  'yahoo.co.uk',
  'hotmail.co.uk',
  'btinternet.com',
  'orange.fr',
];
const COMMON_SET = new Set(COMMON_DOMAINS);

/** Optimal string alignment distance (Levenshtein with adjacent transpositions), stopping past `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    let best = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i][j] = d;
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
  }
  return rows[a.length][b.length];
}

/** The address with a common provider's domain when `domain` looks like a typo of it ("gmial.com"), else null. */
export function didYouMean(local: string, domain: string): string | null {
  if (COMMON_SET.has(domain) || isFreeMailDomain(domain)) return null;
  let best: { domain: string; distance: number } | null = null;
  for (const candidate of COMMON_DOMAINS) {
    // One edit for short names, two for longer ones: "gmal.com", "hotmial.com", "yaho.com".
    const max = candidate.length >= 9 ? 2 : 1;
    const distance = editDistance(domain, candidate, max);
    if (distance <= max && (!best || distance < best.distance)) best = { domain: candidate, distance };
  }
  return best ? `${local}@${best.domain}` : null;
}

/** The extensions of an address already parsed (`domain` in its ASCII form). */
export function addressExtensions(local: string, domain: string): AddressExtensions {
  return {
    is_disposable: isDisposableDomain(domain),
    is_role_account: isRoleAccount(local),
    is_free_email: isFreeMailDomain(domain),
    did_you_mean: didYouMean(local, domain),
  };
}

/** For an address that did not parse: only a typo of the domain can still be told. */
export const NO_EXTENSIONS: AddressExtensions = { is_disposable: false, is_role_account: false, is_free_email: false, did_you_mean: null };
