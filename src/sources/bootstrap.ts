// `leadbase bootstrap`: one run that fills an empty install from open data. It registers one source
// of every data-set kind, the starter job boards and what a bounded discovery finds on the sites of
// the companies those brought in, runs each once now (through the scheduler, so every run is
// recorded and the next one scheduled), and leaves them all on their schedules. An interrupted run
// is resumed by running it again: sources are found again rather than added twice, data sets go on
// from the parts they stored whole (source_parts), and boards already fetched are not fetched again
// until they are due.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import type { Db } from '../db/database.ts';
import type { CompanyService } from '../companies/service.ts';
import type { JobService } from '../jobs/service.ts';
import type { HttpClient } from '../net/http-client.ts';
import type { RobotsRules } from '../net/robots.ts';
import { dataSetKinds, kindOf, SOURCE_KINDS } from './kinds/index.ts';
import type { KindReport } from './kind.ts';
import { BoardDiscovery } from './discovery.ts';
import { companiesToDiscover, discoverSites } from './site-discovery.ts';
import { readSourceList } from './list-file.ts';
import { STARTER_BOARDS_FILE } from './starter.ts';
import type { SourceInput, SourceRegistry } from './registry.ts';
import type { RunCounts, SourceRow } from './tables.ts';
import type { CrawlScheduler } from './scheduler.ts';
import type { RunResult } from './runner.ts';
import { unreachable } from './failures.ts';

/** The starter list of job boards shipped with leadbase (CSV: type,locator,company_name,company_website). */
/** The starter list's path on disk. */
const STARTER_BOARDS_PATH = fileURLToPath(STARTER_BOARDS_FILE);

/** The name of the boards step and of the discovery step in `--only`. */
const BOARDS = 'boards';
const DISCOVERY = 'discovery';

/** Mirror names: each data-set kind's upstream, and each ATS whose public job-board API the boards read. */
export function mirrorNames(): string[] {
  const boards = Object.values(SOURCE_KINDS).filter((kind) => kind.family === 'board' && kind.mirrorName);
  return [...new Set([...dataSetKinds(), ...boards].map((kind) => kind.mirrorName!))];
}

const isDataSet = (type: string) => kindOf(type)?.family === 'data-set';

/** What `--only` may name: each data-set kind's type, `boards` and `discovery`. */
export function stepNames(): string[] {
  return [...dataSetKinds().map((kind) => kind.type), BOARDS, DISCOVERY];
}

/** Operator input bootstrap refuses, with a message naming the option. */
export class BootstrapInputError extends Error {}

