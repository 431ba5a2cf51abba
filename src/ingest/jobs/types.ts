// The domain's input types live in the jobs domain; connectors produce them.
export type { SourceListing } from '../../jobs/input.ts';
import type { SourceListing } from '../../jobs/input.ts';

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
  /** The company's name as the source gives it: it wins over the board's own, which is then not fetched. */
  companyName?: string;
}

export interface JobConnector {
  source: string;
  /** Default API origin. */
  defaultBaseUrl: string;
  /** Fetches the whole board through the polite fetcher. */
  fetchBoard(http: HttpGet, ctx: ConnectorContext): Promise<SourceListing[]>;
  /**
   * The live fetch reads the board's name from an endpoint a saved payload lacks (Greenhouse's board
   * endpoint): a saved payload whose postings name no company then needs the name given.
   */
  namesBoardWhenFetched?: boolean;
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
