// The jobs domain as the rest of leadbase sees it: importing a board's postings (normalize, link the
// company, upsert, expire what vanished) and the jobs-finder search.
import type { Db } from '../db/database.ts';
import type { CompanyInput } from '../companies/input.ts';
import { normalizeCompanyName, normalizeDomain } from '../companies/normalize.ts';
import type { JobSearchResult } from '../contract/jobs.ts';
import type { SourceCompany, SourceListing } from '../ingest/jobs/types.ts';
import { ImportSummary } from '../ingest/summary.ts';
import { normalizeOutcome, type NormalizeContext, type NormalizedListing, type NormalizeOutcome } from './listing.ts';
import { NormalizerWorker } from './normalize-pool.ts';
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
  /**
   * Postings this service imports before normalization moves to a worker thread beside storage
   * (default 2,000, so tests and small boards never start one; Infinity: never).
   */
  workerAfter?: number;
}

/** Why a posting is refused before normalization, or null. */
function refusal(raw: SourceListing): string | null {
  if (!raw.sourceId || !raw.title?.trim()) return 'posting without id or title';
  if (!raw.applyUrl) return `posting ${raw.sourceId}: no application URL`;
  return null;
}

/** A batch smaller than this is normalized on the importing thread alone (not worth a message). */
const MIN_SHARED_BATCH = 8;

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
  /** Matching keys by the source's website and name text: a board's postings repeat them. */
  private readonly companyKeys = new Map<string, string>();
  private readonly workerAfter: number;
  private postingsSeen = 0;
  private worker?: NormalizerWorker;

  constructor(deps: JobServiceDeps) {
    this.repository = new JobRepository(deps.db);
    this.companies = deps.companies;
    this.searcher = new JobSearch(deps.db, deps.companies);
    this.workerAfter = deps.workerAfter ?? 2_000;
  }

  /** Stops the normalization thread, if one was started (it never keeps the process alive while idle). */
  async close(): Promise<void> {
    await this.worker?.close();
  }

  /** Compacts the search index after a large load (see JobRepository.optimizeSearchIndex). */
  optimizeSearchIndex(): Promise<void> {
    return this.repository.optimizeSearchIndex();
  }

  search(filters: JobSearchFilters, now = Date.now()): Promise<JobSearchResult> {
    return this.searcher.search(filters, now);
  }

  /** The company's matching key: its domain, else its normalized name (computed once per website and name text). */
  private companyKeyOf(company: SourceCompany): string {
    const text = `${company.website ?? ''}\u0000${company.name}`;
    let key = this.companyKeys.get(text);
    if (key === undefined) {
      const domain = company.website ? normalizeDomain(company.website) : null;
      key = domain ? `d:${domain}` : `n:${normalizeCompanyName(company.name)}`;
      if (this.companyKeys.size > 100_000) this.companyKeys.clear();
      this.companyKeys.set(text, key);
    }
    return key;
  }

  /** Links a listing's company to the company store, creating it when new. */
  private async companyIdFor(company: SourceCompany | null, source: string, now: number, summary: BoardImportSummary): Promise<number | null> {
    if (!this.companies || !company?.name?.trim()) return null;
    const key = this.companyKeyOf(company);
    const cached = this.companyIds.get(key);
    if (cached !== undefined) return cached;
    const domain = company.website ? normalizeDomain(company.website) : null;
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

  /** Counts postings and starts the normalization thread once enough were seen (without waiting for it). */
  private countPostings(postings: number): void {
    this.postingsSeen += postings;
    if (this.postingsSeen > this.workerAfter) this.launchWorker();
  }

  private launchWorker(): NormalizerWorker {
    if (!this.worker) {
      this.worker = new NormalizerWorker();
      this.worker.start();
    }
    return this.worker;
  }

  /** Starts the normalization thread now (whatever was imported so far); resolves when it is ready or failed. */
  startNormalizationThread(): Promise<void> {
    return this.launchWorker().whenStarted();
  }

  /** Whether a normalization thread is ready to take work. */
  get normalizationThreadReady(): boolean {
    return this.worker?.available ?? false;
  }

  /** The normalization thread when it is ready to take work (it loads while imports go on without it). */
  private readyWorker(): NormalizerWorker | undefined {
    return this.worker?.available ? this.worker : undefined;
  }

  /**
   * Imports one board's postings (already read by a connector). With the normalization thread
   * ready, the thread normalizes batch N+1 while this thread stores batch N, and the first batch
   * is normalized half here, half there. Batches, their order and every result are the same
   * either way.
   */
  async importBoard(listings: SourceListing[], options: BoardImportOptions): Promise<BoardImportSummary> {
    const now = options.now ?? Date.now();
    const summary: BoardImportSummary = new ImportSummary();
    const batchSize = options.batchSize ?? 500;
    const ctx: NormalizeContext = { source: options.source, board: options.board, now, company: options.company };
    this.countPostings(listings.length);
    const batchCount = Math.ceil(listings.length / batchSize);
    const acceptedIn = (k: number) => listings.slice(k * batchSize, (k + 1) * batchSize).filter((raw) => refusal(raw) === null);
    let ahead: Promise<NormalizeOutcome[]> | undefined;
    for (let k = 0; k < batchCount; k++) {
      const start = k * batchSize;
      const end = Math.min(listings.length, start + batchSize);
      const worker = this.readyWorker();
      let fromWorker = ahead;
      let here: SourceListing[] = [];
      if (!fromWorker) {
        const accepted = acceptedIn(k);
        const cut = worker && accepted.length >= MIN_SHARED_BATCH ? Math.ceil(accepted.length / 2) : accepted.length;
        here = accepted.slice(0, cut);
        if (cut < accepted.length) fromWorker = worker!.normalize(accepted.slice(cut), ctx);
      }
      ahead = worker && k + 1 < batchCount ? worker.normalize(acceptedIn(k + 1), ctx) : undefined;
      const outcomes = here.map((raw) => normalizeOutcome(raw, ctx));
      if (fromWorker) outcomes.push(...(await fromWorker));

      const normalized: NormalizedListing[] = [];
      let next = 0;
      for (let i = start; i < end; i++) {
        summary.read++;
        const raw = listings[i];
        const refused = refusal(raw);
        if (refused) {
          summary.reject(i + 1, refused);
          continue;
        }
        const outcome = outcomes[next++];
        if (typeof outcome === 'string') summary.reject(i + 1, `posting ${raw.sourceId}: ${outcome}`);
        else normalized.push(outcome);
      }
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
