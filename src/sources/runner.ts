// One run of one source: fetch it (conditionally, politely, through the guarded client), read it
// with its kind (src/sources/kinds), and import it with the importers' safety rules: a payload of the wrong shape
// or an error body fails the run and expires nothing; a board that would lose more than half of its
// live listings at once is held for the operator.
import type { CompanyService } from '../companies/service.ts';
import type { PeopleService } from '../people/service.ts';
import { kindOf } from './kinds/index.ts';
import type { HeldRun, KindFetcher, KindReport, OnBytes } from './kind.ts';
import { sourceParts } from './parts.ts';
import type { Db } from '../db/database.ts';
import type { JobService } from '../jobs/service.ts';
import { retryAfterMs, type HttpClient } from '../net/http-client.ts';
import type { RobotsRules } from '../net/robots.ts';
import type { HostPoliteness } from './politeness.ts';
import type { RunCounts, RunOutcomeName, SourceRow } from './tables.ts';
import { failureKind, type FailureKind } from './failures.ts';

export interface RunResult {
  outcome: RunOutcomeName;
  counts: RunCounts;
  /** The status of the source's first request, when one answered. */
  httpStatus: number | null;
  error: string | null;
  /** The host asked us to wait this long (429 or 503 with Retry-After). */
  retryAfterMs: number | null;
  /** Validators for the next conditional request. */
  validators: { url: string; etag: string | null; lastModified: string | null } | null;
  /** Set when the run was held: why. */
  heldReason?: string;
  /** A failed run: what kind of failure (a host never reached, an HTTP status, …). */
  failure?: FailureKind;
}

export interface RunOptions {
  /** Expire even when more than half of a board vanished at once (the operator's decision). */
  allowMassExpiry?: boolean;
  signal?: AbortSignal;
  now?: number;
  /**
   * Leave a board's new listings staged for a later merge into the search index (the scheduler
   * merges once for many runs: concurrent per-run merges contend for the same facet-count rows).
   */
  deferIndexMerge?: boolean;
  /** Told how far a data set's run is, as its kind reports it. */
  onReport?: (progress: KindReport) => void;
}

export interface SourceRunnerDeps {
  db: Db;
  http: HttpClient;
  robots: RobotsRules;
  politeness: HostPoliteness;
  jobs: JobService;
  companies: CompanyService;
  people: PeopleService;
}

/** The source answered 304: nothing changed since the validators we sent. */
class NotModified extends Error {}

/** A non-2xx answer. */
class StatusError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | null,
    url: string,
  ) {
    super(`GET ${url} answered HTTP ${status}`);
  }
}

const ZERO: RunCounts = { read: 0, inserted: 0, updated: 0, expired: 0, refused: 0 };

export class SourceRunner {
  constructor(private readonly deps: SourceRunnerDeps) {}

  async run(source: SourceRow, options: RunOptions = {}): Promise<RunResult> {
    const fetches = new SourceFetches(this.deps, source, options.signal);
    const result = (outcome: RunOutcomeName, counts: RunCounts, extra: Partial<RunResult> = {}): RunResult => ({
      outcome,
      counts,
      httpStatus: fetches.firstStatus,
      error: null,
      retryAfterMs: null,
      validators: fetches.validators,
      ...extra,
    });
    try {
      const counts = await this.read(source, fetches, options);
      if ('held' in counts) return result('held', counts.counts, { heldReason: counts.held });
      const changed = counts.inserted + counts.updated + counts.expired > 0;
      return result(changed ? 'changed' : 'unchanged', counts);
    } catch (error) {
      if (error instanceof NotModified) return result('not_modified', ZERO, { httpStatus: 304, validators: null });
      return result('failed', ZERO, {
        // An abort rejects with its reason, which may be a plain text (bootstrap's "sample", "interrupted").
        error: (error instanceof Error ? error.message : String(error)).slice(0, 2000),
        retryAfterMs: error instanceof StatusError ? error.retryAfterMs : null,
        validators: null,
        failure: failureKind(error),
      });
    }
  }

