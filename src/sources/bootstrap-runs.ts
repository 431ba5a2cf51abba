// The bootstrap the console starts (docs/console.md, "Bootstrap"): the same run as `leadbase
// bootstrap` (runBootstrap), in the background of the server, one at a time per instance, its
// progress kept in memory for the console to show, and at its end what the service can answer now.
// The mirrors and boards list are the operator's (BOOTSTRAP_MIRRORS, BOOTSTRAP_BOARDS), never the
// caller's: a browser cannot point the crawler at an address of its choosing.
import { randomUUID } from 'node:crypto';
import { endpointExamples, type EndpointExample } from './answers.ts';
import { BootstrapInputError, parseMirrors, runBootstrap, stepNames, type BootstrapDeps, type StepProgress } from './bootstrap.ts';
import type { PeopleService } from '../people/service.ts';

/** What the caller may choose: the steps and the quick sample's size. */
export interface BootstrapStart {
  /** Only these steps (data-set kind types, `boards`, `discovery`); all by default. */
  only?: readonly string[];
  /** A quick sample: at most this many boards, parts per data set and sites (see BootstrapOptions.limit). */
  limit?: number;
  /** Company sites discovery reads at most (default 100; 0: none). */
  discoverLimit?: number;
}

/** One step as the console shows it, with its pace and, when its total is known, the time left. */
export interface BootstrapStepView {
  name: string;
  state: StepProgress['state'];
  rows: number;
  done: number;
  total: number | null;
  unit: StepProgress['unit'];
  started_at: string | null;
  finished_at: string | null;
  registered: number;
  failed: number;
  last_error: string | null;
  rows_per_second: number | null;
  eta_seconds: number | null;
}

export interface BootstrapRunView {
  id: string;
  /** running; done; interrupted (stopped by the operator: a new run resumes it); failed (could not run at all, or no upstream could be reached). */
  state: 'running' | 'done' | 'interrupted' | 'failed';
  started_at: string;
  finished_at: string | null;
  options: { only: string[] | null; limit: number | null; discover_limit: number | null };
  steps: BootstrapStepView[];
  /** Sources whose run failed, with the reason in words. */
  failures: { type: string; locator: string; error: string }[];
  /** Why the run could not run at all (a boards list that cannot be read, no upstream reachable), or which upstreams it could not reach. */
  error: string | null;
  /** Once finished: one example request per data endpoint, or why nothing is found yet. */
  answers: EndpointExample[] | null;
}

/** A second start while a run is going on. */
export class BootstrapBusyError extends Error {}

export interface BootstrapRunsDeps extends BootstrapDeps {
  people: PeopleService;
  /** The operator's `NAME=URL` mirror pairs (BOOTSTRAP_MIRRORS). */
  mirrors: readonly string[];
  /** The operator's boards list (BOOTSTRAP_BOARDS); the starter list otherwise. */
  boardsFile?: string;
  /** Sources run at once. */
  concurrency: number;
}

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

function stepView(step: StepProgress, now: number): BootstrapStepView {
  const seconds = step.startedAt ? Math.max(0.001, ((step.finishedAt ?? now) - step.startedAt) / 1000) : null;
  const eta =
    step.state === 'running' && seconds && step.total !== null && step.done > 0
      ? Math.ceil(((step.total - step.done) * seconds) / step.done)
      : null;
  return {
    name: step.name,
    state: step.state,
    rows: step.rows,
    done: step.done,
    total: step.total,
    unit: step.unit,
    started_at: iso(step.startedAt),
    finished_at: iso(step.finishedAt),
    registered: step.registered,
    failed: step.failed,
    last_error: step.lastError,
    rows_per_second: seconds ? Math.round(step.rows / seconds) : null,
    eta_seconds: eta,
  };
}

/** Holds the current (or last) bootstrap run of this instance. */
export class BootstrapRuns {
  /** The operator's mirrors (BOOTSTRAP_MIRRORS), upstream name → URL. */
  readonly mirrors: Readonly<Record<string, string>>;
  private run: {
    view: Omit<BootstrapRunView, 'steps'>;
    steps: readonly StepProgress[];
    abort: AbortController;
    done: Promise<void>;
  } | null = null;

  constructor(private readonly deps: BootstrapRunsDeps) {
    try {
      this.mirrors = parseMirrors(deps.mirrors);
    } catch (error) {
      throw new BootstrapInputError(`BOOTSTRAP_MIRRORS: ${(error as Error).message.replace(/^--mirror:? ?/, '')}`);
    }
  }

  /** The run going on, or the last one; null before any. */
  current(now = Date.now()): BootstrapRunView | null {
    if (!this.run) return null;
    return { ...this.run.view, steps: this.run.steps.map((step) => stepView(step, now)) };
  }

  /**
   * Starts a run in the background and answers at once; `onFinished` is told how it ended.
   * BootstrapBusyError while one runs; BootstrapInputError for a step name it does not know.
   */
  start(options: BootstrapStart, onFinished?: (view: BootstrapRunView) => void): BootstrapRunView {
    if (this.run?.view.state === 'running')
      throw new BootstrapBusyError(`A bootstrap is running already (started ${this.run.view.started_at}): wait for it, or stop it first.`);
    for (const name of options.only ?? [])
      if (!stepNames().includes(name)) throw new BootstrapInputError(`no step named "${name}" (steps: ${stepNames().join(', ')})`);
    const abort = new AbortController();
    const view: Omit<BootstrapRunView, 'steps'> = {
      id: randomUUID(),
      state: 'running',
      started_at: new Date().toISOString(),
      finished_at: null,
      options: {
        only: options.only?.length ? [...options.only] : null,
        limit: options.limit ?? null,
        discover_limit: options.discoverLimit ?? null,
      },
      failures: [],
      error: null,
      answers: null,
    };
    const run: NonNullable<typeof this.run> = { view, steps: [], abort, done: Promise.resolve() };
    this.run = run;
    run.done = (async () => {
      // The run reads as running until its answers are known too.
      let state: BootstrapRunView['state'];
      try {
        const report = await runBootstrap(this.deps, {
          only: options.only,
          limit: options.limit,
          discoverLimit: options.discoverLimit,
          mirrors: this.mirrors,
          boardsFile: this.deps.boardsFile,
          concurrency: this.deps.concurrency,
          signal: abort.signal,
          onProgress: (steps) => {
            run.steps = steps;
          },
        });
        run.steps = report.steps;
        view.failures = report.sources.filter((s) => s.error).map((s) => ({ type: s.type, locator: s.locator, error: s.error! }));
        state = report.interrupted ? 'interrupted' : 'done';
        // Upstreams that could not be reached: the run says so, with the ways forward.
        if (report.unreachable) {
          view.error = report.unreachable.message;
          if (report.unreachable.offline) state = 'failed';
        }
      } catch (error) {
        state = 'failed';
        view.error = error instanceof Error ? error.message : String(error);
      }
      view.answers = await endpointExamples(this.deps).catch(() => null);
      view.finished_at = new Date().toISOString();
      view.state = state;
      onFinished?.(this.current()!);
    })();
    return this.current()!;
  }

  /** Stops the run going on between parts (what was stored is kept; a new run resumes); null when none runs. */
  stop(): BootstrapRunView | null {
    if (this.run?.view.state !== 'running') return null;
    this.run.abort.abort('interrupted');
    return this.current();
  }

  /** Stops a run going on and waits for it (the server's shutdown). */
  async close(): Promise<void> {
    this.run?.abort.abort('interrupted');
    await this.run?.done;
  }
}
