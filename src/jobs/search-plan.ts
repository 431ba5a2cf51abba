// Planning a jobs-finder query (docs/jobs.md, "Search design"): the filters become the facet
// ranges to intersect, the publication window, the description's query and the conditions that are
// not facets. Reads no listing; only a company website is looked up, in the company store.
import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { JobsFinderBody } from '../contract/jobs.ts';
import { normalizeCompanyName, normalizeDomain } from '../companies/normalize.ts';
import { resolveLocation } from './geo.ts';
import { TITLE_COVER_MAX_WORDS, titleQueryFacets } from './index-keys.ts';
import { titleWords } from './listing.ts';
import { parseTextQuery, toFts5Query, type ParsedTextQuery } from './fts-query.ts';
import { needsTextRecheck } from './search-terms.ts';
import { textKey } from '../platform/text-key.ts';
import { DAY_MS } from './day.ts';

export const DEFAULT_POSTED_WITHIN_DAYS = 30;
const FAR_FUTURE = 8_640_000_000_000_000;

/** The jobs-finder filters; has_remote 'any' takes remote and non-remote listings alike (the LeadMagic v1 paths' default). */
export type JobSearchFilters = Omit<JobsFinderBody, 'has_remote'> & { has_remote?: boolean | 'any' };

export interface CompanyLookup {
  findByDomain(domainOrUrl: string): Promise<{ id: number } | null>;
}

/** A query as the runner reads it (search-run.ts). */
export interface SearchPlan {
  facets: string[];
  remote: number;
  lo: number;
  hi: number;
  /** FTS5 MATCH text on SQLite; on PostgreSQL the `job_description` (its queries are `weekQueries`). */
  description: string | null;
  /** PostgreSQL: the parsed `job_description`, when it has a term to find. */
  terms: ParsedTextQuery | null;
  /** PostgreSQL: tsqueries over job_terms, one per bucket of the run's remote flag and window (search-terms.ts). */
  weekQueries: string[];
  /** PostgreSQL: weekQueries are one per week of the window, oldest first (the window spans fewer weeks than there are codes). */
  weeksInOrder: boolean;
  /** PostgreSQL: the original `job_description`, when the listing's own text must confirm a long phrase. */
  recheck: string | null;
  locationWords: string[];
  company: RawBuilder<unknown>[];
  empty: boolean;
  /** A title query of 3 to TITLE_COVER_MAX_WORDS words: its words, whose narrowest pairs replace `titlePairs` in `facets` once counted. */
  titleWords: string[];
  titlePairs: string[];
}

/** company_type_id (GET /job-company-types) as conditions on the company store; see docs/jobs.md. */
export function companyTypeCondition(typeId: number, year: number): RawBuilder<unknown> | null {
  switch (typeId) {
    case 1:
      return sql`c.founded_year >= ${year - 10} and coalesce(c.employee_count, 0) <= 500 and coalesce(c.company_type, 'private') = 'private'`;
    case 2:
      return sql`c.employee_count between 1 and 50`;
    case 3:
      return sql`c.employee_count between 51 and 1000`;
    case 4:
      return sql`c.employee_count > 1000`;
    case 5:
      return sql`c.company_type in ('public', 'public_subsidiary')`;
    case 6:
      return sql`c.company_type = 'private'`;
    case 7:
      return sql`c.company_type = 'nonprofit'`;
    case 8:
      return sql`c.company_type = 'government'`;
    case 9:
      return sql`c.company_type = 'educational'`;
    case 10:
      return sql`c.industry_id in (26, 32)`;
    default:
      return null;
  }
}

function dateStart(text: string): number {
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (!Number.isFinite(ms)) throw new Error(`invalid date "${text}"`);
  return ms;
}

