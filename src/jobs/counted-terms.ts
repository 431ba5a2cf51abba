// PostgreSQL: description terms whose matches are counted per day (docs/jobs.md, "Counted
// description terms"). Counting a common term's matches in a search's window through GIN visits
// every match (about a microsecond each), so the cost of such a search grows with the store. For
// a term of this set, the matches of every live listing are also counted per (remote flag, day),
// and per attribute bits and countries, in job_facet_days and job_facet_attr_days under the
// facet `d:<term>`: a search counts the window's whole days from there and visits only the matches
// of its two partial days and of the page.
//
// The invariant: a listing is counted under `d:<term>` exactly when it is live (merged into the
// index) and its job_terms row holds the term. Writers keep it: a new listing's staged entry
// carries its counted terms as `d:` facets, which the merge counts (and never writes as facet
// rows); a rewritten or expired listing's counts are taken back from its job_terms row before
// that row goes. The set only grows, and a term joins it under an exclusive advisory lock that
// every writing transaction holds shared, so no write sees half of a term's arrival: it counts
// the live listings holding the term and marks the staged ones, whose merge will count them.
import { sql, type Kysely } from 'kysely';
import { heldTerms, termEveryBucket } from './search-terms.ts';
import { DAY_MS } from './day.ts';

/** The facet under which a counted term's day counts are kept. */
export const COUNTED_PREFIX = 'd:';

/** The facet of a counted term. */
export const countedFacet = (term: string) => `${COUNTED_PREFIX}${term}`;

/** The most terms counted: each costs every listing holding it a count more at its merge and expiry. */
export const MAX_COUNTED_TERMS = 1_000;

/** The advisory lock writers hold shared and a term's arrival exclusively (an arbitrary constant of ours). */
const LOCK_KEY = 7_318_250_019;

/** How long a term's arrival waits for the lock before it gives up (to be tried again later): writers queue behind it. */
const ARRIVAL_LOCK_TIMEOUT = '2s';

/** A term of job_terms' keys (search-terms.ts): lower-case words of letters and digits, one to three of them. */
const TERM = /^[\p{L}\p{N}]{1,100}( [\p{L}\p{N}]{1,100}){0,2}$/u;

/** Whether `term` can be counted: a word, pair or triple as job_terms keys them. */
export function isCountableTerm(term: string): boolean {
  return TERM.test(term) && term === term.toLowerCase();
}

/** Holds the lock shared until the transaction ends: no term joins the set meanwhile. */
export async function holdCountedTermsShared(trx: Kysely<any>): Promise<void> {
  await sql`select pg_advisory_xact_lock_shared(${LOCK_KEY})`.execute(trx);
}

/** A set of counted terms, with the first word and first two words of each (heldTerms). */
export interface CountedSet {
  terms: ReadonlySet<string>;
  prefixes: ReadonlySet<string>;
}

const NOTHING: CountedSet = { terms: new Set(), prefixes: new Set() };

function countedSet(terms: string[]): CountedSet {
  const prefixes = new Set<string>();
  for (const term of terms) {
    const words = term.split(' ');
    for (let n = 1; n < words.length; n++) prefixes.add(words.slice(0, n).join(' '));
  }
  return { terms: new Set(terms), prefixes };
}

/** The counted set as one process last read it: it only grows, so its size is its version. */
export class CountedTerms {
  private set = NOTHING;

  /** What a dialect without counted terms (SQLite) writes with: nothing. */
  static readonly none = NOTHING;

  /**
   * In a writing transaction: holds the lock shared until the transaction ends (a term cannot
   * join meanwhile) and returns the set, read again when it grew.
   */
  async forWrite(trx: Kysely<any>): Promise<CountedSet> {
    await holdCountedTermsShared(trx);
    const { rows } = await sql<{ n: string | number }>`select count(*) as n from job_counted_terms`.execute(trx);
    if (Number(rows[0].n) !== this.set.terms.size) {
      const all = await sql<{ term: string }>`select term from job_counted_terms`.execute(trx);
      this.set = countedSet(all.rows.map((r) => r.term));
    }
    return this.set;
  }
}

/** The counted terms a description holds (none when nothing is counted: the cut is then skipped). */
export function countedTermsOf(description: string, counted: CountedSet): string[] {
  return counted.terms.size ? heldTerms(description, counted.terms, counted.prefixes) : [];
}

/**
 * The counted terms held by listings' job_terms rows, by listing: what their counts hold, to be
 * taken back before the rows are rewritten or deleted.
 */
