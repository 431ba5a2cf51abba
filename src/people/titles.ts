// Job titles reduced to canonical role keys, so "CEO", "Chief Executive Officer" and
// "Co-Founder & CEO" all hold the role `chief:executive`, and "Head of Sales", "Sales Director"
// and "Director, Sales" all hold `head:sales`. A key is `<level>:<function>`, optionally
// preceded by a qualifier that makes it a different role ("deputy chief:executive").
// Keys are computed once per stored position, so finding a role holder is an index lookup on
// (company, role key) instead of comparing titles at query time. The words it reads titles with
// are in titles-data.ts.

import {
  LEVEL_RANK,
  type Level,
  PHRASES,
  WORDS,
  ACRONYMS,
  C_SUITE,
  CHIEF_FUNCTIONS,
  DEPARTMENTS,
  LEVEL_WORDS,
  STANDALONE,
  QUALIFIERS,
  SENIOR,
  JUNIOR,
  DROPPED,
} from './titles-data.ts';

export { LEVEL_RANK, type Level };

/** A query that names only a function ("Marketing") matches that function at any level. */
export type QueryLevel = Level | 'any';

export interface TitleRole {
  /** The stored and matched key, such as `head:sales`. */
  key: string;
  level: QueryLevel;
  /** Canonical function words (`sales`, `software engineer`), '' for a bare rank such as President. */
  fn: string;
  /** Seniority of the role for ordering holders: the level's rank, lowered by a qualifier. */
  rank: number;
}

export interface AnalyzedTitle {
  /** The title's words after abbreviations are expanded: equal titles written differently compare equal. */
  normalized: string;
  roles: TitleRole[];
  /** Modifier seniority: +1 senior/principal, -1 junior, 0 otherwise (a tie-break between holders). */
  modifier: number;
}

/** How far a qualifier ("Deputy", "Vice") lowers the rank of the role it qualifies. */
const QUALIFIER_PENALTY = 5;

interface Segment {
  level: Level | null;
  qualifier: string | null;
  fnWords: string[];
  /** Roles found directly (C-suite acronyms and "chief … officer"). */
  chiefRoles: TitleRole[];
}

function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

function prepare(title: string): string {
  let t = fold(title);
  t = t.replace(/\([^)]*\)|\[[^\]]*\]/g, ' '); // parentheticals: "(EMEA)", "(Interim)"
  t = t.replace(/\s+(?:at|@)\s+.*$|@.*$/, ''); // "CEO at Acme", "CTO @ Acme"
  t = t.replace(/\bco-/g, 'co').replace(/-/g, ' ');
  t = t.replace(/\bgo to market\b/g, 'gtm');
  t = t.replace(/\b(?:to|for|reporting to|supporting)\s+(?:the\s+)?.*$/, ''); // "Assistant to the CEO", "VP for EMEA"
  t = t.replace(/\./g, '').replace(/&/g, ' & ').replace(/[+]/g, ' & ');
  t = t
    .replace(/[^a-z0-9&/,|;\s]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  for (const [pattern, replacement] of PHRASES) t = t.replace(pattern, replacement);
  return t;
}

function expandWords(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(' ')) {
    if (!raw) continue;
    const acronym = ACRONYMS[raw];
    if (acronym) out.push(...acronym.split(' '));
    else out.push(WORDS[raw] ?? raw);
  }
  return out;
}

function roleOf(level: QueryLevel, fn: string, qualifier: string | null): TitleRole {
  const base = level === 'any' ? 0 : LEVEL_RANK[level];
  return {
    key: `${qualifier ? `${qualifier} ` : ''}${level}:${fn}`,
    level,
    fn,
    rank: qualifier ? base - QUALIFIER_PENALTY : base,
  };
}

