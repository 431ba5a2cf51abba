import type { Salary } from '../../jobs/normalize/salary.ts';

/** The company behind a board, as far as the source tells. */
export interface SourceCompany {
  name: string;
  website?: string | null;
  prof_url?: string | null;
  social_b_url?: string | null;
  code_host_url?: string | null;
  logo_url?: string | null;
}

/** One posting as a connector read it, before our normalization (geo, levels, language…). */
export interface SourceListing {
  /** Stable id within the board: re-imports update the same listing. */
  sourceId: string;
  title: string;
  /** Location text as shown on the board (several places joined with "; "). */
  location: string;
  /** The source's own remote flag, when it has one. */
  remote?: boolean | null;
  /** Employment-type wordings ("FULL_TIME", "Full-time", "permanent"). */
  employmentTypes: string[];
  /** Epoch ms; null when the source gives no date (then first seen). */
  publishedAt: number | null;
  /** HTML or text; normalized to text later. */
  descriptionHtml: string;
  applyUrl: string;
  language?: string | null;
  salary?: Salary | null;
  /** The source's seniority wording, when it has one. */
  experience?: string | null;
  /** Structured country code, when the source has one (helps the location resolver). */
  countryCode?: string | null;
  company?: SourceCompany | null;
}

export interface HttpGet {
  /** GET with the polite fetcher's timeouts and retries; resolves the body text. */
  getText(url: string, accept?: string): Promise<string>;
  /** Runs tasks with the fetcher's concurrency bound. */
  mapBounded<T, R>(items: T[], task: (item: T) => Promise<R>): Promise<R[]>;
}

export interface ConnectorContext {
  /** Board token, company slug or careers-page URL. */
  board: string;
  /** Overrides the source's API origin (tests and self-hosted mirrors). */
  baseUrl?: string;
}

export interface JobConnector {
  source: string;
  /** Default API origin. */
  defaultBaseUrl: string;
  /** Fetches the whole board through the polite fetcher. */
  fetchBoard(http: HttpGet, ctx: ConnectorContext): Promise<SourceListing[]>;
  /** Parses one saved payload (the same shape the board API returns). */
  parsePayload(payload: string, ctx: ConnectorContext): SourceListing[];
}

export function parseInstant(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e11 ? value * 1000 : value;
  if (typeof value !== 'string' || !value.trim()) return null;
  const ms = Date.parse(value.trim());
  return Number.isFinite(ms) ? ms : null;
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