/** The plan of `filters` at `now`; `dialect` decides how the description is queried. */
export async function planSearch(
  filters: JobSearchFilters,
  now: number,
  dialect: DialectName,
  companies?: CompanyLookup,
): Promise<SearchPlan> {
  const plan: SearchPlan = {
    facets: [],
    remote: filters.has_remote === true ? 1 : 0,
    lo: 0,
    hi: FAR_FUTURE,
    description: null,
    terms: null,
    weekQueries: [],
    weeksInOrder: false,
    recheck: null,
    locationWords: [],
    company: [],
    empty: false,
    titleWords: [],
    titlePairs: [],
  };
  // The 30-day default stands in for a date filter the client did not give: explicit dates
  // replace it (posted_after 2025-01-01 means since then), an explicit posted_within still applies.
  const explicitDates = Boolean(filters.posted_after || filters.posted_before);
  const withinDays = filters.posted_within ?? (explicitDates ? undefined : DEFAULT_POSTED_WITHIN_DAYS);
  plan.lo = withinDays === undefined ? 0 : now - withinDays * DAY_MS;
  if (filters.posted_after) plan.lo = Math.max(plan.lo, dateStart(filters.posted_after));
  if (filters.posted_before) plan.hi = dateStart(filters.posted_before) + DAY_MS - 1;
  if (plan.lo > plan.hi) plan.empty = true;

  if (filters.country_id) plan.facets.push(`c:${filters.country_id.toUpperCase()}`);
  if (filters.region_id) plan.facets.push(`r:${filters.region_id}`);
  if (filters.job_type_id) plan.facets.push(`t:${filters.job_type_id}`);
  if (filters.experience_level) plan.facets.push(`x:${filters.experience_level}`);
  if (filters.job_title) {
    plan.titlePairs = titleQueryFacets(filters.job_title);
    plan.facets.push(...plan.titlePairs);
    const words = titleWords(filters.job_title);
    if (words.length >= 3 && words.length <= TITLE_COVER_MAX_WORDS) plan.titleWords = words;
  }
  if (filters.company_name?.trim()) {
    const key = normalizeCompanyName(filters.company_name);
    if (key) plan.facets.push(`k:${key}`);
  }
  if (filters.company_website?.trim()) {
    const domain = normalizeDomain(filters.company_website);
    const company = domain && companies ? await companies.findByDomain(domain) : null;
    if (company) plan.facets.push(`co:${company.id}`);
    else plan.empty = true;
  }
  if (filters.location?.trim()) {
    const place = resolveLocation(filters.location);
    if (place.cities.length) plan.facets.push(`g:${place.cities[0].geonameid}`);
    else if (place.countries.length) plan.facets.push(`c:${place.countries[0]}`);
    else if (place.regions.length && !place.remote) plan.facets.push(`r:${place.regions[0]}`);
    else plan.locationWords = textKey(filters.location).split(' ').filter(Boolean).slice(0, 8);
  }
  if (filters.job_description?.trim()) {
    if (dialect === 'sqlite') plan.description = toFts5Query(filters.job_description);
    else {
      const parsed = parseTextQuery(filters.job_description);
      if (parsed.groups.length) {
        plan.terms = parsed;
        plan.description = filters.job_description;
        if (needsTextRecheck(parsed)) plan.recheck = filters.job_description.trim();
      }
    }
  }
  if (filters.min_employees !== undefined) plan.company.push(sql`c.employee_count >= ${filters.min_employees}`);
  if (filters.max_employees !== undefined) plan.company.push(sql`c.employee_count <= ${filters.max_employees}`);
  if (filters.company_industry_id !== undefined) plan.company.push(sql`c.industry_id = ${filters.company_industry_id}`);
  if (filters.company_type_id !== undefined) {
    const condition = companyTypeCondition(filters.company_type_id, new Date(now).getUTCFullYear());
    if (condition) plan.company.push(condition);
    else plan.empty = true;
  }
  plan.facets = [...new Set(plan.facets)];
  if (!plan.facets.length) plan.facets.push('all');
  return plan;
}