/** Checks `NAME=URL` pairs: a known upstream name and an http(s) URL without credentials. */
export function parseMirrors(pairs: readonly string[]): Record<string, string> {
  const known = mirrorNames();
  const mirrors: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, Math.max(0, at)).trim().toLowerCase();
    const text = pair.slice(at + 1).trim();
    if (at <= 0 || !text) throw new BootstrapInputError(`--mirror takes NAME=URL, got "${pair}"`);
    if (!known.includes(name)) throw new BootstrapInputError(`--mirror: no upstream named "${name}" (names: ${known.join(', ')})`);
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new BootstrapInputError(`--mirror ${name}: "${text}" is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BootstrapInputError(`--mirror ${name}: an http or https URL`);
    if (url.username || url.password) throw new BootstrapInputError(`--mirror ${name}: the URL must not carry credentials`);
    mirrors[name] = url.toString().replace(/\/+$/, '');
  }
  return mirrors;
}

export interface BootstrapOptions {
  /** Only these steps (data-set kind types, `boards`, `discovery`); all by default. */
  only?: readonly string[];
  /**
   * A quick sample: at most this many boards, each data set stopped once this many of its parts are
   * stored whole (its schedule then fetches the rest), and discovery on at most this many sites.
   */
  limit?: number;
  /** Upstream name → mirror URL, applied as the sources' base_url (see mirrorNames). */
  mirrors?: Record<string, string>;
  /** Company sites discovery reads at most (default 100; 0: none). */
  discoverLimit?: number;
  /** The boards list (default: the starter list, starter/job-boards.csv). */
  boardsFile?: string;
  /** Sources run at once. */
  concurrency?: number;
  /** Aborting stops every run between parts; running bootstrap again resumes. */
  signal?: AbortSignal;
  /** Told whenever a step's progress changes. */
  onProgress?: (steps: readonly StepProgress[]) => void;
  now?: () => number;
}

export interface StepProgress {
  /** The data-set kind's type, `boards` or `discovery`. */
  name: string;
  state: 'waiting' | 'running' | 'done' | 'failed' | 'stopped';
  /** Rows read so far (a data set's: the rows of its parts stored whole, and what its running part has read). */
  rows: number;
  /** Rows this run reads a second, when its kind reports them (a data set). */
  rowsPerSecond: number | null;
  /**
   * Seconds left, estimated from how far the run is: boards and sites done of the total; a data
   * set's parts done of the parts it has to read this run, with the running part's bytes read of its
   * size when known. Null while nothing is done yet.
   */
  etaSeconds: number | null;
  /** A data set: the part running now, its bytes downloaded or read of how many (when known), and this run's parts done of its total. */
  part: string | null;
  bytes: number | null;
  totalBytes: number | null;
  runParts: { done: number; total: number } | null;
  /** Boards, sites or parts done, and of how many when that is known (boards, sites). */
  done: number;
  total: number | null;
  /** What `done` counts. */
  unit: 'parts' | 'boards' | 'sites';
  startedAt: number | null;
  finishedAt: number | null;
  /** Sources of the step registered now, found again, and whose run failed (with the last error). */
  registered: number;
  failed: number;
  lastError: string | null;
}

export interface BootstrapSourceResult {
  id: number;
  type: string;
  locator: string;
  outcome: string;
  rows: number;
  error: string | null;
}

export interface BootstrapReport {
  steps: StepProgress[];
  sources: BootstrapSourceResult[];
  /** The boards list read, or why there was none; null when the boards step was not asked for. */
  boardsList: { file: string; boards: number; refused: { line: number; reason: string }[] } | { file: string; missing: true } | null;
  /**
   * Set when upstreams could not be reached (names that did not resolve, connections that did not
   * open): `offline` when no run reached any upstream at all; the steps given up on; a few of the
   * errors; and what to do, in words naming --mirror and --only.
   */
  unreachable: { offline: boolean; steps: string[]; examples: string[]; message: string } | null;
  /** Whether the run was interrupted (running bootstrap again resumes it). */
  interrupted: boolean;
  seconds: number;
}

export interface BootstrapDeps {
  db: Db;
  registry: SourceRegistry;
  scheduler: CrawlScheduler;
  companies: CompanyService;
  jobs: JobService;
  http: HttpClient;
  robots: RobotsRules;
}

/**
 * Board runs failing before they reach their host (with the data sets' such failures) after which the
 * boards step stops, when no board reached its host: offline, the rest of a list of thousands would
 * each fail the same way, at the host's pace, and stay registered, retried by every scheduler.
 */
export const OFFLINE_EVIDENCE = 5;

/** Pages discovery reads per site at most. */
const DISCOVERY_PAGES = 6;
const DEFAULT_DISCOVER_LIMIT = 100;
const DEFAULT_CONCURRENCY = 8;

interface Step extends StepProgress {
  controllers: Set<AbortController>;
  /** A data set's run: rows of the parts stored before it, when it started, the rows its kind said it read. */
  live: { rowsBefore: number; startedAt: number; rows: number; toldAt: number } | null;
}

function newStep(name: string, unit: StepProgress['unit']): Step {
  return {
    name,
    state: 'waiting',
    rows: 0,
    rowsPerSecond: null,
    etaSeconds: null,
    part: null,
    bytes: null,
    totalBytes: null,
    runParts: null,
    done: 0,
    total: null,
    unit,
    startedAt: null,
    finishedAt: null,
    registered: 0,
    failed: 0,
    lastError: null,
    controllers: new Set(),
    live: null,
  };
}

/** How often a data set's reports are passed on at most (a download reports every chunk). */
const REPORT_EVERY_MS = 250;

/**
 * Takes a kind's report into its step: rows, rate, the running part, and the ETA they give. While
 * running, a rate waits for the step's first second (before it, a rate is noise); the `final`
 * report gives the rate over the whole step however short.
 */
function takeReport(step: Step, report: KindReport, at: number, final = false): void {
  const live = step.live;
  if (!live) return;
  if (report.rows !== undefined) live.rows = report.rows;
  if (report.part !== undefined) step.part = report.part;
  if (report.bytes !== undefined) step.bytes = report.bytes;
  if (report.totalBytes !== undefined) step.totalBytes = report.totalBytes;
  if (report.parts) step.runParts = { ...report.parts };
  step.rows = Math.max(step.rows, live.rowsBefore + live.rows);
  const seconds = (at - live.startedAt) / 1000;
  step.rowsPerSecond = seconds >= 1 || (final && seconds > 0) ? live.rows / seconds : null;
  const within = step.totalBytes && step.bytes !== null ? Math.min(1, step.bytes / step.totalBytes) : 0;
  const parts = step.runParts;
  const share = parts ? (parts.total > 0 ? (parts.done + (parts.done < parts.total ? within : 0)) / parts.total : 1) : within;
  step.etaSeconds = share >= 1 ? 0 : share > 0 && seconds > 0 ? (seconds * (1 - share)) / share : null;
}

/** Why bootstrap stopped a run itself; a stop is not a failure of the source. */
type StopReason = 'sample' | 'interrupted' | 'offline';

const STOP_WORDS: Record<StopReason, string> = { sample: 'sample limit', interrupted: 'interrupted', offline: 'upstreams unreachable' };

export async function runBootstrap(deps: BootstrapDeps, options: BootstrapOptions = {}): Promise<BootstrapReport> {
  const now = options.now ?? Date.now;
  const started = now();
  const only = options.only?.length ? new Set(options.only) : null;
  for (const name of only ?? [])
    if (!stepNames().includes(name)) throw new BootstrapInputError(`--only: no step named "${name}" (steps: ${stepNames().join(', ')})`);
  const wanted = (name: string) => !only || only.has(name);
  const mirrors = options.mirrors ?? {};
  const limit = options.limit;
  const discoverLimit =
    limit !== undefined ? Math.min(limit, options.discoverLimit ?? limit) : (options.discoverLimit ?? DEFAULT_DISCOVER_LIMIT);
  const signal = options.signal;
  const run = pLimit(Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY));
  const results: BootstrapSourceResult[] = [];
  const kinds = dataSetKinds().filter((kind) => wanted(kind.type));
  const steps = new Map<string, Step>(kinds.map((kind) => [kind.type, newStep(kind.type, 'parts')]));
  if (wanted(BOARDS)) steps.set(BOARDS, newStep(BOARDS, 'boards'));
  if (wanted(DISCOVERY) && discoverLimit > 0) steps.set(DISCOVERY, newStep(DISCOVERY, 'sites'));
  const view = (step: Step): StepProgress => {
    const { controllers: _, live: __, ...rest } = step;
    // Boards and sites: the ones left at the pace of the ones done.
    if (!step.live && step.state === 'running' && step.total !== null && step.done > 0 && step.startedAt !== null)
      rest.etaSeconds = ((step.total - step.done) * (now() - step.startedAt)) / 1000 / step.done;
    return { ...rest, runParts: rest.runParts && { ...rest.runParts } };
  };
  const tell = () => options.onProgress?.([...steps.values()].map(view));
  const stopAll = () => {
    for (const step of steps.values()) for (const controller of step.controllers) controller.abort('interrupted');
  };
  signal?.addEventListener('abort', stopAll, { once: true });
  const merge = serialMerge(deps.jobs);
  // Which runs reached their upstream (any answer, even an error status) and which failed before
  // (the name did not resolve, no connection opened): offline, every run is of the second kind.
  const reach = {
    reached: 0,
    unreachable: 0,
    boardsReached: 0,
    boardsUnreachable: 0,
    examples: [] as string[],
    boardError: null as string | null,
  };
  const unreachableIds = new Set<number>();
  const dataSetsUnreachable = () => reach.unreachable - reach.boardsUnreachable;
  const tally = (source: SourceRow, result: RunResult) => {
    const isBoard = !isDataSet(source.type);
    if (result.outcome === 'failed' && unreachable(result.failure)) {
      unreachableIds.add(Number(source.id));
      reach.unreachable++;
      if (isBoard) {
        reach.boardsUnreachable++;
        reach.boardError ??= result.error;
      }
      if (result.error && reach.examples.length < 3) reach.examples.push(result.error);
    } else {
      reach.reached++;
      if (isBoard) reach.boardsReached++;
    }
  };

  /** Runs one source now through the scheduler (history, next run); a stop by bootstrap is not counted as a failure. */
  const runSource = async (
    source: SourceRow,
    step: Step,
    watch?: (controller: AbortController) => () => void,
    onReport?: (report: KindReport) => void,
  ) => {
    if (signal?.aborted) return;
    const controller = new AbortController();
    step.controllers.add(controller);
    const unwatch = watch?.(controller);
    try {
      const result = await deps.scheduler.runNow(Number(source.id), { signal: controller.signal, deferIndexMerge: true, onReport });
      if (!result) return; // another instance is running it: it will record its own run
      // A board that finished as the stop came is whole; a data set stopped between parts goes on later.
      const cut = result.outcome === 'failed' || isDataSet(source.type);
      const stopped = controller.signal.aborted && cut ? (controller.signal.reason as StopReason) : null;
      if (stopped) await settleStopped(deps.db, source, stopped, now());
      else tally(source, result);
      if (result.counts.inserted + result.counts.updated > 0 && !isDataSet(source.type)) merge.soon();
      const failed = result.outcome === 'failed' && !stopped;
      if (failed) {
        step.failed++;
        step.lastError = result.error;
      }
      results.push({
        id: Number(source.id),
        type: source.type,
        locator: source.locator,
        outcome: stopped ? `stopped (${STOP_WORDS[stopped]})` : result.outcome,
        rows: result.counts.read,
        error: failed ? result.error : null,
      });
      return result;
    } finally {
      unwatch?.();
      step.controllers.delete(controller);
    }
  };

  const begin = (step: Step) => {
    step.state = 'running';
    step.startedAt = now();
    tell();
  };
  const end = (step: Step) => {
    step.finishedAt = now();
    step.etaSeconds = null;
    step.state = signal?.aborted ? 'stopped' : step.failed && step.failed >= step.registered ? 'failed' : 'done';
    tell();
  };

  // The boards list is read before anything runs: a list that cannot be read stops here.
  const boardsInput = steps.has(BOARDS) ? readBoardsList(options.boardsFile) : null;

  // Data sets: one source of each kind, its default locator, the operator's mirror as base_url.
  const dataSets = kinds.map(async (kind) => {
    const step = steps.get(kind.type)!;
    let source: SourceRow;
    try {
      ({ source } = await deps.registry.add({ type: kind.type, base_url: mirrors[kind.mirrorName] ?? null }));
    } catch (error) {
      // One kind that cannot be registered does not stop the others.
      Object.assign(step, { state: 'failed', failed: 1, lastError: (error as Error).message });
      tell();
      return;
    }
    step.registered = 1;
    if (!isDue(source, now())) {
      step.state = 'done';
      step.rows = await partRows(deps.db, Number(source.id));
      step.done = await partCount(deps.db, Number(source.id));
      tell();
      return;
    }
    await run(async () => {
      step.rows = await partRows(deps.db, Number(source.id));
      begin(step);
      step.live = { rowsBefore: step.rows, startedAt: now(), rows: 0, toldAt: 0 };
      const onReport = (report: KindReport) => {
        const at = now();
        const news =
          (report.part !== undefined && report.part !== step.part) ||
          (report.totalBytes !== undefined && report.totalBytes !== step.totalBytes) ||
          report.parts !== undefined;
        takeReport(step, report, at);
        // A new part, its size, and a part finished are told at once; bytes and rows at most every REPORT_EVERY_MS.
        if (news || at - step.live!.toldAt >= REPORT_EVERY_MS) {
          step.live!.toldAt = at;
          tell();
        }
      };
      const result = await runSource(source, step, (controller) => watchParts(deps.db, source, step, limit, controller, tell), onReport);
      // The parts held now (this run's and earlier ones'), and their rows.
      step.done = await partCount(deps.db, Number(source.id));
      step.rows = Math.max(await partRows(deps.db, Number(source.id)), result?.counts.read ?? 0);
      takeReport(step, {}, now(), true);
      step.etaSeconds = null;
      step.live = null;
      end(step);
    });
  });

  // Boards: the starter list (or the operator's), each registered when its turn comes and run when
  // due. Registering a board only as it is tried means a run stopped early (interrupted, or offline)
  // leaves no untried boards on the schedule.
  let boardsList: BootstrapReport['boardsList'] = null;
  const boardsGivenUp: string[] = [];
  const boards = (async () => {
    const step = steps.get(BOARDS);
    if (!step || !boardsInput) return;
    if ('missing' in boardsInput) {
      boardsList = boardsInput;
      step.state = 'done';
      step.lastError = `no starter list of job boards at ${boardsInput.file}`;
      tell();
      return;
    }
    const { file, inputs, refused } = boardsInput;
    const picked = limit !== undefined ? inputs.slice(0, limit) : inputs;
    boardsList = { file, boards: picked.length, refused };
    step.total = picked.length;
    begin(step);
    const offline = new AbortController();
    // Boards this run registered that were never read: removed when the step gives up offline.
    const unread = new Set<number>();
    const isOffline = () =>
      reach.boardsReached === 0 && reach.boardsUnreachable > 0 && reach.boardsUnreachable + dataSetsUnreachable() >= OFFLINE_EVIDENCE;
    const board = async (input: SourceInput) => {
      if (signal?.aborted || offline.signal.aborted) return;
      const type = String(input.type).trim().toLowerCase();
      const mirror = mirrors[type];
      let added;
      try {
        added = await deps.registry.add({ ...input, ...(mirror ? { base_url: mirror } : {}) });
      } catch (error) {
        refused.push({ line: 0, reason: `${type} ${input.locator ?? ''}: ${(error as Error).message}` });
        return;
      }
      const { source, created } = added;
      step.registered++;
      if (!isDue(source, now())) {
        step.done++;
        step.rows += lastRead(source);
        tell();
        return;
      }
      if (created) unread.add(Number(source.id));
      const result = await runSource(source, step, (controller) => {
        if (offline.signal.aborted) controller.abort('offline');
        const stop = () => controller.abort('offline');
        offline.signal.addEventListener('abort', stop, { once: true });
        return () => offline.signal.removeEventListener('abort', stop);
      });
      if (!result) return; // stopped before it began, or another instance runs it
      const stoppedHere = result.outcome === 'failed' && (Boolean(signal?.aborted) || offline.signal.aborted);
      if (!stoppedHere && !(result.outcome === 'failed' && unreachable(result.failure))) unread.delete(Number(source.id));
      // Done counts the boards tried to the end, not those a stop cut short.
      if (!stoppedHere) {
        step.done++;
        step.rows += result.counts.read;
      }
      if (!offline.signal.aborted && isOffline()) offline.abort('offline');
      tell();
    };
    // A few boards at a time are taken from the list (not all queued at once), so the data sets'
    // runs get their turn among them.
    let next = 0;
    const worker = async () => {
      while (next < picked.length && !signal?.aborted && !offline.signal.aborted) {
        const input = picked[next++];
        await run(() => board(input));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY) }, worker));
    // Given up when no board reached its host: stopped early, or a short list whose every board failed so.
    const gaveUp = offline.signal.aborted || (!signal?.aborted && reach.boardsReached === 0 && reach.boardsUnreachable > 0);
    if (gaveUp) {
      for (const id of unread) await deps.registry.remove(id);
      step.registered -= unread.size;
      boardsGivenUp.push(BOARDS);
      step.finishedAt = now();
      step.etaSeconds = null;
      step.state = 'failed';
      step.lastError =
        `${offline.signal.aborted ? 'stopped after' : 'tried'} ${number(step.done)} of ${number(picked.length)} boards: none could be reached ` +
        `(${reach.boardError ?? 'unreachable'}); ${offline.signal.aborted ? 'the rest of the list was not registered, and ' : ''}` +
        `the boards this run registered were removed`;
      tell();
      return;
    }
    end(step);
  })();

  await Promise.all([...dataSets, boards]);

  // Discovery: the sites of companies the data sets brought in, not read before, the biggest first.
  // Not when nothing could be reached: every site would fail the same way.
  const discoveryStep = steps.get(DISCOVERY);
  const offlineSoFar = reach.reached === 0 && reach.unreachable > 0;
  if (discoveryStep && offlineSoFar && !signal?.aborted) {
    Object.assign(discoveryStep, { state: 'stopped', lastError: 'not run: no upstream could be reached' });
  } else if (discoveryStep && !signal?.aborted) {
    const sites = await companiesToDiscover(deps.companies, deps.registry, discoverLimit);
    discoveryStep.total = sites.length;
    begin(discoveryStep);
    const found: SourceRow[] = [];
    await discoverSites({ discovery: new BoardDiscovery(deps.http, deps.robots), registry: deps.registry }, sites, {
      maxPages: DISCOVERY_PAGES,
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      mirrors,
      signal,
      onSite: ({ registered }, done) => {
        const created = registered.filter((r) => r.created).map((r) => r.source);
        discoveryStep.registered += created.length;
        found.push(...created);
        discoveryStep.done = done;
        tell();
      },
    });
    // What discovery registered runs now too, within the same bounds.
    await Promise.all(
      found.map((source) =>
        run(async () => {
          const result = await runSource(source, discoveryStep);
          discoveryStep.rows += result?.counts.read ?? 0;
          tell();
        }),
      ),
    );
    end(discoveryStep);
  } else if (discoveryStep) {
    discoveryStep.state = 'stopped';
  }
  await merge.settle();
  signal?.removeEventListener('abort', stopAll);
  tell();
  // The data sets whose every run failed before reaching their upstream.
  const dataSetsGivenUp = kinds
    .map((kind) => kind.type)
    .filter((type) => {
      const ran = results.filter((r) => r.type === type && !r.outcome.startsWith('stopped'));
      return ran.length > 0 && ran.every((r) => unreachableIds.has(r.id));
    });
  const givenUp = [...dataSetsGivenUp, ...boardsGivenUp];
  return {
    steps: [...steps.values()].map(view),
    sources: results,
    boardsList,
    unreachable: givenUp.length && !signal?.aborted ? unreachableReport(reach.reached === 0, givenUp, reach.examples) : null,
    interrupted: Boolean(signal?.aborted),
    seconds: (now() - started) / 1000,
  };
}

const number = (n: number) => n.toLocaleString('en-US');

/** What bootstrap says when upstreams could not be reached, naming the ways forward. */
function unreachableReport(offline: boolean, steps: string[], examples: string[]): NonNullable<BootstrapReport['unreachable']> {
  const what = offline ? 'No upstream could be reached' : `These steps could not reach their upstreams: ${steps.join(', ')}`;
  const message =
    `${what} (${examples.slice(0, 2).join('; ') || 'names did not resolve or connections did not open'}). ` +
    `${offline ? 'This machine looks offline, or its DNS cannot resolve outside names. ' : ''}` +
    `Read them from copies you run with --mirror NAME=URL (names: ${mirrorNames().join(', ')}), ` +
    `or run only the steps that can work here with --only STEPS (steps: ${stepNames().join(', ')}).` +
    (steps.includes(BOARDS) ? ' The boards list was not registered beyond the boards tried.' : '');
  return { offline, steps, examples, message };
}

/** The boards list's job-board lines, and the lines refused; `missing` when the starter list is absent. */
function readBoardsList(
  given: string | undefined,
): { file: string; missing: true } | { file: string; inputs: SourceInput[]; refused: { line: number; reason: string }[] } {
  const file = given ?? STARTER_BOARDS_PATH;
  if (!existsSync(file)) {
    if (given) throw new BootstrapInputError(`${file}: no such file`);
    return { file, missing: true };
  }
  let entries;
  try {
    entries = readSourceList(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new BootstrapInputError(`${file}: ${(error as Error).message}`);
  }
  const refused: { line: number; reason: string }[] = [];
  const inputs: SourceInput[] = [];
  for (const entry of entries) {
    if ('error' in entry) refused.push({ line: entry.line, reason: entry.error });
    else if (kindOf(String(entry.input.type).trim().toLowerCase())?.family === 'board') inputs.push(entry.input);
    else refused.push({ line: entry.line, reason: `"${entry.input.type}" is not a job-board type` });
  }
  return { file, inputs, refused };
}

/** Never run, or due by its schedule (a stopped sample is made due again, so it continues). */
function isDue(source: SourceRow, at: number): boolean {
  return source.status === 'active' && (source.last_success_at == null || Number(source.next_run_at) <= at);
}

function lastRead(source: SourceRow): number {
  if (!source.last_counts) return 0;
  return Number((JSON.parse(source.last_counts) as { read?: number }).read ?? 0);
}

async function partCount(db: Db, sourceId: number): Promise<number> {
  const row = await db
    .selectFrom('source_parts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('source_id', '=', sourceId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Rows read by the parts stored whole, from what each part counted. */
async function partRows(db: Db, sourceId: number): Promise<number> {
  const rows = await db.selectFrom('source_parts').select('counts').where('source_id', '=', sourceId).execute();
  let total = 0;
  for (const { counts } of rows) {
    if (!counts) continue;
    try {
      total += Number((JSON.parse(counts) as { read?: number }).read ?? 0) || 0;
    } catch {
      // a part's counts are for display only
    }
  }
  return total;
}

/**
 * While a data set runs: its parts stored whole and their rows, twice a second; with a sample limit,
 * the run is stopped (between parts) once that many parts are stored in this run.
 */
function watchParts(
  db: Db,
  source: SourceRow,
  step: Step,
  limit: number | undefined,
  controller: AbortController,
  tell: () => void,
): () => void {
  const id = Number(source.id);
  let before: number | null = null;
  let busy = false;
  const look = async () => {
    if (busy) return;
    busy = true;
    try {
      const parts = await partCount(db, id);
      before ??= parts;
      step.done = parts;
      // What the running part has read counts too (its kind's report), once it is more than the stored parts'.
      step.rows = Math.max(await partRows(db, id), step.live ? step.live.rowsBefore + step.live.rows : 0);
      if (limit !== undefined && parts - before >= Math.max(1, limit) && !controller.signal.aborted) controller.abort('sample');
      tell();
    } catch {
      // a missed look is made up by the next
    } finally {
      busy = false;
    }
  };
  void look();
  const timer = setInterval(() => void look(), 500);
  return () => clearInterval(timer);
}

/**
 * A run bootstrap stopped (a sample's limit, the operator's interrupt, upstreams found unreachable)
 * is not a failure: the source's failure count is put back, its history says why it stopped, and it
 * is due at once so the scheduler (or the next bootstrap) goes on from the parts it stored. The parts
 * a data set stored whole before the stop are recorded as a scheduled run records its work: the
 * source's last success and rows, and the run's counts.
 */
async function settleStopped(db: Db, source: SourceRow, reason: StopReason, at: number): Promise<void> {
  const why =
    reason === 'sample'
      ? 'stopped by bootstrap --limit (a sample); the schedule fetches the rest'
      : reason === 'offline'
        ? 'stopped by bootstrap: the upstreams could not be reached'
        : 'interrupted; running it again resumes';
  const last = await db
    .selectFrom('source_runs')
    .select(['id', 'started_at'])
    .where('source_id', '=', source.id)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const stored = last ? await countsSince(db, Number(source.id), Number(last.started_at)) : null;
  await db
    .updateTable('sources')
    .set({
      consecutive_failures: source.consecutive_failures,
      last_error: source.last_error,
      next_run_at: at,
      ...(stored ? { last_success_at: at, last_counts: JSON.stringify(stored) } : {}),
    })
    .where('id', '=', source.id)
    .execute();
  if (last)
    await db
      .updateTable('source_runs')
      .set({ error: why, ...(stored ? { outcome: 'changed', ...stored } : {}) })
      .where('id', '=', last.id)
      .execute();
}

/** What the parts a data set stored whole since `since` counted, summed; null when it stored none. */
async function countsSince(db: Db, sourceId: number, since: number): Promise<RunCounts | null> {
  const parts = await db
    .selectFrom('source_parts')
    .select('counts')
    .where('source_id', '=', sourceId)
    .where('completed_at', '>=', since)
    .execute();
  if (!parts.length) return null;
  const total: RunCounts = { read: 0, inserted: 0, updated: 0, expired: 0, refused: 0 };
  for (const { counts } of parts) {
    if (!counts) continue;
    try {
      const part = JSON.parse(counts) as Partial<RunCounts>;
      for (const key of Object.keys(total) as (keyof RunCounts)[]) total[key] += Number(part[key] ?? 0) || 0;
    } catch {
      // a part's counts are for display only
    }
  }
  return total;
}

/** Merges boards' staged listings into the search index: one merge at a time, again when more came meanwhile. */
function serialMerge(jobs: JobService): { soon(): void; settle(): Promise<void> } {
  let running: Promise<void> | undefined;
  let again = false;
  const soon = () => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await jobs.mergeStagedIndex().catch(() => {});
      } while (again);
    })().finally(() => {
      running = undefined;
    });
  };
  return {
    soon,
    async settle() {
      soon();
      while (running) await running;
    },
  };
}
