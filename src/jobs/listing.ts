// A source's posting turned into our listing: text description, resolved places, remote flag,
// type ids, level, clearance, language and salary. Pure: no database.
import * as crypto from 'node:crypto';
import type { ExperienceLevel } from '../contract/jobs.ts';
import type { SourceCompany, SourceListing } from './input.ts';
import { normalizeCompanyName } from '../companies/normalize.ts';
import { resolveLocation } from './geo.ts';
import { detectClearance } from './normalize/clearance.ts';
import { detectExperienceLevel } from './normalize/experience.ts';
import { htmlToText } from './normalize/html-text.ts';
import { detectJobTypes } from './normalize/job-types.ts';
import { detectLanguage } from './normalize/language.ts';
import { detectRemote } from './normalize/remote.ts';
import { parseSalaryText } from './normalize/salary.ts';
import { textKey } from '../platform/text-key.ts';
import { alpha2Code } from '../lookups/countries.ts';
import { listingTechnologies } from './technologies.ts';

export interface NormalizedListing {
  source: string;
  board: string;
  sourceId: string;
  title: string;
  location: string;
  hasRemote: boolean;
  publishedAt: number;
  experienceLevel: ExperienceLevel;
  typeIds: number[];
  cityIds: number[];
  countryCodes: string[];
  regionIds: number[];
  clearanceRequired: boolean;
  language: string;
  salaryMin: number | null;
  salaryMax: number | null;
  salaryCurrency: string | null;
  description: string;
  applicationUrl: string;
  companyName: string;
  company: SourceCompany | null;
  contentHash: string;
  /** The technologies the title and description name (technologies.ts), by name; not part of the hash (they follow from the text). */
  technologies: string[];
  /**
   * PostgreSQL: the description's job_terms vector in binary form (tsvector-binary.ts), made on the
   * normalization thread when the store is PostgreSQL; not part of the hash. Missing: made when stored.
   */
  termsBinary?: string;
}

const MAX_DESCRIPTION = 100_000;

// crypto.hash (Node 20.12+) digests in one call, without a Hash object per listing.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'base64url') => string }).hash;
const sha1 = (text: string): string =>
  oneShot ? oneShot('sha1', text, 'base64url') : crypto.createHash('sha1').update(text).digest('base64url');

export interface NormalizeContext {
  source: string;
  board: string;
  /** Used when the source gives no publication date. */
  now: number;
  /** Fallback company when the source names none (the board's owner). */
  company?: SourceCompany | null;
}

/** Runs of white space, except the single spaces that would be replaced by themselves. */
const SPACING = /\s{2,}|[^\S ]/g;

export function normalizeListing(raw: SourceListing, ctx: NormalizeContext): NormalizedListing {
  const title = raw.title.replace(SPACING, ' ').trim();
  const description = htmlToText(raw.descriptionHtml).slice(0, MAX_DESCRIPTION);
  const location = raw.location.replace(SPACING, ' ').trim();
  // A country the source gives as a field comes first: the text is read within it (Lever's "Bali"
  // with country ID is not Bari, Italy).
  const structured = raw.countryCode ? alpha2Code(raw.countryCode) : null;
  const places = resolveLocation(location, structured ?? undefined);
  if (!places.countries.length && structured) {
    const fromCode = resolveLocation(structured);
    places.countries.push(...fromCode.countries);
    for (const r of fromCode.regions) if (!places.regions.includes(r)) places.regions.push(r);
  }
  const hasRemote = detectRemote({ flag: raw.remote ?? (places.remote ? true : null), location, title, description });
  const salary = raw.salary && (raw.salary.min !== null || raw.salary.max !== null) ? raw.salary : parseSalaryText(description);
  const company = raw.company ?? ctx.company ?? null;
  // A board token stands in for a source that names no company (Lever, Ashby, Personio boards are
  // the company's own slug); a careers-page URL never does.
  const companyName = company?.name?.trim() || (/^[a-z][a-z0-9+.-]*:\/\//i.test(ctx.board) ? '' : ctx.board);
  if (!companyName)
    throw new Error('the posting names no company (no hiring organization on the page); give the company with --company-name');
  const listing: Omit<NormalizedListing, 'contentHash' | 'technologies'> & { contentHash?: string; technologies?: string[] } = {
    source: ctx.source,
    board: ctx.board,
    sourceId: raw.sourceId,
    title,
    location,
    hasRemote,
    publishedAt: raw.publishedAt ?? ctx.now,
    experienceLevel: detectExperienceLevel(title, description, raw.experience),
    typeIds: detectJobTypes(raw.employmentTypes, title),
    cityIds: places.cities.map((c) => c.geonameid),
    countryCodes: places.countries,
    regionIds: places.regions,
    clearanceRequired: detectClearance(title, description),
    language: detectLanguage(description || title, raw.language),
    salaryMin: salary?.min ?? null,
    salaryMax: salary?.max ?? null,
    salaryCurrency: salary?.currency ?? null,
    description,
    applicationUrl: raw.applyUrl,
    companyName,
    company,
  };
  // The hash covers every field above, in this order; it is added last, as the final key.
  listing.contentHash = sha1(JSON.stringify(listing)).slice(0, 22);
  // Read here, on the normalization thread of an import, so that no answer reads descriptions.
  listing.technologies = listingTechnologies(title, description);
  return listing as NormalizedListing;
}

/** A posting normalized, or why it could not be (the error message). */
export type NormalizeOutcome = NormalizedListing | string;

export function normalizeOutcome(raw: SourceListing, ctx: NormalizeContext): NormalizeOutcome {
  try {
    return normalizeListing(raw, ctx);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'the',
  'of',
  'for',
  'in',
  'at',
  'to',
  'with',
  'on',
  'or',
  'm',
  'w',
  'f',
  'd',
  'x',
  'all',
  'genders',
]);

/** Title words used as search facets: case- and accent-folded, stop words dropped. */
export function titleWords(title: string): string[] {
  return [
    ...new Set(
      textKey(title)
        .split(' ')
        .filter((w) => w && !STOP_WORDS.has(w) && w.length <= 40),
    ),
  ];
}

export interface FacetSource {
  typeIds: number[];
  cityIds: number[];
  countryCodes: string[];
  regionIds: number[];
  experienceLevel: string;
  title: string;
  companyName: string;
  companyId: number | null;
}

/** Every facet a live listing is found under (see JobFacetTable). */
export function facetsOf(listing: FacetSource): string[] {
  const facets = ['all', `x:${listing.experienceLevel}`];
  for (const id of listing.typeIds) facets.push(`t:${id}`);
  for (const id of listing.cityIds) facets.push(`g:${id}`);
  for (const code of listing.countryCodes) facets.push(`c:${code}`);
  for (const id of listing.regionIds) facets.push(`r:${id}`);
  for (const word of titleWords(listing.title)) facets.push(`w:${word}`);
  const key = normalizeCompanyName(listing.companyName);
  if (key) facets.push(`k:${key}`);
  if (listing.companyId !== null) facets.push(`co:${listing.companyId}`);
  return [...new Set(facets)];
}
