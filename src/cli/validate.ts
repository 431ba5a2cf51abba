// `leadbase validate FILE.csv --out results.csv`: a list validated from the command line, with a
// progress bar and an ETA. Every input column is kept and the result's fields are added; each row
// is written as soon as it is answered (in the order answers come, with its row number), so an
// interrupted run resumes where it was: rows already in the output are not validated again. An
// operator's tool: it charges no key.
import { createReadStream, createWriteStream, existsSync, statSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Command } from 'commander';
import { parse } from 'csv-parse';
import pLimit from 'p-limit';
import type { EmailValidation } from '../contract/email.ts';
import { CliError, withServices } from './context.ts';
import { createProgress } from './progress.ts';
import { positiveInt } from './arguments.ts';
import { CSV_READ_OPTIONS, emailColumnOf, headerKey } from '../email/list-csv.ts';
import { csvLine } from '../csv/write.ts';

/** The result fields added to each row, after the input's own columns. */
const RESULT_COLUMNS = [
  'email_status',
  'message',
  'is_domain_catch_all',
  'mx_record',
  'mx_provider',
  'mx_security_gateway',
  'is_disposable',
  'is_role_account',
  'is_free_email',
  'did_you_mean',
  'company_name',
  'company_industry',
] as const satisfies readonly (keyof EmailValidation)[];

function readCsv(path: string): AsyncIterable<string[]> {
  return createReadStream(path).pipe(parse(CSV_READ_OPTIONS)) as AsyncIterable<string[]>;
}

/** Data rows of the input (the header excluded). */
async function countRows(path: string): Promise<number> {
  let rows = -1;
  for await (const _ of readCsv(path)) rows += 1;
  return Math.max(0, rows);
}

/** Row numbers already answered in an earlier run's output (its "row" column). */
async function answeredRows(path: string): Promise<Set<number>> {
  const done = new Set<number>();
  let rowColumn = -1;
  for await (const fields of readCsv(path)) {
    if (rowColumn < 0) {
      rowColumn = fields.findIndex((f) => headerKey(f) === 'row');
      if (rowColumn < 0) throw new CliError(`${path} is not an output of leadbase validate (no "row" column): give another --out`);
      continue;
    }
    const row = Number(fields[rowColumn]);
    if (Number.isInteger(row) && row > 0) done.add(row);
  }
  return done;
}

async function write(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

interface ValidateOptions {
  out?: string;
  concurrency?: string;
  quiet?: boolean;
  json?: boolean;
}

export function registerValidate(validate: Command): void {
  validate
    .argument('<file>', 'the CSV list')
    .requiredOption('--out <file>', 'the results CSV (the input columns, then "row" and the result fields)')
    .option('--concurrency <n>', 'validations at once (default 20)')
    .option('-q, --quiet', 'no progress bar')
    .option('--json', 'print the summary as JSON')
    .action(async (file: string, opts: ValidateOptions) => {
      try {
        if (!statSync(file).isFile()) throw new Error();
      } catch {
        throw new CliError(`${file}: no such file`);
      }
      const concurrency = Math.max(1, positiveInt(opts.concurrency, '--concurrency', 20, 500));
      const outPath = opts.out!;
      const resuming = existsSync(outPath) && statSync(outPath).size > 0;
      const done = resuming ? await answeredRows(outPath) : new Set<number>();
      const total = await countRows(file);

      await withServices(async ({ email }) => {
        const out = createWriteStream(outPath, { flags: resuming ? 'a' : 'w' });
        const progress = createProgress('validate', total, 'rows', opts.quiet);
        const limit = pLimit(concurrency);
        const counts: Record<string, number> = {};
        const answers = new Map<string, Promise<EmailValidation>>();
        let header: string[] | null = null;
        let emailColumn = -1;
        let row = 0;
        let answered = done.size;
        let written = Promise.resolve();
        const pending = new Set<Promise<void>>();
        progress.update(answered, resuming ? `resumed after ${done.size} rows` : '');
        try {
          for await (const fields of readCsv(file)) {
            if (!header) {
              header = fields;
              emailColumn = emailColumnOf(fields);
              if (emailColumn < 0) throw new CliError(`${file}: no "email" column in the header (${fields.join(', ')})`);
              if (!resuming) await write(out, csvLine([...header, 'row', ...RESULT_COLUMNS]));
              continue;
            }
            row += 1;
            if (done.has(row)) continue;
            const thisRow = row;
            const address = (fields[emailColumn] ?? '').trim();
            // The same address twice (in any case) is validated once: while it is asked the rows
            // share the answer, later ones get it from the engine's result cache.
            const key = address.toLowerCase();
            let answer = answers.get(key);
            if (!answer) {
              answer = limit(() => email.validate({ email: address }));
              answers.set(key, answer);
              void answer.finally(() => answers.delete(key)).catch(() => {});
            }
            // Bounded read-ahead: a list of a million rows is not read into memory ahead of its answers.
            while (pending.size > concurrency * 4) await Promise.race(pending);
            const task = answer.then((result) => {
              counts[result.email_status] = (counts[result.email_status] ?? 0) + 1;
              const padded = header!.map((_, i) => fields[i] ?? '');
              written = written.then(() => write(out, csvLine([...padded, thisRow, ...RESULT_COLUMNS.map((c) => result[c])])));
              answered += 1;
              progress.update(answered, `${counts.valid ?? 0} valid, ${counts.invalid ?? 0} invalid`);
              return written;
            });
            pending.add(task);
            void task.finally(() => pending.delete(task)).catch(() => {});
          }
          if (!header) throw new CliError(`${file}: empty file (no header row)`);
          await Promise.all([...pending]);
          await written;
        } finally {
          progress.stop();
          out.end();
          await once(out, 'close');
        }
        const summary = { rows: total, validated: answered - done.size, resumed_after: done.size, statuses: counts, out: outPath };
        if (opts.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
        else
          process.stdout.write(
            `validate: ${summary.validated} rows answered${done.size ? ` (${done.size} were already in ${outPath})` : ''}: ${Object.entries(
              counts,
            )
              .map(([s, n]) => `${s} ${n}`)
              .join(', ')}\nresults: ${outPath}\n`,
          );
      });
    });
}
