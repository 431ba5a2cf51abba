// Importing job boards: normalize each posting (on a worker thread beside storage once an import is
// large), link its company, upsert the listings and expire what vanished from a full board. Only the
// CLI and the scheduled crawls import; the API server never builds this.
import { LRUCache } from 'lru-cache';
import { retryWhileUnavailable, type WriteRetryOptions } from '../db/retry.ts';
import type { Db } from '../db/database.ts';
import { CompanyInputError, prepareCompany, type CompanyInput, type PreparedCompany } from '../companies/input.ts';
import type { UpsertResult } from '../companies/repository.ts';
import { normalizeCompanyName, normalizeDomain } from '../companies/normalize.ts';
import type { SourceCompany, SourceListing } from './input.ts';
import { ImportSummary } from '../platform/import-summary.ts';
import { normalizeOutcome, type NormalizeContext, type NormalizedListing, type NormalizeOutcome } from './listing.ts';
import { NormalizerWorker } from './normalize-pool.ts';
import { beginBulkWrites } from '../db/bulk-writes.ts';
import { inTransaction } from '../db/transaction.ts';
import { JobRepository, type BatchItem } from './repository.ts';
import { cleanPendingTerms, PendingTerms, useImportSettings } from './pg-import-settings.ts';
import { ensureTermsPartitions } from './terms-partitions.ts';

/** What the jobs domain needs of the company store (CompanyService satisfies it). */
export interface CompanyStore {
  upsertPrepared(items: PreparedCompany[], source: string, seenAt?: number): Promise<UpsertResult[]>;
  findByDomain(domainOrUrl: string): Promise<{ id: number } | null>;
}

export interface JobServiceDeps {
  db: Db;
  /** How imports wait out a locked or unreachable database (retryWhileUnavailable). */
  writeRetry?: WriteRetryOptions;
  companies?: CompanyStore;
  /**
   * Postings this service imports before normalization moves to a worker thread beside storage
   * (default 2,000, so tests and small boards never start one; Infinity: never).
   */
  workerAfter?: number;
}

/** Companies whose ids and matching keys an importer remembers (a board repeats its company). */
const COMPANY_CACHE_SIZE = 100_000;

/** Why a posting is refused before normalization, or null. */
function refusal(raw: SourceListing): string | null {
  if (!raw.sourceId || !raw.title?.trim()) return 'posting without id or title';
  if (!raw.applyUrl) return `posting ${raw.sourceId}: no application URL`;
  return null;
}

/** How fast the share of normalization done on the importing thread follows the load (see JobService.rebalance). */
const SHARE_STEP = 0.05;
/** The importing thread also stores: it never takes more than this share of normalization. */
const MAX_HERE_SHARE = 0.5;

export interface BoardImportOptions {
  source: string;
  board: string;
  /** Import time; listings of the board not seen in this import are expired. */
  now?: number;
  /** Expire listings that vanished from the board (true for a full board fetch). */
  expireMissing?: boolean;
  /**
   * Expire even when more than half of the board's live listings vanished at once. Without it such
   * an expiry is held (nothing expires, the summary says so): a board that really emptied is rare,
   * a broken fetch common.
   */
  allowMassExpiry?: boolean;
  /** The board owner, used when a posting names no company. */
  company?: SourceCompany | null;
  /** Postings stored per upsert (default 500); a later duplicate id in another batch updates the first. */
  batchSize?: number;
  /** Called after each stored group of batches with the board's summary so far. */
  onBatch?: (summary: ImportSummary) => void;
  /**
   * Make the board's new listings searchable before returning (default true). An import of many
   * boards passes false and calls mergeStagedIndex once at the end: one sorted merge instead of
   * index writes per board.
   */
  mergeIndex?: boolean;
}

/** One board's postings (as a connector read them) and how to import them. */
export interface BoardInput extends Omit<BoardImportOptions, 'now' | 'mergeIndex' | 'onBatch'> {
  listings: SourceListing[];
}

