// A data-set kind (src/sources/kinds) and what its run is given: the interface alone, importing no
// kind, so that the kinds, their list (kinds/index.ts) and the registry import it without a cycle.
import type { CompanyService } from '../companies/service.ts';
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
  now: number;
  signal?: AbortSignal;
  /** Tells whoever runs the source how far the run is (see KindReport); cheap, call it as often as convenient. */
  report(progress: KindReport): void;
}

export interface DataSetKind {
  /** The `type` of its sources. */
  type: string;
  /** How often its sources run unless told otherwise, in milliseconds. */
  defaultIntervalMs: number;
  /**
   * The upstream's name in `--mirror NAME=URL`. A source's `base_url`, when set, replaces the
   * upstream's origin in every address the kind fetches (a mirror, or a local server in tests).
   */
  mirrorName: string;
  /** The locator used when none is given (the upstream's published address). */
  defaultLocator: string;
  /** Checks a locator: what is stored and the key two additions of one source share. Throw SourceInputError to refuse. */
  normalizeLocator(locator: string): { locator: string; key: string };
  /** One run. */
  read(context: KindRunContext): Promise<RunCounts>;
}
