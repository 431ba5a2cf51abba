import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { PoliteFetcher } from '../ingest/jobs/fetcher.ts';
import { connectorFor, JOB_SOURCES } from '../ingest/jobs/index.ts';
import type { SourceListing } from '../ingest/jobs/types.ts';
import { isLockedOrUnavailable } from '../db/retry.ts';
import type { BoardImportSummary, BoardInput } from '../jobs/importer.ts';
import { CliError, failIfAllRefused, withServices } from './context.ts';
import { positiveInt } from './arguments.ts';
import { createProgress, type Progress } from './progress.ts';

interface ImportJobsOptions {
  source: string;
  board: string[];
  file?: string;
  baseUrl?: string;
  companyName?: string;
  companyWebsite?: string;
  expire: boolean;
  allowMassExpiry?: boolean;
  concurrency?: string;
  timeoutMs?: string;
  retries?: string;
  quiet?: boolean;
  json?: boolean;
  optimize?: boolean;
}

/** An import that wrote at least this many listings compacts the search index when it ends. */
export const OPTIMIZE_AFTER_LISTINGS = 10_000;

/** Boards fetched ahead of the one being stored. */
const FETCH_AHEAD = 4;

function report(board: string, summary: BoardImportSummary, opts: ImportJobsOptions): void {
  if (opts.json) {
    process.stdout.write(
      `${JSON.stringify({
        board,
        ...summary.toJSON(),
        expired: summary.expired ?? 0,
        ...(summary.expiryHeld ? { expiry_held: summary.expiryHeld } : {}),
        companies_created: summary.companiesCreated ?? 0,
      })}\n`,
    );
  } else {
    process.stdout.write(
      `jobs ${opts.source} ${board}: ${summary.format()}, expired ${summary.expired ?? 0}, companies created ${summary.companiesCreated ?? 0}\n` +
        (summary.expiryHeld
          ? `  expiry held: ${summary.expiryHeld.vanished} of the board's ${summary.expiryHeld.live} live listings vanished at once; none expired\n`
          : ''),
    );
  }
}

