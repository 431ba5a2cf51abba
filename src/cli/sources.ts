import { readFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { CliError, withServices } from './context.ts';
import type { Services } from '../services.ts';
import { formatEvery, SOURCE_TYPES, SourceInputError, viewOf, type SourceSelection, type SourceView } from '../sources/registry.ts';
import { readSourceList, SourceListError } from '../sources/list-file.ts';
import type { RunResult } from '../sources/runner.ts';

function sourceId(value: string): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw new InvalidArgumentError('must be a source id (see sources list)');
  return id;
}

/** "3m ago", "in 2h" for listings. */
function ago(iso: string | null, now = Date.now()): string {
  if (!iso) return '';
  const delta = Date.parse(iso) - now;
  const text = formatEvery(Math.max(1000, Math.abs(delta)));
  return delta > 0 ? `in ${text}` : `${text} ago`;
}

function describe(view: SourceView): string {
  const lines = [
    `source ${view.id}: ${view.type} ${view.locator}${view.company?.name ? ` (${view.company.name})` : ''}`,
    `  status ${view.status}${view.status_reason ? `: ${view.status_reason}` : ''}`,
    `  every ${view.every}; next run ${!view.next_run_at ? '(not scheduled)' : Date.parse(view.next_run_at) <= Date.now() ? 'due now' : ago(view.next_run_at)}`,
    `  last success ${view.last_success_at ? ago(view.last_success_at) : 'never'}; last change ${view.last_change_at ? ago(view.last_change_at) : 'never'}`,
  ];
  if (view.consecutive_failures) lines.push(`  failing: ${view.consecutive_failures} consecutive failures; the last: ${view.last_error}`);
  if (view.last_counts) {
    const c = view.last_counts;
    lines.push(`  last run: read ${c.read}, inserted ${c.inserted}, updated ${c.updated}, expired ${c.expired}, refused ${c.refused}`);
  }
  return lines.join('\n');
}

function printRun(id: number, result: RunResult, json?: boolean): void {
  if (json) return console.log(JSON.stringify({ source: id, ...result }));
  const c = result.counts;
  const what =
    result.outcome === 'failed'
      ? `failed: ${result.error}`
      : result.outcome === 'not_modified'
        ? 'not modified since the last fetch (304)'
        : `${result.outcome}: read ${c.read}, inserted ${c.inserted}, updated ${c.updated}, expired ${c.expired}, refused ${c.refused}`;
  console.log(`source ${id} ${what}${result.heldReason ? `\n  ${result.heldReason}` : ''}`);
}

interface SelectionOptions {
  type?: string;
  failing?: boolean;
  all?: boolean;
  json?: boolean;
}

/** The sources a pause, resume or remove acts on: ids, or a filter; never neither, never both. */
function selectionOf(ids: string[], opts: SelectionOptions): SourceSelection {
  const filtered = opts.type !== undefined || Boolean(opts.failing);
  if (ids.length && (filtered || opts.all)) throw new CliError('give source ids or a filter (--type, --failing, --all), not both');
  if (opts.all && filtered) throw new CliError('--all is every source: give it alone, or --type and --failing without it');
  if (ids.length) {
    try {
      return { ids: ids.map(sourceId) };
    } catch (error) {
      throw new CliError(`${ids.join(' ')}: ${(error as Error).message}`);
    }
  }
  if (opts.all) return {};
  if (!filtered) throw new CliError('say which sources: their ids, or --type TYPE, --failing or --all (leadbase sources list shows them)');
  return { ...(opts.type !== undefined ? { type: opts.type } : {}), ...(opts.failing ? { failing: true } : {}) };
}

async function found(services: Services, id: number) {
  const row = await services.sources.registry.get(id);
  if (!row) throw new CliError(`no source with id ${id}`);
  return row;
}