export async function countedTermsStored(trx: Kysely<any>, jobIds: number[], counted: CountedSet): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (!counted.terms.size || !jobIds.length) return out;
  const { rows } = await sql<{ job_id: string | number; term: string }>`
    select t.job_id, split_part(u.lexeme, '~', 1) as term
    from job_terms t cross join lateral unnest(t.terms) u
    where t.job_id = any(${jobIds}::bigint[]) and split_part(u.lexeme, '~', 1) = any(${[...counted.terms]}::text[])`.execute(trx);
  for (const row of rows) {
    const id = Number(row.job_id);
    const terms = out.get(id) ?? [];
    terms.push(row.term);
    out.set(id, terms);
  }
  return out;
}

/**
 * What became of a term asked to be counted: `added` (it is counted from now on), `counted`
 * (it was already), `full` (MAX_COUNTED_TERMS reached), `busy` (writers held the lock past
 * ARRIVAL_LOCK_TIMEOUT: try again later) or `not-countable` (not a word, pair or triple).
 */
export type CountTermOutcome = 'added' | 'counted' | 'full' | 'busy' | 'not-countable';

/**
 * Makes `term` counted: under the exclusive lock, counts the live listings holding it per day (and
 * per attributes), marks the staged ones (their merge counts them) and adds it to the set.
 */
export async function countTerm(db: Kysely<any>, term: string, now = Date.now()): Promise<CountTermOutcome> {
  if (!isCountableTerm(term)) return 'not-countable';
  // Asked first without the lock: a counted term's search can still be slow (a window within a day).
  if ((await sql`select 1 from job_counted_terms where term = ${term}`.execute(db)).rows.length) return 'counted';
  return db.transaction().execute(async (trx) => {
    await sql.raw(`set local lock_timeout = '${ARRIVAL_LOCK_TIMEOUT}'`).execute(trx);
    try {
      await sql`select pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
    } catch (error) {
      if ((error as { code?: string }).code === '55P03') return 'busy'; // lock_not_available
      throw error;
    }
    const { rows } = await sql<{ n: string | number; has: boolean }>`
      select count(*) as n, bool_or(term = ${term}) as has from job_counted_terms`.execute(trx);
    if (rows[0].has) return 'counted';
    if (Number(rows[0].n) >= MAX_COUNTED_TERMS) return 'full';
    const facet = countedFacet(term);
    // One GIN scan for every bucket's key. The planner, seeing a common term, would rather read
    // every row and test its out-of-line terms (13 s at a million listings, against 0.2 s from GIN,
    // and with writers held off meanwhile); 200 ORed conditions it tests row by row, 200 times.
    await sql`set local enable_seqscan = off`.execute(trx);
    const anyBucket = sql`t.terms @@ ${termEveryBucket(term).join(' | ')}::tsquery`;
    const holding = sql`select job_id, has_remote, published_at, attrs, countries from job_terms t where ${anyBucket}`;
    await sql`
      with holding as (${holding}),
      staged as (
        update job_facets_staged s set facets = (s.facets::jsonb || jsonb_build_array(${facet}::text))::text
        from holding h where s.job_id = h.job_id returning s.job_id),
      live as (select h.* from holding h where not exists (select 1 from job_facets_staged s where s.job_id = h.job_id)),
      days as (
        insert into job_facet_days (facet, has_remote, day, n)
        select ${facet}, has_remote, published_at / ${DAY_MS}, count(*) from live group by 2, 3
        on conflict (facet, has_remote, day) do update set n = job_facet_days.n + excluded.n)
      insert into job_facet_attr_days (facet, has_remote, day, attrs, countries, n)
      select ${facet}, has_remote, published_at / ${DAY_MS}, attrs, countries, count(*) from live group by 2, 3, 4, 5 order by 2, 3, 4, 5
      on conflict (facet, has_remote, day, attrs, countries) do update set n = job_facet_attr_days.n + excluded.n`.execute(trx);
    await sql`insert into job_counted_terms (term, counted_at) values (${term}, ${now})`.execute(trx);
    return 'added';
  });
}

/** A counted term as an operator sees it: since when, and how many live listings hold it now. */
export interface CountedTermInfo {
  term: string;
  countedAt: number;
  listings: number;
}

/** Every counted term with its live listings (the sum of its day counts), in term order. */
export async function listCountedTerms(db: Kysely<any>): Promise<CountedTermInfo[]> {
  const { rows } = await sql<{ term: string; counted_at: string | number; listings: string | number }>`
    select c.term, c.counted_at,
      coalesce((select sum(d.n) from job_facet_days d where d.facet = ${COUNTED_PREFIX} || c.term), 0) as listings
    from job_counted_terms c order by c.term`.execute(db);
  return rows.map((r) => ({ term: r.term, countedAt: Number(r.counted_at), listings: Number(r.listings) }));
}