export interface ImportBoardsOptions {
  now?: number;
  /** Postings written per transaction (default 5,000): small boards share one, a large one is split. */
  groupSize?: number;
  /** See BoardImportOptions.mergeIndex (default true: merged when the last board is stored). */
  mergeIndex?: boolean;
  /** Called for each board once all of it is stored, with its summary. */
  onBoard?: (board: BoardInput, summary: BoardImportSummary) => void;
  /** Called after each stored group with the summaries of the boards it touched; a returned promise is awaited. */
  onGroup?: (summaries: BoardImportSummary[]) => void | Promise<void>;
  /** PostgreSQL: listings written between two moves of the description terms' pending lists into their indexes (default 10,000; pg-import-settings.ts). */
  termsMoveEvery?: number;
}

export interface BoardImportSummary extends ImportSummary {
  expired?: number;
  /** Listings that vanished but were not expired, being more than half of the board's live ones (see allowMassExpiry). */
  expiryHeld?: { vanished: number; live: number };
  companiesCreated?: number;
}

/** A slice of one board's postings: one upsert. A board's last piece also expires what vanished. */
interface Piece {
  board: BoardInput;
  summary: BoardImportSummary;
  /** Index of the piece's first posting within its board (rejections report board positions). */
  offset: number;
  postings: SourceListing[];
  last: boolean;
}

/** Pieces of one transaction, with their normalization outcomes (one per accepted posting). */
interface Group {
  pieces: Piece[];
  outcomes: Promise<NormalizeOutcome[][]>;
}

function handleOf(url: string | null | undefined): string | null {
  const m = url?.match(/(?:twitter|x)\.com\/@?([A-Za-z0-9_]{1,15})/i);
  return m ? m[1] : null;
}

/** What a job board tells the company store about a company. */
function companyInputOf(company: SourceCompany): CompanyInput {
  return {
    name: company.name.trim(),
    domain: company.website ? normalizeDomain(company.website) : null,
    website: company.website ?? null,
    prof_url: company.prof_url ?? null,
    social_b_url: company.social_b_url ?? null,
    social_b_handle: handleOf(company.social_b_url),
    code_host_url: company.code_host_url ?? null,
  };
}

export class JobImporter {
  private readonly repository: JobRepository;
  private readonly companies?: CompanyStore;
  /** Company ids by matching key, so a board's thousand postings link with one upsert. */
  private readonly companyIds = new LRUCache<string, number>({ max: COMPANY_CACHE_SIZE });
  /** Matching keys by the source's website and name text: a board's postings repeat them. */
  private readonly companyKeys = new LRUCache<string, string>({ max: COMPANY_CACHE_SIZE });
  private readonly workerAfter: number;
  private readonly writeRetry: WriteRetryOptions | undefined;
  private postingsSeen = 0;
  private worker?: NormalizerWorker;
  /** Share of each group's postings this thread normalizes beside the normalization thread (rebalance). */
  private hereShare = 0;

  private readonly db: Db;

  constructor(deps: JobServiceDeps) {
    this.db = deps.db;
    this.repository = new JobRepository(deps.db);
    this.companies = deps.companies;
    this.workerAfter = deps.workerAfter ?? 2_000;
    this.writeRetry = deps.writeRetry;
  }

  /** Stops the normalization thread, if one was started (it never keeps the process alive while idle). */
  async close(): Promise<void> {
    await this.worker?.close();
  }

  /** The company's matching key: its domain, else its normalized name (computed once per website and name text). */
  private companyKeyOf(company: SourceCompany): string {
    const text = `${company.website ?? ''}\u0000${company.name}`;
    let key = this.companyKeys.get(text);
    if (key === undefined) {
      const domain = company.website ? normalizeDomain(company.website) : null;
      key = domain ? `d:${domain}` : `n:${normalizeCompanyName(company.name)}`;
      this.companyKeys.set(text, key);
    }
    return key;
  }

