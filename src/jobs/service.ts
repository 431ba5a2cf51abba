// The jobs domain as the rest of leadbase sees it: importing a board's postings (normalize, link the
// company, upsert, expire what vanished) and the jobs-finder search.
import type { Db } from '../db/database.ts';
import type { CompanyInput } from '../companies/input.ts';
import { normalizeCompanyName, normalizeDomain } from '../companies/normalize.ts';
import type { JobSearchResult } from '../contract/jobs.ts';
import type { SourceCompany, SourceListing } from '../ingest/jobs/types.ts';
import { ImportSummary } from '../ingest/summary.ts';
import { normalizeListing, type NormalizedListing } from './listing.ts';
import { JobRepository } from './repository.ts';
import { JobSearch, type JobSearchFilters } from './search.ts';

/** What the jobs domain needs of the company store (CompanyService satisfies it). */
export interface CompanyStore {
  upsertCompany(input: CompanyInput, source: string, seenAt?: number): Promise<{ id: number; created: boolean }>;
  findByDomain(domainOrUrl: string): Promise<{ id: number } | null>;
}

export interface JobServiceDeps {
  db: Db;
  companies?: CompanyStore;
}

export interface BoardImportOptions {
  source: string;
  board: string;
  /** Import time; listings of the board not seen in this import are expired. */
  now?: number;
  /** Expire listings that vanished from the board (true for a full board fetch). */
  expireMissing?: boolean;
  /** The board owner, used when a posting names no company. */
  company?: SourceCompany | null;
  batchSize?: number;
  onBatch?: (summary: ImportSummary) => void;
}

export interface BoardImportSummary extends ImportSummary {
  expired?: number;
  companiesCreated?: number;
}

function handleOf(url: string | null | undefined): string | null {
  const m = url?.match(/(?:twitter|x)\.com\/@?([A-Za-z0-9_]{1,15})/i);
  return m ? m[1] : null;
}

export class JobService {
  readonly repository: JobRepository;
  readonly searcher: JobSearch;
  private readonly companies?: CompanyStore;
  /** Company ids by matching key, so a board's thousand postings link with one upsert. */
  private readonly companyIds = new Map<string, number>();

  constructor(deps: JobServiceDeps) {
    this.repository = new JobRepository(deps.db);
    this.companies = deps.companies;
    this.searcher = new JobSearch(deps.db, deps.companies);
  }

  search(filters: JobSearchFilters, now = Date.now()): Promise<JobSearchResult> {
    return this.searcher.search(filters, now);
  }

  /** Links a listing's company to the company store, creating it when new. */
  private async companyIdFor(company: SourceCompany | null, source: string, now: number, summary: BoardImportSummary): Promise<number | null> {
    if (!this.companies || !company?.name?.trim()) return null;
    const domain = company.website ? normalizeDomain(company.website) : null;
    const key = domain ? `d:${domain}` : `n:${normalizeCompanyName(company.name)}`;
    const cached = this.companyIds.get(key);
    if (cached !== undefined) return cached;
    const result = await this.companies.upsertCompany(
      {
        name: company.name.trim(),
        domain,
        website: company.website ?? null,
        prof_url: company.prof_url ?? null,
        social_b_url: company.social_b_url ?? null,
        social_b_handle: handleOf(company.social_b_url),
        code_host_url: company.code_host_url ?? null,
      },
      `jobs:${source}`,
      now,
    );
    if (result.created) summary.companiesCreated = (summary.companiesCreated ?? 0) + 1;
    if (this.companyIds.size > 100_000) this.companyIds.clear();
    this.companyIds.set(key, result.id);
    return result.id;
  }

  /** Imports one board's postings (already read by a connector). */
  async importBoard(listings: SourceListing[], options: BoardImportOptions): Promise<BoardImportSummary> {
    const now = options.now ?? Date.now();
    const summary: BoardImportSummary = new ImportSummary();
    const batchSize = options.batchSize ?? 500;
    for (let i = 0; i < listings.length; i += batchSize) {
      const normalized: NormalizedListing[] = [];
      listings.slice(i, i + batchSize).forEach((raw, j) => {
        summary.read++;
        const line = i + j + 1;
        if (!raw.sourceId || !raw.title?.trim()) return summary.reject(line, 'posting without id or title');
        if (!raw.applyUrl) return summary.reject(line, `posting ${raw.sourceId}: no application URL`);
        try {
          normalized.push(normalizeListing(raw, { source: options.source, board: options.board, now, company: options.company }));
        } catch (error) {
          summary.reject(line, `posting ${raw.sourceId}: ${error instanceof Error ? error.message : String(error)}`);
        }
      });
      await this.importNormalized(normalized, now, summary);
      options.onBatch?.(summary);
    }
    if (options.expireMissing !== false) summary.expired = await this.repository.expireUnseen(options.source, options.board, now, now);
    return summary;
  }

  /** Stores already normalized listings of one (source, board). */
  async importNormalized(listings: NormalizedListing[], now: number, summary: BoardImportSummary = new ImportSummary()): Promise<BoardImportSummary> {
    const items = [];
    for (const listing of listings) items.push({ listing, companyId: await this.companyIdFor(listing.company ?? { name: listing.companyName }, listing.source, now, summary) });
    const result = await this.repository.upsertBatch(items, now);
    summary.inserted += result.created;
    summary.updated += result.updated;
    summary.unchanged += result.unchanged;
    return summary;
  }
}
