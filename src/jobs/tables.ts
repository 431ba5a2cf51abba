// Kysely table types of the jobs domain. Conventions: see docs/architecture.md; design: docs/jobs.md.
import type { Generated, Selectable } from 'kysely';

/** One listing from one board. (source, board, source_id) is its stable identity across imports. */
export interface JobTable {
  id: Generated<number>;
  source: string;
  board: string;
  source_id: string;
  company_id: number | null;
  company_name: string;
  title: string;
  location: string;
  /** 0/1. */
  has_remote: number;
  published_at: number;
  /** entry, mid, senior or executive. */
  experience_level: string;
  /** JSON arrays: job type ids, GeoNames city ids, ISO country codes, job region ids. */
  type_ids: string;
  city_ids: string;
  country_codes: string;
  region_ids: string;
  clearance_required: number;
  language: string;
  salary_min: number | null;
  salary_max: number | null;
  salary_currency: string | null;
  description: string;
  application_url: string;
  /** Hash of the normalized listing: an unchanged listing is not rewritten on re-import. */
  content_hash: string;
  /** 0 live, 1 vanished from its board (kept, not served). */
  expired: number;
  first_seen_at: number;
  last_seen_at: number;
  expired_at: number | null;
}

/**
 * The search index: one row per (live listing, facet) where a facet is a filterable value
 * ("all", "c:US", "r:5", "t:1", "x:senior", "g:5391959", "w:engineer", "k:acme", "co:12").
 * Keyed (facet, has_remote, published_at, job_id) so every filter is an index range already in
 * newest-first order; expired listings have no rows. Title words also index their unordered pairs
 * ("p:data engineer").
 */
export interface JobFacetTable {
  facet: string;
  has_remote: number;
  published_at: number;
  job_id: number;
  /** The listing's type, region and level bits (src/jobs/index-keys.ts), checked in the row. */
  attrs: number;
  /** The listing's country codes, "US" or "US,CA". */
  countries: string;
}

/**
 * One row per live listing: what a full-text match is filtered by, without reading the jobs row.
 * On SQLite the table is keyed by `search_key`, the listing's full-text rowid (src/jobs/fts-query.ts),
 * so matches read it in key order; on PostgreSQL by job_id.
 */
export interface JobLiveTable {
  job_id: number;
  has_remote: number;
  published_at: number;
  attrs: number;
  countries: string;
}

/**
 * PostgreSQL only: a live listing's words and pairs of neighbouring words (search-terms.ts), with
 * the job_live columns a description query filters and orders by.
 */
export interface JobTermsTable {
  job_id: number;
  has_remote: number;
  published_at: number;
  attrs: number;
  countries: string;
  terms: string;
}

/**
 * Each technology a listing with a company names (technographics.ts), written with the listing; keyed
 * (company_id, published_at, job_id, technology) so an answer reads its company's most recent listings
 * as one key range. Expired listings keep theirs, as technographics read them too.
 */
export interface JobTechnologyTable {
  company_id: number;
  published_at: number;
  job_id: number;
  technology: string;
}

/** The dictionary job_technologies was made with (its fingerprint); '' while it has to be built. */
export interface JobTechnologyStateTable {
  dictionary: string;
}

/** Per-day counts of job_facets, so an exact total over a long date window needs few reads. */
export interface JobFacetDayTable {
  facet: string;
  has_remote: number;
  /** Days since the epoch (UTC). */
  day: number;
  n: number;
}

export interface JobTables {
  jobs: JobTable;
  job_facets: JobFacetTable;
  job_facet_days: JobFacetDayTable;
  job_live: JobLiveTable;
  job_terms: JobTermsTable;
  job_technologies: JobTechnologyTable;
  job_technologies_state: JobTechnologyStateTable;
}

export type JobRow = Selectable<JobTable>;