  /**
   * The company ids of listings (null when unlinked): companies seen before come from the cache, the
   * others are stored in one batched upsert per source (created when new).
   */
  private async linkCompanies(
    listings: { listing: NormalizedListing; summary: BoardImportSummary }[],
    now: number,
  ): Promise<(number | null)[]> {
    const keys = listings.map(({ listing }) => {
      const company = listing.company ?? { name: listing.companyName };
      return this.companies && company.name?.trim() ? this.companyKeyOf(company) : null;
    });
    // Ids for this call: from the cache, else from one upsert per source of the companies not
    // cached yet (the first listing naming each one reports it as created).
    const ids = new Map<string, number>();
    const wanted = new Map<string, Map<string, { company: SourceCompany; summary: BoardImportSummary }>>();
    listings.forEach(({ listing, summary }, i) => {
      const key = keys[i];
      if (key === null || ids.has(key)) return;
      const cached = this.companyIds.get(key);
      if (cached !== undefined) {
        ids.set(key, cached);
        return;
      }
      const source = `jobs:${listing.source}`;
      const bySource = wanted.get(source) ?? new Map();
      wanted.set(source, bySource);
      if (!bySource.has(key)) bySource.set(key, { company: listing.company ?? { name: listing.companyName }, summary });
    });
    for (const [source, companies] of wanted) {
      const entries = [...companies];
      const results = await this.companies!.upsertPrepared(
        entries.map(([, { company }]) => prepareCompany(companyInputOf(company))),
        source,
        now,
      );
      results.forEach((result, i) => {
        if (result.error) throw new CompanyInputError(result.error);
        const [key, { summary }] = entries[i];
        if (result.created) summary.companiesCreated = (summary.companiesCreated ?? 0) + 1;
        ids.set(key, result.id);
        this.companyIds.set(key, result.id);
      });
    }
    return keys.map((key) => (key === null ? null : ids.get(key)!));
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

  /** Imports one board's postings (already read by a connector); see importBoards. */
  async importBoard(listings: SourceListing[], options: BoardImportOptions): Promise<BoardImportSummary> {
    const { now, batchSize = 500, onBatch, mergeIndex, ...board } = options;
    let result: BoardImportSummary = new ImportSummary();
    await this.importBoards([{ ...board, batchSize, listings }], {
      now,
      groupSize: batchSize,
      mergeIndex,
      onGroup: (summaries) => summaries.forEach((s) => onBatch?.(s)),
      onBoard: (_, summary) => (result = summary),
    });
    return result;
  }

  /**
   * Imports boards' postings (already read by connectors) in groups of about `groupSize`
   * postings: each group's companies are linked first, then all its listings are written and its
   * boards' vanished listings expired in one transaction (a board larger than a group spans
   * several, and is expired in its last). With the normalization thread ready, the thread
   * normalizes group N+1 while this thread stores group N. Results are the same either way, and
   * the same as importing the boards one by one (new companies may get their ids in another order).
   */
  async importBoards(
    boards: Iterable<BoardInput> | AsyncIterable<BoardInput>,
    options: ImportBoardsOptions = {},
  ): Promise<BoardImportSummary[]> {
    const now = options.now ?? Date.now();
    const groupSize = options.groupSize ?? 5_000;
    const summaries: BoardImportSummary[] = [];
    const pieces = this.piecesOf(boards, summaries);
    const nextGroup = async (): Promise<Group | undefined> => {
      const group: Piece[] = [];
      let size = 0;
      while (size < groupSize) {
        const next = await pieces.next();
        if (next.done) break;
        group.push(next.value);
        size += next.value.postings.length;
      }
      if (!group.length) return undefined;
      this.countPostings(size);
      return { pieces: group, outcomes: this.normalizePieces(group, now) };
    };
    const endBulkWrites = await beginBulkWrites(this.db);
    try {
      await this.storeGroups(nextGroup, now, options);
      await retryWhileUnavailable(() => cleanPendingTerms(this.db), this.writeRetry);
      if (options.mergeIndex !== false) await this.repository.mergeStagedIndex();
    } finally {
      await endBulkWrites();
    }
    return summaries;
  }

  /** Stores group after group, reading (and handing to the thread) the next group before storing one. */
  private async storeGroups(nextGroup: () => Promise<Group | undefined>, now: number, options: ImportBoardsOptions): Promise<void> {
    const pending = new PendingTerms(this.db, (write) => retryWhileUnavailable(write, this.writeRetry), options.termsMoveEvery);
    await retryWhileUnavailable(() => ensureTermsPartitions(this.db), this.writeRetry);
    try {
      await this.storeEachGroup(pending, nextGroup, now, options);
    } catch (error) {
      // A move under way finishes before the import reports its failure (and its pool can close).
      await pending.settled().catch(() => {});
      throw error;
    }
    await pending.settled();
  }

  private async storeEachGroup(
    pending: PendingTerms,
    nextGroup: () => Promise<Group | undefined>,
    now: number,
    options: ImportBoardsOptions,
  ): Promise<void> {
    let group = await nextGroup();
    while (group) {
      // Storing runs on promises that settle without a trip through the event loop: without this
      // turn, a starting normalization thread's "ready" (and every other event) would wait for the
      // whole import.
      await new Promise((resolve) => setImmediate(resolve));
      const following = await nextGroup();
      const waitStart = performance.now();
      const outcomes = await group.outcomes;
      if (this.readyWorker()) this.rebalance(performance.now() - waitStart);
      await pending.wrote(await this.storeGroup(group, outcomes, now));
      await options.onGroup?.([...new Set(group.pieces.map((p) => p.summary))]);
      for (const piece of group.pieces) if (piece.last) options.onBoard?.(piece.board, piece.summary);
      group = following;
    }
  }

  /** The boards cut into pieces of at most their batch size (a board without postings is one empty piece). */
  private async *piecesOf(
    boards: Iterable<BoardInput> | AsyncIterable<BoardInput>,
    summaries: BoardImportSummary[],
  ): AsyncGenerator<Piece> {
    for await (const board of boards) {
      const summary: BoardImportSummary = new ImportSummary();
      summaries.push(summary);
      const size = Math.max(1, board.batchSize ?? 500);
      const count = Math.max(1, Math.ceil(board.listings.length / size));
      for (let k = 0; k < count; k++) {
        yield { board, summary, offset: k * size, postings: board.listings.slice(k * size, (k + 1) * size), last: k === count - 1 };
      }
    }
  }

  /**
   * Normalization outcomes of the pieces' accepted postings. With the thread ready, this thread
   * normalizes the first `hereShare` of each piece and the thread the rest (results in order);
   * without it, all of them here.
   */
  private normalizePieces(pieces: Piece[], now: number): Promise<NormalizeOutcome[][]> {
    const worker = this.readyWorker();
    return Promise.all(
      pieces.map(async (piece) => {
        const ctx: NormalizeContext = { source: piece.board.source, board: piece.board.board, now, company: piece.board.company };
        const accepted = piece.postings.filter((raw) => refusal(raw) === null);
        const cut = worker ? Math.round(accepted.length * this.hereShare) : accepted.length;
        // PostgreSQL stores: the thread also makes each listing's job_terms vector (writeTerms makes
        // those of listings normalized here, once they are stored).
        const there = worker?.normalize(accepted.slice(cut), ctx, this.repository.dialect === 'postgres');
        const here = accepted.slice(0, cut).map((raw) => normalizeOutcome(raw, ctx));
        return there ? [...here, ...(await there)] : here;
      }),
    );
  }

  /**
   * Moves the share of normalization done on this thread towards balance: up when this thread
   * had to wait for the normalization thread's part of a group, down when it did not.
   */
  private rebalance(waitedMs: number): void {
    const step = waitedMs > 1 ? SHARE_STEP : -SHARE_STEP;
    this.hereShare = Math.min(MAX_HERE_SHARE, Math.max(0, this.hereShare + step));
  }

  /** Links the group's companies, then writes its listings and expiries in one transaction; returns the listings created or rewritten. */
  private async storeGroup(group: Group, outcomes: NormalizeOutcome[][], now: number): Promise<number> {
    const batches = group.pieces.map((piece, k) => {
      const normalized: NormalizedListing[] = [];
      let next = 0;
      piece.postings.forEach((raw, i) => {
        piece.summary.read++;
        const refused = refusal(raw);
        const outcome = refused ? refused : outcomes[k][next++];
        if (typeof outcome !== 'string') normalized.push(outcome);
        else piece.summary.reject(piece.offset + i + 1, refused ? outcome : `posting ${raw.sourceId}: ${outcome}`);
      });
      return normalized;
    });
    // A locked or unreachable database is waited out (bounded), never counted against the postings;
    // each attempt is whole (idempotent company links, then one transaction), and counts are taken
    // only from the attempt that committed.
    const companyIds = await retryWhileUnavailable(
      () =>
        this.linkCompanies(
          batches.flatMap((normalized, k) => normalized.map((listing) => ({ listing, summary: group.pieces[k].summary }))),
          now,
        ),
      this.writeRetry,
    );
    let next = 0;
    const items: BatchItem[][] = batches.map((normalized) => normalized.map((listing) => ({ listing, companyId: companyIds[next++] })));
    const counts = await retryWhileUnavailable(
      () =>
        inTransaction(this.db, async (trx) => {
          await useImportSettings(trx);
          const repository = new JobRepository(trx);
          const out: { created: number; updated: number; unchanged: number; expired?: number; held?: BoardImportSummary['expiryHeld'] }[] =
            [];
          for (const [k, piece] of group.pieces.entries()) {
            const result = await repository.upsertBatch(items[k], now);
            if (!piece.last || piece.board.expireMissing === false) {
              out.push(result);
              continue;
            }
            const { live, vanished } = await repository.countVanished(piece.board.source, piece.board.board, now);
            if (vanished * 2 > live && !piece.board.allowMassExpiry) out.push({ ...result, expired: 0, held: { vanished, live } });
            // Nothing vanished (a new board, or one imported again whole): no expiry to look for.
            else if (!vanished) out.push({ ...result, expired: 0 });
            else out.push({ ...result, expired: await repository.expireUnseen(piece.board.source, piece.board.board, now, now) });
          }
          return out;
        }),
      this.writeRetry,
    );
    for (const [k, piece] of group.pieces.entries()) {
      const c = counts[k];
      piece.summary.inserted += c.created;
      piece.summary.updated += c.updated;
      piece.summary.unchanged += c.unchanged;
      if (c.expired !== undefined) piece.summary.expired = (piece.summary.expired ?? 0) + c.expired;
      if (c.held) piece.summary.expiryHeld = c.held;
    }
    return counts.reduce((n, c) => n + c.created + c.updated, 0);
  }

  /** Stores already normalized listings of one (source, board). */
  async importNormalized(
    listings: NormalizedListing[],
    now: number,
    summary: BoardImportSummary = new ImportSummary(),
  ): Promise<BoardImportSummary> {
    await ensureTermsPartitions(this.db);
    const companyIds = await this.linkCompanies(
      listings.map((listing) => ({ listing, summary })),
      now,
    );
    const result = await this.repository.upsertBatch(
      listings.map((listing, i) => ({ listing, companyId: companyIds[i] })),
      now,
    );
    summary.inserted += result.created;
    summary.updated += result.updated;
    summary.unchanged += result.unchanged;
    return summary;
  }
}