/** Registers `leadbase import jobs …` (owned by the jobs domain). */
export function registerImportJobs(importCommand: Command): void {
  importCommand
    .command('jobs')
    .description('Import job postings from a public job-board API or a saved payload (see docs/jobs.md)')
    .requiredOption('--source <source>', `one of ${JOB_SOURCES.join(', ')}`)
    .option(
      '--board <token>',
      'board token, company slug, or careers-page URL for jsonld (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option('--file <path>', 'read a saved payload (the shape the board API returns) instead of fetching')
    .option('--base-url <url>', "override the source's API origin (mirrors, tests)")
    .option('--company-name <name>', 'the board owner, for sources whose postings name no company')
    .option('--company-website <url>', "the board owner's website (links the listings to the company store)")
    .option('--no-expire', 'keep listings missing from this import (default: they are marked expired)')
    .option('--allow-mass-expiry', 'expire even when more than half of a board vanished at once (default: such an expiry is held)')
    .option('--concurrency <n>', 'requests in flight at most (default 4)')
    .option('--timeout-ms <n>', 'per-request timeout (default 15000)')
    .option('--retries <n>', 'retries of a failed request, with exponential backoff (default 3)')
    .option('--optimize', 'compact the search index when the import ends, whatever its size')
    .option(
      '--no-optimize',
      `never compact it (default: only after ${OPTIMIZE_AFTER_LISTINGS.toLocaleString('en')} or more listings written)`,
    )
    .option('-q, --quiet', 'no progress bar')
    .option('--json', 'print each summary as JSON')
    .action(async (opts: ImportJobsOptions) => {
      const connector = (() => {
        try {
          return connectorFor(opts.source);
        } catch (error) {
          throw new CliError((error as Error).message);
        }
      })();
      if (!opts.board.length) throw new CliError('--board is required (the board token, company slug or careers-page URL)');
      if (opts.file && opts.board.length > 1) throw new CliError('--file reads one board: give one --board');
      if (opts.file) {
        try {
          if (!statSync(opts.file).isFile()) throw new Error();
        } catch {
          throw new CliError(`${opts.file}: no such file`);
        }
      }
      const fetcher = new PoliteFetcher({
        concurrency: Math.max(1, positiveInt(opts.concurrency, '--concurrency', 4, 64)),
        timeoutMs: Math.max(1, positiveInt(opts.timeoutMs, '--timeout-ms', 15_000, 600_000)),
        retries: positiveInt(opts.retries, '--retries', 3, 10),
      });
      const company =
        opts.companyName || opts.companyWebsite
          ? {
              name:
                opts.companyName ??
                new URL(opts.companyWebsite!.includes('://') ? opts.companyWebsite! : `https://${opts.companyWebsite}`).hostname,
              website: opts.companyWebsite ?? null,
            }
          : null;
      await withServices(async ({ jobs }) => {
        const service = jobs;
        let failures = 0;
        let written = 0;
        const single = opts.board.length === 1;
        // One bar: postings of a single board, or boards. Board reports wait while a bar is drawn.
        let progress = single ? undefined : createProgress(`jobs ${opts.source}`, opts.board.length, 'boards', opts.quiet);
        let boardsDone = 0;
        const held: (() => void)[] = [];
        // Boards are fetched a few ahead of the one being stored (the fetcher bounds requests in
        // flight); a board that cannot be read is reported and skipped.
        const read = (board: string): Promise<SourceListing[]> =>
          opts.file
            ? Promise.resolve().then(() => {
                const listings = connector.parsePayload(readFileSync(opts.file!, 'utf8'), { board, baseUrl: opts.baseUrl });
                const unnamed = listings.filter((l) => !l.company?.name?.trim()).length;
                // Fetched live, the board's own endpoint names the company; a saved payload is not
                // named after its board token instead.
                if (connector.namesBoardWhenFetched && !company && unnamed)
                  throw new CliError(
                    `${opts.file}: ${unnamed} of ${listings.length} postings name no company and a saved ${opts.source} payload carries no board name; give it with --company-name`,
                  );
                return listings;
              })
            : connector.fetchBoard(fetcher, { board, baseUrl: opts.baseUrl, companyName: opts.companyName });
        async function* boards(): AsyncGenerator<BoardInput> {
          const ahead = opts.board.map(() => undefined as Promise<SourceListing[]> | undefined);
          for (let i = 0; i < opts.board.length; i++) {
            for (let k = i; k < Math.min(opts.board.length, i + FETCH_AHEAD); k++) {
              if (ahead[k]) continue;
              ahead[k] = read(opts.board[k]);
              ahead[k]!.catch(() => {}); // a failure is reported below, in board order
            }
            const board = opts.board[i];
            try {
              const listings = await ahead[i]!;
              if (single) progress = createProgress(`jobs ${board}`, listings.length, 'postings', opts.quiet);
              yield { source: opts.source, board, company, expireMissing: opts.expire, allowMassExpiry: opts.allowMassExpiry, listings };
            } catch (error) {
              failures++;
              process.stderr.write(`jobs ${opts.source} ${board}: ${error instanceof Error ? error.message : String(error)}\n`);
            } finally {
              ahead[i] = undefined;
            }
          }
        }
        let boardsStored = 0;
        let postingsRead = 0;
        let postingsRefused = 0;
        const heldExpiries: string[] = [];
        await service.importer
          .importBoards(boards(), {
            mergeIndex: false,
            onGroup: (summaries) => {
              if (single) progress?.update(summaries[0]?.read ?? 0);
            },
            onBoard: (input, summary) => {
              boardsStored += 1;
              postingsRead += summary.read;
              postingsRefused += summary.rejectedTotal;
              if (!single) progress?.update(++boardsDone);
              written += summary.inserted + summary.updated + (summary.expired ?? 0);
              if (summary.expiryHeld) heldExpiries.push(input.board);
              if (progress?.visible) held.push(() => report(input.board, summary, opts));
              else report(input.board, summary, opts);
            },
          })
          .catch((error: unknown) => {
            progress?.stop();
            for (const print of held) print();
            if (!isLockedOrUnavailable(error)) throw error;
            // A locked or unreachable database, waited out in vain: never a rejection of the postings.
            throw new CliError(
              `import stopped after ${boardsStored} of ${opts.board.length} boards stored: the database could not be written ` +
                `(${(error as Error).message}). Nothing stored was lost; run the same command again to resume ` +
                '(postings already stored are recognised and left unchanged).',
            );
          });
        progress?.stop();
        for (const print of held) print();
        // The new listings become searchable in one sorted merge (docs/jobs.md, "Bulk imports").
        let indexing: Progress | undefined;
        await service.mergeStagedIndex({
          onProgress: (p) => {
            indexing ??= createProgress('indexing', p.total, 'index rows', opts.quiet);
            indexing.update(p.rows);
          },
        });
        indexing?.stop();
        if (opts.optimize ?? written >= OPTIMIZE_AFTER_LISTINGS) {
          const started = Date.now();
          if (!opts.quiet && !opts.json) process.stderr.write('compacting the search index…\n');
          await service.optimizeSearchIndex();
          if (!opts.quiet && !opts.json)
            process.stderr.write(`search index compacted in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
        }
        if (failures) throw new CliError(`${failures} of ${opts.board.length} boards could not be read`);
        failIfAllRefused(postingsRead, postingsRefused, 'postings');
        if (heldExpiries.length) {
          throw new CliError(
            `expiry held for ${heldExpiries.join(', ')}: more than half of the board's live listings vanished at once, which is ` +
              'more often a broken fetch than an emptied board; the postings read were stored, nothing was expired. ' +
              'If the board really lost them, run again with --allow-mass-expiry.',
          );
        }
      });
    });
}