/** `leadbase sources …`: the registry of what is crawled on a schedule. */
export function registerSources(sources: Command): void {
  sources
    .command('add')
    .description('Register a source, due at once; adding it again finds the first and takes a new --base-url, company or --every')
    .argument('<type>', SOURCE_TYPES.join(', '))
    .argument('[locator]', 'board token or board link; careers-page or feed URL; formd: URL pattern (default: SEC)')
    .option(
      '--every <duration>',
      'how often to fetch it: 30m, 6h, 1d, at least 1m (default: 6h for boards, 1h for feeds, 1d for data sets)',
    )
    .option('--company-name <name>', 'the company the source belongs to')
    .option('--company-website <url>', "the company's website (links the source and its listings to the company store)")
    .option('--base-url <url>', "override the source's API origin (a mirror: it may be on a private or loopback address)")
    .option('--json', 'print the source as JSON')
    .action(
      async (
        type: string,
        locator: string | undefined,
        opts: { every?: string; companyName?: string; companyWebsite?: string; baseUrl?: string; json?: boolean },
      ) =>
        withServices(async (services) => {
          try {
            const { source, created, updated } = await services.sources.registry.add({
              type,
              locator,
              every: opts.every,
              company_name: opts.companyName,
              company_website: opts.companyWebsite,
              base_url: opts.baseUrl,
            });
            const view = viewOf(source);
            if (opts.json) return console.log(JSON.stringify({ ...view, created, updated }));
            console.log(
              `${created ? 'added' : updated ? 'updated (given a new base URL, company or interval)' : 'already registered as'} ${describe(view)}`,
            );
          } catch (error) {
            if (error instanceof SourceInputError) throw new CliError(error.message);
            throw error;
          }
        }),
    );
  sources
    .command('list')
    .description("List sources with each one's freshness; a source failing for more than a day is marked")
    .option('--status <status>', 'only active, paused or held sources')
    .option('--type <type>', 'only sources of this type')
    .option('--json', 'print a JSON array of the sources ([] when there are none)')
    .action(async (opts: { status?: string; type?: string; json?: boolean }) =>
      withServices(async (services) => {
        if (opts.status && !['active', 'paused', 'held'].includes(opts.status))
          throw new CliError('--status must be active, paused or held');
        const rows = await services.sources.registry.list({ status: opts.status as 'active' | undefined, type: opts.type });
        const now = Date.now();
        const views = rows.map((row) => viewOf(row, now));
        if (opts.json) return console.log(JSON.stringify(views));
        if (!views.length) return console.log('no sources yet: leadbase sources add TYPE LOCATOR, or leadbase discover DOMAIN');
        console.table(
          views.map((v) => ({
            id: v.id,
            type: v.type,
            locator: v.locator.length > 50 ? `${v.locator.slice(0, 49)}…` : v.locator,
            status: v.failing ? `${v.status} FAILING >1d` : v.status,
            every: v.every,
            fresh: v.last_success_at ? ago(v.last_success_at, now) : 'never fetched',
            next: v.next_run_at ? (Date.parse(v.next_run_at) <= now ? 'due now' : ago(v.next_run_at, now)) : '',
            failures: v.consecutive_failures || '',
          })),
        );
        const failing = views.filter((v) => v.failing).length;
        if (failing) console.log(`${failing} source(s) failing for more than a day: leadbase sources show ID says why`);
      }),
    );
  sources
    .command('show')
    .description('Show a source and its recent runs')
    .argument('<id>', 'source id', sourceId)
    .option('--runs <n>', 'runs of history to show (default 10)', '10')
    .option('--json', 'print JSON')
    .action(async (id: number, opts: { runs: string; json?: boolean }) =>
      withServices(async (services) => {
        const view = viewOf(await found(services, id));
        const runs = await services.sources.registry.history(id, Math.max(1, Math.min(1000, Number(opts.runs) || 10)));
        const history = runs.map((r) => ({
          started_at: new Date(Number(r.started_at)).toISOString(),
          duration_ms: Number(r.finished_at) - Number(r.started_at),
          outcome: r.outcome,
          http_status: r.http_status,
          read: r.read,
          inserted: r.inserted,
          updated: r.updated,
          expired: r.expired,
          refused: r.refused,
          error: r.error,
        }));
        if (opts.json) return console.log(JSON.stringify({ ...view, runs: history }));
        console.log(describe(view));
        if (!history.length) return console.log('  no runs yet');
        console.log('  recent runs:');
        for (const r of history)
          console.log(
            `    ${r.started_at} ${r.outcome}${r.http_status ? ` (HTTP ${r.http_status})` : ''} in ${r.duration_ms} ms: ` +
              `read ${r.read}, +${r.inserted} ~${r.updated} -${r.expired}${r.refused ? `, refused ${r.refused}` : ''}${r.error ? `: ${r.error}` : ''}`,
          );
      }),
    );
  sources
    .command('run')
    .description('Run a source now, whatever its schedule or status, and print what it did')
    .argument('<id>', 'source id', sourceId)
    .option('--allow-mass-expiry', 'expire listings even when more than half of the board vanished at once (a held source)')
    .option('--json', 'print the result as JSON')
    .action(async (id: number, opts: { allowMassExpiry?: boolean; json?: boolean }) =>
      withServices(async (services) => {
        await found(services, id);
        const result = await services.sources.scheduler.runNow(id, { allowMassExpiry: opts.allowMassExpiry });
        if (!result) throw new CliError(`source ${id} is being run by another instance right now; try again when it ends`);
        printRun(id, result, opts.json);
        if (result.outcome === 'failed') throw new CliError(`source ${id} could not be read`);
        if (result.outcome === 'held') process.exitCode = 2;
      }),
    );
  for (const [name, description] of [
    ['pause', 'Stop fetching sources until they are resumed'],
    ['resume', 'Schedule paused or held sources again (due now, their failures forgotten)'],
    ['remove', 'Remove sources and their history (the listings they imported stay); asks for no confirmation'],
  ] as const) {
    sources
      .command(name)
      .description(`${description}: the sources named by id, or every one a filter matches`)
      .argument('[ids...]', 'source ids (see sources list)')
      .option('--type <type>', 'every source of this type')
      .option('--failing', 'every source whose last run failed')
      .option('--all', 'every source')
      .option('--json', `print {${name === 'remove' ? 'removed' : name === 'pause' ? 'paused' : 'resumed'}, sources} as JSON`)
      .addHelpText(
        'after',
        `\n--type and --failing together match the sources that are both. Examples:\n  leadbase sources ${name} 12 14\n` +
          `  leadbase sources ${name} --type greenhouse --failing\n  leadbase sources ${name} --all\n`,
      )
      .action(async (ids: string[], opts: SelectionOptions) => {
        const selection = selectionOf(ids, opts);
        await withServices(async (services) => {
          const registry = services.sources.registry;
          const rows = await registry.select(selection);
          if ('ids' in selection) {
            const missing = selection.ids.filter((id) => !rows.some((row) => Number(row.id) === id));
            if (missing.length) throw new CliError(`no source with id ${missing.join(', ')}: nothing was changed`);
          }
          const ids = rows.map((row) => Number(row.id));
          if (name === 'remove') await registry.removeMany(ids);
          else if (name === 'pause') await registry.pauseMany(ids);
          else await registry.resumeMany(ids);
          const done = name === 'remove' ? 'removed' : name === 'pause' ? 'paused' : 'resumed';
          if (opts.json) {
            const now = Date.now();
            // Removed sources are shown as they were; paused and resumed ones as they are now.
            const after = name === 'remove' ? rows : await registry.select({ ids });
            return console.log(JSON.stringify({ [done]: ids.length, sources: after.map((row) => viewOf(row, now)) }));
          }
          console.log(`${ids.length} source${ids.length === 1 ? '' : 's'} ${done}${ids.length ? ':' : ''}`);
          for (const row of rows) console.log(`  ${row.id} ${row.type} ${row.locator}`);
        });
      });
  }
  sources
    .command('import')
    .description('Register many sources from a CSV file (header: type,locator,company_name,company_website,every,base_url) or JSON lines')
    .argument('<file>', 'the list')
    .option('--json', 'print the summary as JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        throw new CliError(`${file}: no such file`);
      }
      let entries;
      try {
        entries = readSourceList(text);
      } catch (error) {
        if (error instanceof SourceListError) throw new CliError(`${file}: ${error.message}`);
        throw error;
      }
      await withServices(async (services) => {
        const summary = await services.sources.registry.addMany(entries);
        if (opts.json) console.log(JSON.stringify(summary));
        else {
          console.log(
            `sources: read ${summary.read}, added ${summary.added}, updated ${summary.updated}, already registered ${summary.existing}, refused ${summary.refused.length}`,
          );
          for (const r of summary.refused.slice(0, 50)) console.log(`  line ${r.line}: ${r.reason}`);
          if (summary.refused.length > 50) console.log(`  … and ${summary.refused.length - 50} more refused lines`);
        }
        if (summary.refused.length && !summary.added && !summary.updated && !summary.existing)
          throw new CliError(`${file}: no line could be read as a source`);
      });
    });
}
