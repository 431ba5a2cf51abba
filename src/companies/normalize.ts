// Matching keys of the companies domain: normalized domains and company names.
// Every module that looks a company up (email enrichment, jobs, people) uses these, so a
// domain or a name written in any usual way reaches the same company.
import { domainToASCII } from 'node:url';

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * The normalized form of a company domain, from a bare domain, a full URL or an email address:
 * lower case, no scheme, path, port or credentials, no leading `www.`, IDN in ASCII (punycode).
 * Null when the input is not a plausible public domain name (IP addresses, single labels, junk).
 */
const PLAIN_DOMAIN = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;

export function normalizeDomain(input: string): string | null {
  if (typeof input !== 'string') return null;
  let text = input.trim();
  if (!text) return null;
  // Fast path (most rows of an import): already a lower-case ASCII host name.
  if (PLAIN_DOMAIN.test(text) && !text.startsWith('www') && text.length <= 253) return validHost(text);
  text = text.replace(/^mailto:/i, '');
  let host: string;
  if (SCHEME.test(text)) {
    host = hostOf(text);
  } else if (text.includes('@') && !/[/?#]/.test(text.slice(0, text.lastIndexOf('@')))) {
    // An email address: the domain is what follows the last @.
    host = text.slice(text.lastIndexOf('@') + 1);
    host = hostOf(`http://${host}`);
  } else {
    host = hostOf(`http://${text}`);
  }
  if (!host) return null;
  host = host.replace(/\.+$/, '');
  host = domainToASCII(host);
  if (!host) return null;
  while (/^www\d*\./.test(host) && host.split('.').length > 2) host = host.replace(/^www\d*\./, '');
  if (host.length > 253) return null;
  return validHost(host);
}

function validHost(host: string): string | null {
  const labels = host.split('.');
  if (labels.length < 2) return null;
  if (!labels.every((l) => LABEL.test(l))) return null;
  if (!TOP_LABEL.test(labels[labels.length - 1])) return null;
  return host;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

// Legal-form words dropped from the end of a name (after punctuation is gone, so "L.L.C." is "llc").
const LEGAL_SUFFIXES = new Set([
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'cos',
  'llc',
  'llp',
  'lllp',
  'lp',
  'pllc',
  'pc',
  'ltd',
  'limited',
  'plc',
  'gmbh',
  'mbh',
  'ag',
  'kg',
  'kgaa',
  'ohg',
  'ug',
  'ev',
  'sa',
  'sas',
  'sasu',
  'sarl',
  'sl',
  'slu',
  'srl',
  'spa',
  'sca',
  'bv',
  'nv',
  'vof',
  'oy',
  'oyj',
  'ab',
  'publ',
  'as',
  'asa',
  'aps',
  'a/s',
  'pty',
  'pte',
  'pvt',
  'private',
  'kk',
  'gk',
  'ulc',
  'se',
  'sae',
  'sro',
  'doo',
  'ltda',
  'sab',
  'de',
  'cv',
]);
// Words dropped only when a real legal form after them was dropped ("S.A. de C.V.", "Private Limited").
const WEAK_SUFFIXES = new Set(['de', 'private', 'publ']);
const CONNECTORS = new Set(['and', 'und', 'et', 'y']);

/**
 * The name matching key: case, accents, punctuation and trailing legal forms (Inc, LLC, GmbH, Ltd,
 * "& Co." …) removed, a leading "The" dropped, words separated by one space.
 * "Stripe, Inc." and "stripe" give "stripe"; "Procter & Gamble Co." gives "procter and gamble".
 * Never empty for a name with letters or digits: a name made only of legal words is kept as is.
 */
export function normalizeCompanyName(name: string): string {
  const raw = String(name ?? '');
  // Accents are folded only when there can be any (NFKD is the costly step on ASCII names).
  const base = (/[^\x00-\x7f]/.test(raw) ? raw.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : raw)
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\+/g, ' plus ')
    .replace(/['’`.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  if (!base) return '';
  const words = base.split(' ');
  if (words[0] === 'the' && words.length > 1) words.shift();
  let strippedStrong = false;
  for (;;) {
    if (words.length <= 1) break;
    const last = words[words.length - 1];
    if (LEGAL_SUFFIXES.has(last) && (!WEAK_SUFFIXES.has(last) || strippedStrong)) {
      words.pop();
      if (!WEAK_SUFFIXES.has(last)) strippedStrong = true;
      continue;
    }
    if (strippedStrong && CONNECTORS.has(last)) {
      words.pop();
      continue;
    }
    break;
  }
  return words.join(' ');
}

/** company_size labels (docs/contract.md, Values), smallest first, with their upper bounds. */
export const SIZE_LABELS: { label: string; max: number }[] = [
  { label: '1-10', max: 10 },
  { label: '11-50', max: 50 },
  { label: '51-200', max: 200 },
  { label: '201-500', max: 500 },
  { label: '501-1000', max: 1000 },
  { label: '1001-5000', max: 5000 },
  { label: '5001-10000', max: 10000 },
  { label: '10001+', max: Number.POSITIVE_INFINITY },
];

/** The size label for an employee count. */
export function sizeLabelForCount(count: number | null | undefined): string | null {
  if (count === null || count === undefined || !Number.isFinite(count) || count < 0) return null;
  return SIZE_LABELS.find((s) => count <= s.max)!.label;
}

/**
 * A size label from the usual ways sources write one ("51-200", "51 - 200 employees", "10,001+",
 * "10001-max"); null when it is not one of our labels.
 */
export function normalizeSizeLabel(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const t = String(text)
    .toLowerCase()
    .replace(/,/g, '')
    .replace(/employees?/g, '')
    .replace(/\s+/g, '');
  if (!t) return null;
  const open = /^(\d+)(?:\+|-max|-|andmore|ormore)$/.exec(t);
  if (open) return sizeLabelForCount(Number(open[1]));
  const range = /^(\d+)-(\d+)$/.exec(t);
  if (range) {
    const label = `${Number(range[1])}-${Number(range[2])}`;
    if (SIZE_LABELS.some((s) => s.label === label)) return label;
    return sizeLabelForCount(Number(range[2]));
  }
  if (/^\d+$/.test(t)) return sizeLabelForCount(Number(t));
  return null;
}

export const COMPANY_TYPES = ['private', 'public', 'public_subsidiary', 'nonprofit', 'educational', 'government'] as const;
export type CompanyType = (typeof COMPANY_TYPES)[number];

/** company_type (docs/contract.md, Values) from the words sources use ("Public Company", "non-profit", "Privately Held"…). */
export function normalizeCompanyType(text: string | null | undefined): CompanyType | null {
  if (!text) return null;
  const t = String(text)
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();
  if (!t) return null;
  if (/subsidiary/.test(t)) return 'public_subsidiary';
  if (/\bnon ?profit|not for profit|charity|foundation\b|nonprofit/.test(t)) return 'nonprofit';
  if (/educat|school|university|college/.test(t)) return 'educational';
  if (/government|public sector|agency\b|municipal/.test(t)) return 'government';
  if (/\bpublic\b|publicly|listed/.test(t)) return 'public';
  if (/private|privately|self employed|partnership|sole proprietor|self owned/.test(t)) return 'private';
  return null;
}