function parseSegment(words: string[], modifier: { value: number }): Segment {
  const segment: Segment = { level: null, qualifier: null, fnWords: [], chiefRoles: [] };
  let qualifier: string | null = null;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    // "Office of the CEO", "Chief of Staff of the CTO": the executive is the object, not the role.
    const isObject = i > 0 && (words[i - 1] === 'the' || words[i - 1] === 'of');
    if (isObject && (C_SUITE[w] || w === 'chief')) {
      segment.fnWords.push(w);
      continue;
    }
    if (C_SUITE[w]) {
      for (const fn of C_SUITE[w]) segment.chiefRoles.push(roleOf('chief', fn, qualifier));
      qualifier = null;
      continue;
    }
    if (w === 'chief') {
      // "Chief Technology Officer", "Chief Scientist": the words up to "officer" name the function.
      const end = words.indexOf('officer', i + 1);
      const inner = words.slice(i + 1, end === -1 ? words.length : end).filter((x) => !DROPPED.has(x));
      const fns = inner.map((x) => CHIEF_FUNCTIONS[x] ?? x);
      const fn = fns.length === 1 ? fns[0] : fns.join(' ');
      segment.chiefRoles.push(roleOf('chief', fn, qualifier));
      qualifier = null;
      i = end === -1 ? words.length : end;
      continue;
    }
    if (SENIOR.has(w)) {
      modifier.value = 1;
      continue;
    }
    if (JUNIOR.has(w)) {
      modifier.value = -1;
      continue;
    }
    if (DROPPED.has(w)) continue;
    const level = LEVEL_WORDS[w];
    if (level) {
      // "Executive Director" is a head of the organisation; "Executive VP" is a VP.
      if (segment.level === null || LEVEL_RANK[level] > LEVEL_RANK[segment.level]) segment.level = level;
      if (qualifier) segment.qualifier = qualifier;
      qualifier = null;
      continue;
    }
    if (QUALIFIERS.has(w)) {
      if (qualifier) segment.fnWords.push(qualifier);
      qualifier = w;
      continue;
    }
    if (qualifier) {
      segment.fnWords.push(qualifier);
      qualifier = null;
    }
    segment.fnWords.push(w);
  }
  if (qualifier) segment.fnWords.push(qualifier); // "Executive Assistant": an assistant, not a qualifier
  // "Executive" before a level is a modifier of that level, not a function ("Executive VP").
  if (segment.level && segment.level !== 'head') segment.fnWords = segment.fnWords.filter((w) => w !== 'executive');
  return segment;
}

const isDepartmentOnly = (words: string[]) => words.length > 0 && words.every((w) => DEPARTMENTS.has(w));

/** Analyzes a title into its roles. An empty or meaningless title has no roles. */
export function analyzeTitle(title: string | null | undefined): AnalyzedTitle {
  const prepared = prepare(title ?? '');
  const modifier = { value: 0 };
  const segments = prepared
    .split(/\s*(?:[&/,|;]|\band\b)\s*/)
    .map((part) => parseSegment(expandWords(part.trim()), modifier))
    .filter((s) => s.level || s.fnWords.length || s.chiefRoles.length);

  // A segment without a level borrows one from its neighbour ("Sales & Marketing Director"),
  // and a level without a function borrows the function ("VP, Engineering").
  const wantsFunction = (s: Segment) => s.level !== null && !STANDALONE.has(s.level) && s.fnWords.length === 0;
  const roles: TitleRole[] = [];
  segments.forEach((s, i) => {
    roles.push(...s.chiefRoles);
    const after = segments.slice(i + 1);
    const before = segments.slice(0, i).reverse();
    let level: QueryLevel | null = s.level;
    let qualifier = s.qualifier;
    let fnWords = s.fnWords;
    if (!level && fnWords.length) {
      const donor = [...after, ...before].find((o) => o.level && !STANDALONE.has(o.level) && o.chiefRoles.length === 0);
      if (donor && isDepartmentOnly(fnWords)) {
        level = donor.level;
        qualifier = donor.qualifier;
      } else {
        level = isDepartmentOnly(fnWords) ? 'any' : 'ic';
      }
    }
    if (wantsFunction(s)) {
      const donor = [...after, ...before].find((o) => !o.level && o.fnWords.length && o.chiefRoles.length === 0);
      if (donor) fnWords = donor.fnWords;
    }
    if (!level) return;
    roles.push(roleOf(level, fnWords.join(' '), qualifier));
  });

  const seen = new Set<string>();
  const unique = roles.filter((r) => !seen.has(r.key) && seen.add(r.key));
  const normalized = expandWords(
    prepared
      .replace(/[&/,|;]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  )
    .filter((w) => !DROPPED.has(w))
    .join(' ');
  return { normalized, roles: unique, modifier: modifier.value };
}

/**
 * The roles a stored position holds: as analyzeTitle, except that a title naming only a function
 * ("Marketing") is an individual contributor in it.
 */
export function storedRoles(title: string | null | undefined): AnalyzedTitle {
  const analyzed = analyzeTitle(title);
  const seen = new Set<string>();
  const roles = analyzed.roles
    .map((r) => (r.level === 'any' ? roleOf('ic', r.fn, null) : r))
    .filter((r) => !seen.has(r.key) && seen.add(r.key));
  return { ...analyzed, roles };
}

/** Whether a holder's role answers a query role. */
export function roleAnswers(query: TitleRole, held: TitleRole): boolean {
  return query.level === 'any' ? held.fn === query.fn : held.key === query.key;
}

/** Whether someone titled `held` is what a search for `wanted` asks for. */
export function titlesMatch(wanted: string, held: string): boolean {
  const query = analyzeTitle(wanted).roles;
  const holder = storedRoles(held).roles;
  return query.some((q) => holder.some((h) => roleAnswers(q, h)));
}
