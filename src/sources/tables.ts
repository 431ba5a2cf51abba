// The sources registry's tables (migration 0013). Instants are epoch milliseconds.
import type { Generated, Selectable } from 'kysely';

export interface SourceTable {
  id: Generated<number>;
  /** A job-board connector (greenhouse, lever, …, jsonld), `feed` or `formd`. */
  type: string;
  /** Board token or company slug; a careers-page or feed URL; Form D's URL pattern. */
  locator: string;
  locator_key: string;
  /** Overrides the source's API origin (self-hosted mirrors, tests). */
  base_url: string | null;
  /** 1 when the operator named base_url (a mirror): its origin may then be private or loopback (migration 0016). */
  operator_base_url: Generated<number>;
  company_id: number | null;
  company_name: string | null;
  company_website: string | null;
  interval_ms: number;
  status: SourceStatus;
  status_reason: string | null;
  next_run_at: number;
  claim_token: string | null;
  claimed_until: number | null;
  last_attempt_at: number | null;
  last_success_at: number | null;
  last_change_at: number | null;
  /** The URL the stored validators (etag, last_modified) belong to. */
  validator_url: string | null;
  etag: string | null;
  last_modified: string | null;
  consecutive_failures: Generated<number>;
  last_error: string | null;
  /** The last run's counts, JSON (RunCounts). */
  last_counts: string | null;
  /** The site discovery found the source on, when it did. */
  discovered_from: string | null;
  created_at: number;
}

/** `held`: a run would have expired more than half of a board; nothing runs until the operator acts. */
export type SourceStatus = 'active' | 'paused' | 'held';

export type RunOutcomeName = 'changed' | 'unchanged' | 'not_modified' | 'failed' | 'held';

export interface SourceRunTable {
  id: Generated<number>;
  source_id: number;
  started_at: number;
  finished_at: number;
  outcome: RunOutcomeName;
  http_status: number | null;
  read: number;
  inserted: number;
  updated: number;
  expired: number;
  refused: number;
  error: string | null;
}

export interface CrawlHostTable {
  host: string;
  busy_until: number;
  next_fetch_at: number;
}

/** A part of a data-set source stored whole (migration 0015): a quarter, a page, a monthly file. */
export interface SourcePartTable {
  source_id: number;
  part: string;
  completed_at: number;
  /** JSON of what storing it counted. */
  counts: string | null;
}

/** A company site bootstrap's discovery read (migration 0016). */
export interface SiteDiscoveryTable {
  domain: string;
  checked_at: number;
  /** Sources registered from it. */
  found: number;
}

export interface SourceTables {
  site_discoveries: SiteDiscoveryTable;
  source_parts: SourcePartTable;
  sources: SourceTable;
  source_runs: SourceRunTable;
  crawl_hosts: CrawlHostTable;
}

export type SourceRow = Selectable<SourceTable>;

/** What a run counted (stored as JSON in last_counts). */
export interface RunCounts {
  read: number;
  inserted: number;
  updated: number;
  expired: number;
  refused: number;
}
