// `leadbase bootstrap`: fill an empty install from open data in one command. The work is in
// src/sources/bootstrap.ts; `leadbase status` (src/cli/commands/status.ts) shows what it holds.
import type { Command } from 'commander';
import { CliError, withServices } from './context.ts';
import { positiveInt } from './arguments.ts';
import type { Config } from '../platform/config.ts';
import {
  BootstrapInputError,
  mirrorNames,
  parseMirrors,
  runBootstrap,
  stepNames,
  type BootstrapDeps,
  type StepProgress,
} from '../sources/bootstrap.ts';
import type { Services } from '../services.ts';
import { curlLine, endpointExamples } from '../sources/answers.ts';

interface BootstrapCliOptions {
  only?: string;
  limit?: string;
  discoverLimit?: string;
  mirror?: string[];
  boards?: string;
  quiet?: boolean;
  json?: boolean;
}

const number = (n: number) => n.toLocaleString('en-US');

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 90) return `${Math.round(seconds)}s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)}m`;
  return `${(seconds / 3600).toFixed(1)}h`;
}

function size(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One step as a few words: rows, rate, parts or boards done, the running part's bytes, ETA when it can be told. */
export function describeStep(step: StepProgress, now = Date.now()): string {
  const seconds = Math.max(0.001, ((step.finishedAt ?? now) - (step.startedAt ?? now)) / 1000);
  const parts = [`${step.name} ${step.state}`, `${number(step.rows)} rows`];
  if (step.rowsPerSecond !== null) parts.push(`${number(Math.round(step.rowsPerSecond))} rows/s`);
  else if (step.startedAt) parts.push(`${number(Math.round(step.rows / seconds))} rows/s`);
  if (step.runParts && step.state === 'running') parts.push(`${number(step.runParts.done)}/${number(step.runParts.total)} parts this run`);
  else parts.push(step.total !== null ? `${number(step.done)}/${number(step.total)} ${step.unit}` : `${number(step.done)} ${step.unit}`);
  if (step.state === 'running' && step.part) {
    const bytes = step.bytes ? (step.totalBytes ? ` ${size(step.bytes)}/${size(step.totalBytes)}` : ` ${size(step.bytes)}`) : '';
    parts.push(`at ${step.part}${bytes}`);
  }
  if (step.state === 'running' && step.etaSeconds !== null) parts.push(`ETA ${duration(step.etaSeconds)}`);
  if (step.failed) parts.push(`${step.failed} failed`);
  return parts.join(', ');
}

/**
 * Progress on stderr: one live line redrawn on a terminal; otherwise a line whenever a step starts
 * or ends, and every 15 seconds for the running ones.
 */
function progressPrinter(quiet: boolean): { update(steps: readonly StepProgress[]): void; stop(): void } {
  if (quiet) return { update() {}, stop() {} };
  let latest: readonly StepProgress[] = [];
  const states = new Map<string, string>();
  if (process.stderr.isTTY) {
    const draw = () => {
      const line = latest
        .filter((s) => s.state !== 'waiting')
        .map((s) => describeStep(s))
        .join(' | ');
      process.stderr.write(`\r\x1b[K${line.slice(0, Math.max(20, (process.stderr.columns ?? 120) - 1))}`);
    };
    const timer = setInterval(draw, 500);
    return {
      update(steps) {
        latest = steps;
        for (const step of steps) {
          if (states.get(step.name) !== step.state && (step.state === 'done' || step.state === 'failed' || step.state === 'stopped'))
            process.stderr.write(`\r\x1b[K${describeStep(step)}${step.lastError ? ` (last error: ${step.lastError})` : ''}\n`);
          states.set(step.name, step.state);
        }
      },
      stop() {
        clearInterval(timer);
        process.stderr.write('\r\x1b[K');
      },
    };
  }
  const timer = setInterval(() => {
    for (const step of latest) if (step.state === 'running') process.stderr.write(`bootstrap: ${describeStep(step)}\n`);
  }, 15_000);
  return {
    update(steps) {
      latest = steps;
      for (const step of steps) {
        if (states.get(step.name) !== step.state && step.state !== 'waiting')
          process.stderr.write(
            `bootstrap: ${describeStep(step)}${step.lastError && step.state !== 'running' ? ` (last error: ${step.lastError})` : ''}\n`,
          );
        states.set(step.name, step.state);
      }
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/** The API's address for the example calls: the configured port, on localhost when bound to every address. */
function apiUrl(config: Config): string {
  const host = !config.host || config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** What bootstrap works with, taken from the services. */
export function bootstrapDeps(services: Services): BootstrapDeps {
  const { registry, scheduler, http, robots } = services.sources;
  return { db: services.db, registry, scheduler, companies: services.companies, jobs: services.jobs, http, robots };
}

export function registerBootstrap(bootstrap: Command): void {
  bootstrap
    .option('--only <names>', 'only these steps, comma-separated: the data sets by type, boards, discovery')
    .option(
      '--limit <n>',
      'a quick sample: at most N boards, each data set stopped after N parts stored whole (its schedule fetches the rest), discovery on at most N sites',
    )
    .option('--discover-limit <n>', 'company sites discovery reads at most (default 100; 0: no discovery)')
    .option(
      '--mirror <name=url>',
      "read an upstream from a copy (its URL replaces the upstream's origin; it may be on a private address); repeatable; adds to BOOTSTRAP_MIRRORS",
      (value: string, all: string[] | undefined) => [...(all ?? []), value],
    )
    .option(
      '--boards <file>',
      'the boards list to read (CSV: type,locator,company_name,company_website; default: BOOTSTRAP_BOARDS, else the starter list)',
    )
    .option('-q, --quiet', 'no progress')
    .option('--json', 'print the report as JSON')
    .addHelpText('after', () => mirrorHelp())
    .action(async (opts: BootstrapCliOptions) => {
      const limit = opts.limit === undefined ? undefined : Math.max(1, positiveInt(opts.limit, '--limit', 1, 1_000_000));
      const discoverLimit =
        opts.discoverLimit === undefined ? undefined : positiveInt(opts.discoverLimit, '--discover-limit', 100, 1_000_000);
      try {
        parseMirrors(opts.mirror ?? []);
      } catch (error) {
        throw new CliError((error as Error).message);
      }
      await withServices(async (services, config) => {
        // The operator's BOOTSTRAP_MIRRORS, each replaced by a --mirror of the same name.
        const mirrors = { ...services.sources.bootstrap.mirrors, ...parseMirrors(opts.mirror ?? []) };
        const interrupt = new AbortController();
        let interrupts = 0;
        const onSignal = () => {
          interrupts++;
          if (interrupts > 1) process.exit(130); // a second Ctrl-C: stop at once (stored parts are kept)
          process.stderr.write('\nbootstrap: stopping after the parts in flight (Ctrl-C again to stop at once)…\n');
          interrupt.abort('interrupted');
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
        const printer = progressPrinter(Boolean(opts.quiet));
        let report;
        try {
          report = await runBootstrap(bootstrapDeps(services), {
            only: opts.only
              ?.split(',')
              .map((s) => s.trim())
              .filter(Boolean),
            limit,
            discoverLimit,
            mirrors,
            boardsFile: opts.boards ?? config.bootstrap.boardsFile,
            concurrency: config.crawl.concurrency,
            signal: interrupt.signal,
            onProgress: (steps) => printer.update(steps),
          });
        } catch (error) {
          if (error instanceof BootstrapInputError) throw new CliError(error.message);
          throw error;
        } finally {
          printer.stop();
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
        const examples = await endpointExamples({
          db: services.db,
          companies: services.companies,
          jobs: services.jobs,
          people: services.people,
        });
        const base = apiUrl(config);
        const answers = examples.map((e) => ({ ...e, curl: e.body ? curlLine(e, base) : null }));
        if (opts.json) {
          console.log(JSON.stringify({ ...report, answers }));
        } else {
          const lines = [`bootstrap ${report.interrupted ? 'interrupted' : 'done'} in ${duration(report.seconds)}`];
          for (const step of report.steps) lines.push(`  ${describeStep(step)}${step.lastError ? ` (last error: ${step.lastError})` : ''}`);
          // The boards list is spoken of only when the boards step was asked for.
          if (report.boardsList && 'missing' in report.boardsList) lines.push(`  no boards list at ${report.boardsList.file}`);
          else if (report.boardsList?.refused.length) {
            lines.push(`  boards list: ${report.boardsList.refused.length} lines refused`);
            for (const r of report.boardsList.refused.slice(0, 10)) lines.push(`    line ${r.line}: ${r.reason}`);
          }
          lines.push('', `What the service can answer now (start it with leadbase serve; LEADBASE_API_KEY is one of your keys):`);
          for (const a of answers) lines.push(a.curl ? `  ${a.endpoint}\n    ${a.curl}` : `  ${a.endpoint}: nothing yet: ${a.reason}`);
          lines.push(
            '',
            report.interrupted
              ? 'Interrupted: what was stored is kept. Run leadbase bootstrap again to resume.'
              : report.unreachable
                ? report.unreachable.message
                : 'Every source stays registered on its schedule: leadbase serve (or leadbase worker) keeps the data fresh; leadbase status shows it.',
          );
          console.log(lines.join('\n'));
        }
        if (report.interrupted) process.exitCode = 130;
        else if (report.unreachable) throw new CliError(report.unreachable.message);
        else if (report.sources.length && report.sources.every((s) => s.error))
          throw new CliError('no source could be read (see the errors above)');
      });
    });
}

function mirrorHelp(): string {
  return (
    `\nSteps (--only): ${stepNames().join(', ')}` +
    `\nMirror names (--mirror NAME=URL): ${mirrorNames().join(', ')}` +
    '\n  for example --mirror sec=http://10.0.0.5:8080 (docs/data.md says what each one serves)\n'
  );
}