  /** One run of the source's kind (src/sources/kinds): the runner treats every type alike. */
  private async read(source: SourceRow, fetches: SourceFetches, options: RunOptions): Promise<RunCounts | HeldRun> {
    const kind = kindOf(source.type);
    if (!kind) throw new Error(`unknown source type "${source.type}"`);
    return kind.read({
      source,
      fetch: fetches,
      progress: sourceParts(this.deps.db, Number(source.id)),
      companies: this.deps.companies,
      people: this.deps.people,
      jobs: this.deps.jobs,
      now: options.now ?? Date.now(),
      signal: options.signal,
      allowMassExpiry: options.allowMassExpiry,
      deferIndexMerge: options.deferIndexMerge,
      report: options.onReport ?? (() => {}),
    });
  }
}

/**
 * A run's requests: each in its host's turn, the first one conditional on the validators stored
 * for its URL, and through robots.txt when the kind's pages are on companies' own sites. Its
 * status and validators are the run's.
 */
class SourceFetches implements KindFetcher {
  firstStatus: number | null = null;
  validators: RunResult['validators'] = null;
  private first = true;
  /** The origin of a base_url the operator named (a mirror), which may be private; none otherwise. */
  private readonly operatorOrigins: string[] | undefined;
  private readonly honoursRobots: boolean;

  constructor(
    private readonly deps: SourceRunnerDeps,
    private readonly source: SourceRow,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.honoursRobots = kindOf(source.type)?.honoursRobots ?? false;
    this.operatorOrigins = source.base_url && Number(source.operator_base_url) === 1 ? [new URL(source.base_url).origin] : undefined;
  }

  async getText(url: string, accept = 'application/json'): Promise<string> {
    return (await this.get(url, accept)).toString('utf8');
  }

  async download(url: string, path: string, accept: string, maxBytes: number, onBytes?: OnBytes): Promise<number> {
    const first = this.first;
    this.first = false;
    const answer = await this.inHostTurn(url, first, () =>
      this.deps.http.download(url, path, { accept, signal: this.signal, maxBytes, operatorOrigins: this.operatorOrigins, onBytes }),
    );
    return answer.bytes;
  }

  /** One exchange in its host's turn (a 429 or 503 delays the host by its Retry-After); a non-2xx answer throws. */
  private async inHostTurn<T extends { status: number; headers: Record<string, string | undefined> }>(
    url: string,
    first: boolean,
    exchange: () => Promise<T>,
  ): Promise<T> {
    const busyWait = (answer: T) => (answer.status === 429 || answer.status === 503 ? retryAfterMs(answer.headers['retry-after']) : null);
    const response = await this.deps.politeness.inTurn(new URL(url).host, this.signal, async () => {
      const answer = await exchange();
      return { value: answer, retryAfterMs: busyWait(answer) };
    });
    if (first) this.firstStatus = response.status;
    if (first && response.status === 304) throw new NotModified();
    if (response.status < 200 || response.status >= 300) throw new StatusError(response.status, busyWait(response), url);
    return response;
  }

  async get(url: string, accept: string, maxBytes?: number, timeoutMs?: number, onBytes?: OnBytes): Promise<Buffer> {
    const first = this.first;
    this.first = false;
    if (this.honoursRobots) {
      const robots = await this.deps.robots.check(url);
      if (!robots.allowed)
        throw new Error(
          robots.reason === 'robots.txt does not allow it'
            ? `robots.txt of ${new URL(url).origin} does not allow ${url}`
            : `${url}: ${robots.reason}`,
        );
    }
    const headers: Record<string, string> = {};
    if (first && this.source.validator_url === url) {
      if (this.source.etag) headers['if-none-match'] = this.source.etag;
      if (this.source.last_modified) headers['if-modified-since'] = this.source.last_modified;
    }
    const response = await this.inHostTurn(url, first, () =>
      this.deps.http.get(url, {
        accept,
        headers,
        signal: this.signal,
        maxBytes,
        timeoutMs,
        operatorOrigins: this.operatorOrigins,
        onBytes,
      }),
    );
    if (first) this.validators = { url, etag: response.headers.etag ?? null, lastModified: response.headers['last-modified'] ?? null };
    return response.body;
  }
}
