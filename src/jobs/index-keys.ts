// What one live listing writes into the search index (see docs/jobs.md, "Search design"): its
// facets, the unordered pairs of its title words, and a compact copy of its attribute filters
// (types, regions, level as bits; countries as text) carried on every index row, so a query driven
// by one range checks those filters in the row it already reads instead of probing other ranges.
import { facetsOf, titleWords, type FacetSource } from './listing.ts';

/** Ids 1..SLOTS of job types and of regions get a bit each; larger ids are probed instead. */
const SLOTS = 20;
const TYPE_BASE = 0;
const REGION_BASE = SLOTS;
const LEVEL_BASE = 2 * SLOTS;
const LEVELS = ['entry', 'mid', 'senior', 'executive'];

// 2 ** n, not 1 << n: JavaScript's shift works on 32 bits and the attributes use 44.
const bit = (n: number) => 2 ** n;

function slotBit(base: number, id: number): number | null {
  return Number.isInteger(id) && id >= 1 && id <= SLOTS ? bit(base + id - 1) : null;
}

/** The attribute bit a facet stands for (`t:1`, `r:5`, `x:senior`), or null when it has none. */
export function attributeBit(facet: string): number | null {
  if (facet.startsWith('t:')) return slotBit(TYPE_BASE, Number(facet.slice(2)));
  if (facet.startsWith('r:')) return slotBit(REGION_BASE, Number(facet.slice(2)));
  if (facet.startsWith('x:')) {
    const level = LEVELS.indexOf(facet.slice(2));
    return level < 0 ? null : bit(LEVEL_BASE + level);
  }
  return null;
}

/** The attribute bits of a listing: the sum of its type, region and level bits. */
export function attributesOf(source: Pick<FacetSource, 'typeIds' | 'regionIds' | 'experienceLevel'>): number {
  const bits = new Set<number>();
  for (const id of source.typeIds) bits.add(slotBit(TYPE_BASE, id) ?? 0);
  for (const id of source.regionIds) bits.add(slotBit(REGION_BASE, id) ?? 0);
  bits.add(attributeBit(`x:${source.experienceLevel}`) ?? 0);
  let sum = 0;
  for (const b of bits) sum += b;
  return sum;
}

/** Country codes as stored beside the attributes: "US" or "US,CA". Two-letter codes joined by commas cannot match across a boundary. */
export function countriesText(codes: string[]): string {
  return codes.join(',');
}

export function isCountryFacet(facet: string): boolean {
  return facet.startsWith('c:') && /^c:[A-Z]{2}$/.test(facet);
}

/** The facet of an unordered pair of title words. */
export function pairFacet(a: string, b: string): string {
  return a < b ? `p:${a} ${b}` : `p:${b} ${a}`;
}

/** Every unordered pair of `words` (distinct), with its facet. */
export function wordPairs(words: string[]): { facet: string; words: [string, string] }[] {
  const out: { facet: string; words: [string, string] }[] = [];
  for (let i = 0; i < words.length; i++)
    for (let j = i + 1; j < words.length; j++) out.push({ facet: pairFacet(words[i], words[j]), words: [words[i], words[j]] });
  return out;
}

/** Every unordered pair of the title's words, so a two-word title query is one index range. */
export function pairFacets(title: string): string[] {
  return wordPairs(titleWords(title)).map((pair) => pair.facet);
}

/**
 * The facets of a title query: one pair facet per two words (an odd last word pairs with the
 * first), so every word is covered and each range is as narrow as the index allows.
 */
export function titleQueryFacets(title: string): string[] {
  const words = titleWords(title);
  if (words.length === 1) return [`w:${words[0]}`];
  const out: string[] = [];
  for (let i = 0; i + 1 < words.length; i += 2) out.push(pairFacet(words[i], words[i + 1]));
  if (words.length % 2) out.push(pairFacet(words[0], words[words.length - 1]));
  return out;
}

/** Title queries of up to this many words choose their pairs by size (at most 15 pairs counted). */
export const TITLE_COVER_MAX_WORDS = 6;

/**
 * The narrowest pairs of a title query's words that hold every word between them: each pair in
 * turn from the smallest range up, kept when it brings a word not yet held. Any such set finds the
 * same listings (those whose title holds every word); the narrowest read the fewest index rows:
 * "senior backend engineer" is "backend senior" and "backend engineer", not "engineer senior",
 * whose range is several times either.
 */
export function titlePairCover(words: string[], size: (facet: string) => number): string[] {
  const pairs = wordPairs(words);
  pairs.sort((a, b) => size(a.facet) - size(b.facet) || (a.facet < b.facet ? -1 : 1));
  const held = new Set<string>();
  const out: string[] = [];
  for (const pair of pairs) {
    if (held.has(pair.words[0]) && held.has(pair.words[1])) continue;
    out.push(pair.facet);
    for (const word of pair.words) held.add(word);
    if (held.size === words.length) break;
  }
  return out;
}

export interface IndexEntry {
  facets: string[];
  attrs: number;
  countries: string;
}

/** Everything the index holds for one listing. */
export function indexEntryOf(source: FacetSource): IndexEntry {
  return {
    facets: [...facetsOf(source), ...pairFacets(source.title)],
    attrs: attributesOf(source),
    countries: countriesText(source.countryCodes),
  };
}

/**
 * Prefixes of the facets that keep per-day counts, beside `all`: those whose ranges can hold a large
 * share of all listings (country, region, type, level), and title words and pairs (migration 0032),
 * so that a title query is counted from a month's days rather than from every matching index row,
 * and a query's driving range is chosen by exact sizes. Cities and companies are narrow enough to
 * count row by row. The merge's SQL (staged-index.ts) is built from the same lists. `d:` is not a
 * facet: it marks a counted description term (PostgreSQL, counted-terms.ts), which has day counts
 * and no facet rows.
 */
export const DAY_COUNTED_PREFIXES: readonly string[] = ['c:', 'r:', 't:', 'x:', 'w:', 'p:', 'd:'];

/**
 * PostgreSQL: prefixes of the facets whose per-day counts are also kept per attribute bits and
 * countries (job_facet_attr_days, migration 0032), so that a query whose other filters are all
 * carried in the index rows (type, region, level, country) is counted from its driver's days, not
 * its rows. Not `all`, nor title pairs: they are many and narrow.
 */
export const ATTR_DAY_COUNTED_PREFIXES: readonly string[] = DAY_COUNTED_PREFIXES.filter((prefix) => prefix !== 'p:');

/** Whether `facet` keeps per-day counts (DAY_COUNTED_PREFIXES). */
export function hasDayCounts(facet: string): boolean {
  return facet === 'all' || DAY_COUNTED_PREFIXES.includes(facet.slice(0, 2));
}

/** Whether `facet`'s per-day counts are also kept per attributes (ATTR_DAY_COUNTED_PREFIXES). */
export function hasAttrDayCounts(facet: string): boolean {
  return ATTR_DAY_COUNTED_PREFIXES.includes(facet.slice(0, 2));
}
