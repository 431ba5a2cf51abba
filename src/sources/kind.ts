// A source kind (src/sources/kinds) and what its run is given: the interface alone, importing no
// kind, so that the kinds, their list (kinds/index.ts), the registry and the runner import it
// without a cycle. Every type of source is one kind (job boards, feeds, data sets): the registry
// checks locators and picks intervals through it, the runner calls its `read`, bootstrap asks its
// family, and none of them branches on a type.
import type { CompanyService } from '../companies/service.ts';
import type { JobService } from '../jobs/service.ts';
import type { PeopleService } from '../people/service.ts';
import type { RunCounts, SourceRow } from './tables.ts';

/** How a kind's run fetches: each request in its host's turn, through the guarded client. */
export interface KindFetcher {
  /** The body of a 2xx answer; any other status fails the run (429/503 carry their Retry-After). */
  /** `timeoutMs` replaces the crawl's time limit for this request (an upstream that publishes a longer one). */
  /** `onBytes` is told the bytes received so far and the declared size (Content-Length), when known. */
  get(url: string, accept: string, maxBytes?: number, timeoutMs?: number, onBytes?: OnBytes): Promise<Buffer>;
  getText(url: string, accept?: string): Promise<string>;
  /**
   * Streams a large body (a data set's file) into the file at `path` instead of memory; returns its
   * size. Same turn, guard and status rule as `get`; `maxBytes` caps it.
   */
  download?(url: string, path: string, accept: string, maxBytes: number, onBytes?: OnBytes): Promise<number>;
}

/** Told as a body arrives: bytes received so far, and the size the upstream declared (null when it did not). */
export type OnBytes = (received: number, declared: number | null) => void;

/**
 * How far a run is inside its parts, as the kind knows it (bootstrap turns it into rows/s and an
 * ETA). Every field is optional; a report replaces the fields it names and keeps the others.
 */
export interface KindReport {
  /** The part being read or stored (its name in source_parts). */
  part?: string;
  /** Rows this run has stored so far, every part together. */
  rows?: number;
  /** Bytes of the current part downloaded or read so far, and of how many when known (Content-Length, file size). */
  bytes?: number;
  totalBytes?: number | null;
  /** Parts this run has finished, of the parts it has to read. */
  parts?: { done: number; total: number };
}

/** The parts of a source already stored whole (table source_parts), so a run resumes where one stopped. */
export interface KindProgress {
  /** Whether this part was stored whole by an earlier run. */
  isDone(part: string): Promise<boolean>;
  /** Every part stored whole, with when. */
  doneParts(): Promise<Map<string, number>>;
  /** Writes the part down as stored whole (after its rows are committed). */
  markDone(part: string, counts?: Partial<RunCounts> & Record<string, unknown>): Promise<void>;
}

export interface KindRunContext {
  source: SourceRow;
  fetch: KindFetcher;
  progress: KindProgress;
  companies: CompanyService;
  people: PeopleService;
  jobs: JobService;
  now: number;
  signal?: AbortSignal;
  /** Expire even when more than half of a board vanished at once (the operator's decision). */
  allowMassExpiry?: boolean;
  /** Leave a board's new listings staged for a later merge into the search index (the scheduler merges once for many). */
  deferIndexMerge?: boolean;
  /** Tells whoever runs the source how far the run is (see KindReport); cheap, call it as often as convenient. */
  report(progress: KindReport): void;
}

/** A run that stored what it read but expired nothing, and holds its source for the operator: why, and its counts. */
export interface HeldRun {
  held: string;
  counts: RunCounts;
}

/** A locator as stored, the key two additions of one source share, and the API origin a link to a board brings along. */
export interface NormalizedLocator {
  locator: string;
  key: string;
  baseUrl?: string;
}

/**
 * What a kind's sources are, for whoever treats families apart: bootstrap runs each data set as its
 * own step and the boards in bulk, and merges the jobs index after boards only.
 */
export type SourceFamily = 'board' | 'feed' | 'data-set';

/** One type of source: how its locators are checked, how often it runs, and what a run does. */
export interface SourceKind {
  /** The `type` of its sources. */
  type: string;
  family: SourceFamily;
  /** How often its sources run unless told otherwise, in milliseconds. */
  defaultIntervalMs: number;
  /**
   * The upstream's name in `--mirror NAME=URL`, when it has one. A source's `base_url`, when set,
   * replaces the upstream's origin in every address the kind fetches (a mirror, or a local server in tests).
   */
  mirrorName?: string;
  /** The locator used when none is given (the upstream's published address), when there is one. */
  defaultLocator?: string;
  /** Its pages are on companies' own sites, so every fetch honours robots.txt (the ATS APIs and data sets are published for programs). */
  honoursRobots?: boolean;
  /**
   * Checks a locator (trimmed; empty when none was given and the kind has no default): what is
   * stored and the key two additions of one source share. Throw SourceInputError to refuse.
   */
  normalizeLocator(locator: string): NormalizedLocator;
  /** One run: its counts, or a held run. */
  read(context: KindRunContext): Promise<RunCounts | HeldRun>;
}

/** A kind that reads a data set: its upstream has a name and a published address, and it never holds. */
export interface DataSetKind extends SourceKind {
  family: 'data-set';
  mirrorName: string;
  defaultLocator: string;
  read(context: KindRunContext): Promise<RunCounts>;
}
