// Kysely table types of the companies domain. Conventions: see docs/architecture.md.
// A company is one row of `companies` (its current best facts) plus child tables for the facts
// that come as lists. Every child row records the source that reported it and when it was last
// seen; the scalar facts of `companies` record theirs in `field_sources` (JSON), so a later import
// updates a fact instead of adding a duplicate.
import type { Generated, Selectable } from 'kysely';

export interface CompanyTable {
  id: Generated<number>;
  /** Display name. */
  name: string;
  /** normalizeCompanyName(name): the name matching key. */
  normalized_name: string;
  /** Primary normalized domain (normalizeDomain); other domains are in company_domains. Unique when set. */
  domain: string | null;
  /** Website URL as the source gave it (or https://<domain>). */
  website: string | null;
  short_name: string | null;
  description: string | null;
  /** Industry as text (lower case, as most sources write it). */
  industry: string | null;
  /** Id into job_industries (src/lookups/data.ts JOB_INDUSTRIES) when the industry text maps to one. */
  industry_id: number | null;
  /** Size label (docs/contract.md, Values): 1-10 … 10001+. */
  size_label: string | null;
  employee_count: number | null;
  /** Free text such as "+12% YoY". */
  employee_growth: string | null;
  founded_year: number | null;
  /** company_type (docs/contract.md, Values): private, public, public_subsidiary, nonprofit, educational, government. */
  company_type: string | null;
  /** Operating status (for example active, acquired, closed). */
  status: string | null;
  /** Ownership wording (for example "Privately Held", "Public (NASDAQ: XYZ)"). */
  ownership: string | null;
  phone: string | null;
  followers: number | null;
  /** Annual revenue in US dollars. */
  revenue: number | null;
  /** Total funding in US dollars when a source states it; otherwise the sum of funding_rounds. */
  total_funding: number | null;
  /** Technology stack as one text (comma-separated). */
  technology_stack: string | null;
  /** JSON array of sector names (industryAndSectors.industrySectors). */
  sectors: string | null;
  /** company_location: lower-case text. `location_name` is the whole location in one line. */
  location_name: string | null;
  locality: string | null;
  region: string | null;
  metro: string | null;
  country: string | null;
  /** Two-letter ISO country code when known (for filters). */
  country_code: string | null;
  continent: string | null;
  street_address: string | null;
  address_line_2: string | null;
  postal_code: string | null;
  /** "lat,lon". */
  geo: string | null;
  /** Professional-network company URL without scheme (for example prof.example/company/acme). */
  prof_url: string | null;
  prof_id: string | null;
  social_a_url: string | null;
  social_b_url: string | null;
  /** Handle on social network B, without "@". */
  social_b_handle: string | null;
  code_host_url: string | null;
  /** JSON object: fact name → {source, seen_at}. */
  field_sources: string;
  created_at: number;
  updated_at: number;
}

/** Every domain of a company, the primary one included. */
export interface CompanyDomainTable {
  domain: string;
  company_id: number;
  is_primary: number;
  source: string;
  seen_at: number;
}

/** Names and aliases (the display name included), by matching key. */
export interface CompanyNameTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  normalized_name: string;
  /** 'name' (a display name a source used) or 'alias'. */
  kind: string;
  source: string;
  seen_at: number;
}

/** Identifiers in outside systems: sec_cik, pdl_id, prof_id, or our JSONL `id`. */
export interface CompanyExternalIdTable {
  kind: string;
  value: string;
  company_id: number;
  seen_at: number;
}

export interface FundingRoundTable {
  id: Generated<number>;
  company_id: number;
  /** Round label (Seed, Series A, Form D offering …). */
  round: string | null;
  announced_at: number | null;
  /** Amount in US dollars. */
  amount: number | null;
  currency: string | null;
  /** JSON array of investor names. */
  investors: string;
  source: string;
  /** The round's identity within its source (an accession number, or round+date), for updates. */
  source_ref: string;
  seen_at: number;
}

/** Leadership: one person per role key (ceo, cfo, cto …). */
export interface CompanyLeaderTable {
  id: Generated<number>;
  company_id: number;
  role: string;
  first_name: string | null;
  last_name: string | null;
  designation: string | null;
  prof_url: string | null;
  social_b_url: string | null;
  source: string;
  seen_at: number;
}

export interface CompanyCompetitorTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  normalized_name: string;
  revenue: string | null;
  employees: string | null;
  total_funding: string | null;
  /** JSON {city, state, country, fullAddress} or null. */
  headquarters: string | null;
  founded_at: number | null;
  ownership: string | null;
  website: string | null;
  source: string;
  seen_at: number;
}

export interface CompanyAcquisitionTable {
  id: Generated<number>;
  company_id: number;
  company_name: string;
  normalized_name: string;
  acquired_at: number | null;
  description: string | null;
  source_url: string | null;
  source: string;
  seen_at: number;
}

/** How a company relates to another: its parent, a subsidiary, a company it acquired (migration 0023). */
export interface CompanyRelationTable {
  id: Generated<number>;
  company_id: number;
  /** 'parent', 'subsidiary' or 'acquired'. */
  relation: string;
  /** The other company, as the source names it. */
  company_name: string;
  normalized_name: string;
  /** The other company's Wikidata item (Q…), when the source gives it. */
  wikidata_id: string | null;
  /** When the relation began (epoch ms), when the source says. */
  since: number | null;
  source: string;
  seen_at: number;
}

/** News items and press releases. */
export interface CompanyArticleTable {
  id: Generated<number>;
  company_id: number;
  /** 'news' or 'press_release'. */
  kind: string;
  title: string;
  /** Publisher name (the wire `source`). */
  publisher: string | null;
  published_at: number | null;
  url: string | null;
  /** Identity of the item for updates: its guid/id, else its link, else its title. */
  item_key: string;
  source: string;
  seen_at: number;
}

export interface CompanyHighlightTable {
  id: Generated<number>;
  company_id: number;
  type: string | null;
  text: string;
  /** Publisher name (the wire `source`). */
  publisher: string | null;
  highlighted_at: number | null;
  src: string | null;
  source: string;
  seen_at: number;
}

export interface CompanyTables {
  companies: CompanyTable;
  company_domains: CompanyDomainTable;
  company_names: CompanyNameTable;
  company_external_ids: CompanyExternalIdTable;
  company_funding_rounds: FundingRoundTable;
  company_leaders: CompanyLeaderTable;
  company_competitors: CompanyCompetitorTable;
  company_acquisitions: CompanyAcquisitionTable;
  company_relations: CompanyRelationTable;
  company_articles: CompanyArticleTable;
  company_highlights: CompanyHighlightTable;
}

/** A company row as read from the store. */
export type CompanyRow = Selectable<CompanyTable>;
