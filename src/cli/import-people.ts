import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { isPhoneCountry } from '../people/phones.ts';
import { readPeopleJsonl } from '../ingest/people/jsonl.ts';
import { parseColumnMap, readPeopleCsv } from '../ingest/people/csv.ts';
import { runPeopleImport } from '../ingest/people/runner.ts';
import { createProgress } from './progress.ts';
import { CliError, failIfAllRefused, failStoppedImport, withServices } from './context.ts';
import { ImportStoppedError } from '../platform/import-summary.ts';

interface ImportPeopleOptions {
  format?: string;
  map?: string;
  defaultCountry?: string;
  source?: string;
  batchSize?: string;
  json?: boolean;
  quiet?: boolean;
}

/** Registers `leadbase import people …` (owned by the people domain). */
export function registerImportPeople(importCommand: Command): void {
  importCommand
    .command('people')
    .description('Import people (names, profiles, positions, emails, phones) from our JSONL or a CSV export; see docs/people.md')
    .argument('<file>', 'the file to read ("-" for stdin)')
    .option('-f, --format <format>', 'jsonl or csv (default: from the file extension, else jsonl)')
    .option('-m, --map <pairs>', 'CSV columns to fields: "Column A=field,Column B=field"')
    .option('-c, --default-country <code>', 'country of phone numbers written without +country code', 'US')
    .option('-s, --source <name>', 'source name recorded with every fact (default: the format)')
    .option('--batch-size <n>', 'rows per transaction', '500')
    .option('--json', 'print the summary as JSON')
    .option('-q, --quiet', 'no progress bar')
    .action(async (file: string, opts: ImportPeopleOptions) => {
      const format = (opts.format ?? (/\.csv$/i.test(file) ? 'csv' : 'jsonl')).toLowerCase();
      if (format !== 'jsonl' && format !== 'csv') throw new CliError(`--format must be jsonl or csv, got "${opts.format}"`);
      if (opts.map && format !== 'csv') throw new CliError('--map applies to CSV files only');
      const country = opts.defaultCountry?.toUpperCase() ?? null;
      if (country && !isPhoneCountry(country))
        throw new CliError(`--default-country "${opts.defaultCountry}" is not a known two-letter country code`);
      const batchSize = Number(opts.batchSize ?? 500);
      if (!Number.isInteger(batchSize) || batchSize < 1) throw new CliError('--batch-size must be a positive whole number');
      let columnMap;
      try {
        columnMap = parseColumnMap(opts.map);
      } catch (error) {
        throw new CliError((error as Error).message);
      }
      let total = 0;
      if (file !== '-') {
        try {
          total = statSync(file).size;
        } catch {
          throw new CliError(`cannot read ${file}`);
        }
      }
      await withServices(async ({ db, companies }, config) => {
        const reader = format === 'csv' ? readPeopleCsv(file, columnMap) : readPeopleJsonl(file);
        const progress = createProgress('people', total, 'bytes', opts.quiet || file === '-');
        const started = Date.now();
        let summary;
        try {
          summary = await runPeopleImport({
            db,
            companies: companies,
            source: opts.source ?? format,
            records: reader.records,
            defaultCountry: country,
            batchSize,
            retry: { maxWaitMs: config.importLockWaitMs },
            onBatch: (s) => progress.update(reader.position(), `${s.read} rows`),
          });
        } catch (error) {
          progress.stop();
          if (error instanceof ImportStoppedError) failStoppedImport(error, 'people', opts.json);
          throw new CliError(`import stopped: ${(error as Error).message}`);
        } finally {
          progress.stop();
        }
        summary.unreadColumns =
          format === 'csv'
            ? (reader as ReturnType<typeof readPeopleCsv>).unreadColumns()
            : (reader as ReturnType<typeof readPeopleJsonl>).unreadKeys();
        const seconds = (Date.now() - started) / 1000;
        if (opts.json) console.log(JSON.stringify({ ...summary.toJSON(), seconds }));
        else
          console.log(`${summary.format()}\n${(summary.read / Math.max(seconds, 0.001)).toFixed(0)} rows/s over ${seconds.toFixed(1)} s`);
        failIfAllRefused(summary.read, summary.rejectedTotal, 'rows');
      });
    });
}
