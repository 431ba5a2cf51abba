import { statSync } from 'node:fs';
import type { Command } from 'commander';
import { importEngagementCsv } from '../ingest/engagement/csv.ts';
import { CliError, failIfAllRefused, failStoppedImport, withServices } from './context.ts';
import { ImportStoppedError } from '../platform/import-summary.ts';
import { createProgress } from './progress.ts';

/** Registers `leadbase import engagement …` (owned by the engagement domain). */
export function registerImportEngagement(importCommand: Command): void {
  importCommand
    .command('engagement <file>')
    .description(
      'Import delivery evidence (deliveries and hard bounces per address) from a CSV with a header row: ' +
        'email,event[,occurred_at,event_id,source] or email,delivered,hard_bounces ("-" reads stdin; see docs/email.md)',
    )
    .option('-q, --quiet', 'no progress bar')
    .option('--json', 'print the summary as JSON')
    .action(async (file: string, opts: { quiet?: boolean; json?: boolean }) => {
      if (file !== '-') {
        try {
          if (!statSync(file).isFile()) throw new Error();
        } catch {
          throw new CliError(`${file}: no such file`);
        }
      }
      await withServices(async ({ email }, config) => {
        const progress = createProgress('engagement', 0, 'rows', opts.quiet);
        let summary;
        try {
          summary = await importEngagementCsv(email.engagement, file, {
            onProgress: (rows) => progress.update(rows, `${rows} rows`),
            retry: { maxWaitMs: config.importLockWaitMs },
          });
        } catch (error) {
          progress.stop();
          if (error instanceof ImportStoppedError) failStoppedImport(error, 'engagement', opts.json);
          throw new CliError(`${file}: ${(error as Error).message}`);
        } finally {
          progress.stop();
        }
        if (opts.json) process.stdout.write(`${JSON.stringify(summary.toJSON())}\n`);
        else
          process.stdout.write(`engagement: ${summary.format()}\n(inserted = events counted, unchanged = already known or not evidence)\n`);
        failIfAllRefused(summary.read, summary.rejectedTotal, 'rows');
      });
    });
}
