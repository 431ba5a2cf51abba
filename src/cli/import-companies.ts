import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { ImportStoppedError, ImportSummary } from '../platform/import-summary.ts';
import { isLockedOrUnavailable } from '../db/retry.ts';
import { DEFAULT_BATCH_SIZE, runCompanyImport, type PreparedRow, type SourceRecord } from '../ingest/companies/runner.ts';
import { parallelByDefault, prepareFileInWorker } from '../ingest/companies/parallel.ts';
import type { FileFormat } from '../ingest/companies/prepare-worker.ts';
import { readLines } from '../ingest/companies/lines.ts';
import { parseCompanyJsonl } from '../ingest/companies/jsonl.ts';
import { parsePdlNdjson, readCsvHeader, readPdlCsv, unreadPdlColumns } from '../ingest/companies/pdl.ts';
import { FormDInputError, readFormD, type FormDReadResult } from '../ingest/companies/formd.ts';
import { importFeed } from '../ingest/companies/feed-import.ts';
import { importCompaniesHouseFile } from '../ingest/companies/companies-house-import.ts';
import { CliError, failIfAllRefused, failStoppedImport, withServices } from './context.ts';
import { createProgress } from './progress.ts';

interface CommonOptions {
  quiet?: boolean;
  json?: boolean;
  batchSize?: string;
  /** --parallel / --no-parallel; unset: parallelByDefault(). */
  parallel?: boolean;
}

const sizeOf = (path: string) => (path === '-' ? 0 : statSync(path).size);

/** Prints the summary; fails the command when every row was refused. */
function report(summary: ImportSummary, opts: CommonOptions, label: string): void {
  if (opts.json) process.stdout.write(`${JSON.stringify(summary.toJSON())}\n`);
  else process.stdout.write(`${label}: ${summary.format()}\n`);
  failIfAllRefused(summary.read, summary.rejectedTotal, 'rows');
}

function batchSize(opts: CommonOptions): number {
  const n = opts.batchSize ? Number(opts.batchSize) : DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(n) || n < 1 || n > 20000) throw new CliError('--batch-size must be a whole number from 1 to 20000');
  return n;
}

/**
 * Streams a file into the store with a byte-based progress bar, then prints the summary. A worker
 * thread parses and validates while this thread writes, on a machine with a second core unless
 * --no-parallel says otherwise (stdin is always read here).
 */
async function importFile(label: string, source: string, path: string, format: FileFormat, opts: CommonOptions): Promise<void> {
  if (path !== '-' && !statSafe(path)) throw new CliError(`${path}: no such file`);
  const size = batchSize(opts);
  await withServices(async ({ companies }, config) => {
    const service = companies;
    let input: {
      batches?: AsyncIterable<PreparedRow[]>;
      records?: AsyncIterable<SourceRecord>;
      position: () => number;
      unreadKeys?: () => string[];
    };
    const unread = new Set<string>();
    if (path !== '-' && (opts.parallel ?? parallelByDefault())) input = prepareFileInWorker(format, path, size);
    else if (format === 'pdl-csv') input = readPdlCsv(path);
    else {
      const { lines, position } = readLines(path);
      input = {
        records: format === 'jsonl' ? parseCompanyJsonl(lines, unread) : parsePdlNdjson(lines),
        position,
        unreadKeys: () => [...unread],
      };
    }
    const progress = createProgress(label, sizeOf(path), 'bytes', opts.quiet);
    const started = Date.now();
    const summary = await runCompanyImport({
      service,
      source,
      batches: input.batches,
      records: input.records,
      batchSize: size,
      retry: { maxWaitMs: config.importLockWaitMs },
      onBatch: (s) =>
        progress.update(input.position(), `${s.read} rows, ${Math.round(s.read / Math.max(0.001, (Date.now() - started) / 1000))} rows/s`),
    }).catch((error: unknown) => {
      progress.stop();
      return failStoppedImport(error, label, opts.json);
    });
    progress.stop();
    if (format === 'pdl-csv' && path !== '-') summary.unreadColumns = unreadPdlColumns(readCsvHeader(path));
    else if (format === 'jsonl') summary.unreadColumns = input.unreadKeys?.() ?? [];
    report(summary, opts, label);
  });
}

