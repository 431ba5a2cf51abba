// Email address patterns of a company domain ("first.last", "flast" …): which ones a domain is
// seen to use, and the candidate addresses for a person ranked by them.
import { foldNamePart } from './names.ts';

/** `initial`: the first name's initial, or its parts' initials for a hyphenated name ("jp" for Jean-Pierre). */
type Parts = { first: string; last: string; initial: string };
type Builder = (p: Parts) => string;

/** Patterns in the order tried when a domain shows no evidence (most common across companies first). */
export const PATTERNS: Record<string, Builder> = {
  'first.last': (p) => `${p.first}.${p.last}`,
  first: (p) => p.first,
  flast: (p) => `${p.initial}${p.last}`,
  firstlast: (p) => `${p.first}${p.last}`,
  'f.last': (p) => `${p.initial}.${p.last}`,
  first_last: (p) => `${p.first}_${p.last}`,
  firstl: (p) => `${p.first}${p.last[0]}`,
  'first-last': (p) => `${p.first}-${p.last}`,
  last: (p) => p.last,
  'last.first': (p) => `${p.last}.${p.first}`,
  lastfirst: (p) => `${p.last}${p.first}`,
  lastf: (p) => `${p.last}${p.initial}`,
  'first.l': (p) => `${p.first}.${p.last[0]}`,
  fl: (p) => `${p.initial}${p.last[0]}`,
};
export type PatternName = keyof typeof PATTERNS;
const PATTERN_NAMES = Object.keys(PATTERNS);

/** The forms of a last name used in addresses: particles joined ("delacruz"), then the last word alone ("cruz"). */
export function lastNameForms(last: string): string[] {
  const words = last
    .split(/[\s-]+/)
    .map(foldNamePart)
    .filter(Boolean);
  if (!words.length) return [];
  const forms = [words.join('')];
  if (words.length > 1) forms.push(words[words.length - 1]);
  return forms;
}

/** The first name's initial, then (for a hyphenated name) its parts' initials: "j", "jp" for Jean-Pierre. */
function initialForms(first: string): string[] {
  const parts = (first.trim().split(/\s+/)[0] ?? '').split('-').map(foldNamePart).filter(Boolean);
  if (!parts.length) return [];
  const forms = [parts[0][0]];
  if (parts.length > 1) forms.push(parts.map((p) => p[0]).join(''));
  return forms;
}

function firstNameForm(first: string): string {
  return foldNamePart(first.split(/\s+/)[0] ?? '');
}

/** The pattern a known address follows for its holder's name, or null when it follows none. */
export function patternOf(localPart: string, first: string | null, last: string | null): PatternName | null {
  if (!first || !last) return null;
  const f = firstNameForm(first);
  const local = localPart.toLowerCase().replace(/\+.*$/, '');
  if (!f) return null;
  for (const l of lastNameForms(last)) {
    for (const initial of initialForms(first)) {
      for (const name of PATTERN_NAMES) if (PATTERNS[name]({ first: f, last: l, initial }) === local) return name;
    }
  }
  return null;
}

/** How many known addresses at a domain follow each pattern. */
export function observedPatterns(
  samples: { email: string; first_name: string | null; last_name: string | null }[],
): Map<PatternName, number> {
  const counts = new Map<PatternName, number>();
  for (const s of samples) {
    const at = s.email.lastIndexOf('@');
    const pattern = patternOf(s.email.slice(0, at), s.first_name, s.last_name);
    if (pattern) counts.set(pattern, (counts.get(pattern) ?? 0) + 1);
  }
  return counts;
}

/**
 * Candidate addresses for a person at a domain, most likely first: patterns the domain is seen to
 * use by how often, then the rest in the usual order; for each pattern the joined last name comes
 * before the last word alone. At most `limit` addresses.
 */
export function rankedCandidates(
  name: { first: string | null; last: string | null },
  domain: string,
  observed: Map<PatternName, number>,
  limit = 8,
): string[] {
  if (!name.first || !name.last) return [];
  const first = firstNameForm(name.first);
  const lasts = lastNameForms(name.last);
  const initials = initialForms(name.first);
  if (!first || !lasts.length || !initials.length) return [];
  const order = [...PATTERN_NAMES].sort(
    (a, b) => (observed.get(b) ?? 0) - (observed.get(a) ?? 0) || PATTERN_NAMES.indexOf(a) - PATTERN_NAMES.indexOf(b),
  );
  const out: string[] = [];
  for (const pattern of order) {
    for (const last of lasts) {
      for (const initial of initials) {
        const address = `${PATTERNS[pattern]({ first, last, initial })}@${domain}`;
        if (!out.includes(address)) out.push(address);
      }
    }
  }
  return out.slice(0, limit);
}
