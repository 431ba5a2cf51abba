import type { Command } from 'commander';
import { CliError, withServices } from './context.ts';
import { iso } from './arguments.ts';
import { MAX_COUNTED_TERMS } from '../jobs/counted-terms.ts';

const NOT_POSTGRES =
  'counted description terms are kept on PostgreSQL only: on the embedded SQLite store the full-text index counts a term quickly without them';

/** Why a term did not join, as the operator reads it. */
const REFUSALS = {
  full: `the set is full (${MAX_COUNTED_TERMS} terms): a counted term is never removed`,
  busy: 'an import held the lock past 2 s: try again when it ends (nothing was changed)',
  'not-countable': 'a counted term is one word or a phrase of up to three words, of letters and digits',
} as const;

/**
 * `leadbase jobs …`: upkeep of the jobs search that an operator may want by hand. The counted
 * description terms (docs/jobs.md) are made by costly searches on their own; listing them shows
 * what the store counts, and adding one spares its first searches the slow path.
 */
export function registerJobs(jobs: Command): void {
  jobs
    .command('counted-terms')
    .description('List the description terms counted per day, with the live listings holding each')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) =>
      withServices(async (services) => {
        const postgres = services.jobs.searcher.dialect === 'postgres';
        const terms = (await services.jobs.countedTerms()).map((t) => ({
          term: t.term,
          counted_since: iso(t.countedAt),
          listings: t.listings,
        }));
        if (opts.json)
          return console.log(JSON.stringify({ counted_terms: terms, max: MAX_COUNTED_TERMS, ...(postgres ? {} : { note: NOT_POSTGRES }) }));
        if (!postgres) return console.log(NOT_POSTGRES);
        console.log(`${terms.length} of at most ${MAX_COUNTED_TERMS} description terms counted`);
        if (terms.length) console.table(terms);
      }),
    );
  jobs
    .command('count-term')
    .description('Count a description term per day from now on (a word or a phrase of up to three words), as its first costly search would')
    .argument('<text...>', 'the word or phrase, as written in a job_description query')
    .option('--json', 'print JSON')
    .action(async (words: string[], opts: { json?: boolean }) =>
      withServices(async (services) => {
        if (services.jobs.searcher.dialect !== 'postgres') throw new CliError(NOT_POSTGRES);
        const started = Date.now();
        const { term, outcome } = await services.jobs.countTerm(words.join(' '));
        const seconds = (Date.now() - started) / 1000;
        if (opts.json) console.log(JSON.stringify({ term, outcome, seconds }));
        else if (outcome === 'added') console.log(`"${term}" is counted from now on (its listings counted in ${seconds.toFixed(1)} s)`);
        else if (outcome === 'counted') console.log(`"${term}" was counted already`);
        if (outcome === 'added' || outcome === 'counted') return;
        throw new CliError(`"${term ?? words.join(' ')}" was not counted: ${REFUSALS[outcome]}`);
      }),
    );
}