function statSafe(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function common(cmd: Command): Command {
  return cmd
    .option('-q, --quiet', 'no progress bar')
    .option('--json', 'print the summary as JSON')
    .option('--batch-size <n>', `rows per transaction (default ${DEFAULT_BATCH_SIZE})`)
    .option(
      '--parallel',
      'parse and validate in a worker thread while writing (jsonl, pdl and companies-house files; the default with 2 or more cores)',
    )
    .option('--no-parallel', 'parse and validate on the writing thread');
}

/** Registers `leadbase import companies …` (owned by the companies domain). */
export function registerImportCompanies(importCommand: Command): void {
  const companies = importCommand
    .command('companies')
    .description('Import companies, funding rounds and news into the company store (see docs/companies.md)');

  common(
    companies
      .command('jsonl <file>')
      .description('Our own JSONL format: one company per line, every field optional but a name for new companies ("-" reads stdin)'),
  ).action(async (file: string, opts: CommonOptions) => {
    await importFile('companies (jsonl)', 'jsonl', file, 'jsonl', opts);
  });

  common(
    companies
      .command('pdl <file>')
      .description('People Data Labs free company dataset, CSV with a header row or NDJSON (by extension, or --format)')
      .option('--format <format>', 'csv or ndjson'),
  ).action(async (file: string, opts: CommonOptions & { format?: string }) => {
    const format = opts.format ?? (/\.(nd)?json(l)?$/i.test(file) ? 'ndjson' : 'csv');
    if (format !== 'csv' && format !== 'ndjson') throw new CliError('--format must be csv or ndjson');
    await importFile(`companies (pdl ${format})`, 'pdl', file, format === 'csv' ? 'pdl-csv' : 'pdl-ndjson', opts);
  });

  common(
    companies
      .command('formd <zip-or-directory>')
      .description(
        "SEC Form D quarterly data set: the SEC's zip as downloaded (2024q1_d.zip), or a directory holding its FORMDSUBMISSION, ISSUERS, OFFERING and RELATEDPERSONS .tsv files",
      ),
  ).action(async (path: string, opts: CommonOptions) => {
    // Read before the database opens: a data set that cannot be read is refused at once.
    let formD: FormDReadResult;
    try {
      formD = await readFormD(path);
    } catch (error) {
      if (error instanceof FormDInputError) throw new CliError(error.message);
      throw error;
    }
    await withServices(async ({ companies }, config) => {
      const service = companies;
      const progress = createProgress('companies (form d)', formD.progress().total, 'issuers', opts.quiet);
      const summary = await runCompanyImport({
        service,
        source: 'sec-formd',
        records: formD.records,
        batchSize: batchSize(opts),
        retry: { maxWaitMs: config.importLockWaitMs },
        onBatch: () => progress.update(formD.progress().done),
      }).catch((error: unknown) => {
        progress.stop();
        return failStoppedImport(error, 'companies (form d)', opts.json);
      });
      progress.stop();
      report(summary, opts, 'companies (form d)');
    });
  });

  common(
    companies
      .command('companies-house <file>')
      .description(
        'UK Companies House free company data (BasicCompanyData…): the zip as downloaded, or its CSV; company numbers as ids (docs/data/companies_house.md)',
      ),
  ).action(async (file: string, opts: CommonOptions) => {
    await importCompaniesHouse(file, opts);
  });

  common(
    companies
      .command('feed <files-or-urls...>')
      .description("RSS or Atom feeds into a company's news or press releases (the company is made from the feed's site when not stored)")
      .option('--domain <domain>', "the company's domain (default: the feed's own site)")
      .option('--name <name>', "the company's name, when no domain is given")
      .option('--kind <kind>', "news or press_release (default: press_release for a feed on the company's own site, else news)"),
  ).action(async (sources: string[], opts: CommonOptions & { domain?: string; name?: string; kind?: string }) => {
    if (opts.kind && opts.kind !== 'news' && opts.kind !== 'press_release') throw new CliError('--kind must be news or press_release');
    await withServices(async ({ companies }, config) => {
      const service = companies;
      const summary = new ImportSummary();
      for (const source of sources) {
        const xml = await readSource(source);
        try {
          await importFeed({
            service,
            xml,
            url: source,
            summary,
            companyDomain: opts.domain,
            companyName: opts.name,
            kind: opts.kind as 'news' | 'press_release' | undefined,
            source: 'rss',
            retry: { maxWaitMs: config.importLockWaitMs },
          });
        } catch (error) {
          // A database that stayed locked or unreachable is not the feed's fault: stop, say how to resume.
          if (isLockedOrUnavailable(error)) failStoppedImport(new ImportStoppedError(summary, error), 'feeds', opts.json);
          summary.read += 1;
          summary.reject(0, `${source}: ${(error as Error).message}`);
        }
      }
      report(summary, opts, 'feeds');
    });
  });
}

/** A BasicCompanyData zip or CSV, with a byte-based progress bar; a file that is neither fails the command. */
async function importCompaniesHouse(path: string, opts: CommonOptions): Promise<void> {
  const label = 'companies (companies house)';
  if (!statSafe(path)) throw new CliError(`${path}: no such file`);
  const size = batchSize(opts);
  await withServices(async ({ companies }, config) => {
    const progress = createProgress(label, sizeOf(path), 'bytes', opts.quiet);
    const started = Date.now();
    const run = importCompaniesHouseFile({
      service: companies,
      path,
      parallel: opts.parallel ?? parallelByDefault(),
      batchSize: size,
      retry: { maxWaitMs: config.importLockWaitMs },
      onBatch: (s) =>
        progress.update(run.position(), `${s.read} rows, ${Math.round(s.read / Math.max(0.001, (Date.now() - started) / 1000))} rows/s`),
    });
    const summary = await run.done.catch((error: unknown) => {
      progress.stop();
      if (error instanceof ImportStoppedError) return failStoppedImport(error, label, opts.json);
      throw new CliError(`${path}: ${(error as Error).message}`);
    });
    progress.stop();
    report(summary, opts, label);
  });
}

/** A feed from a file or an http(s) URL. */
async function readSource(source: string): Promise<string> {
  if (/^https?:\/\//i.test(source)) {
    const response = await fetch(source, {
      headers: { accept: 'application/rss+xml, application/atom+xml, application/xml, text/xml' },
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) throw new CliError(`${source}: HTTP ${response.status}`);
    return response.text();
  }
  try {
    return readFileSync(source, 'utf8');
  } catch {
    throw new CliError(`${source}: no such file`);
  }
}
