// Running a planned jobs-finder query (docs/jobs.md, "Search design"): the statements, per dialect,
// that size the plan's facet ranges, choose the driver and read the total and a page of listing
// ids, newest first. A description is matched with FTS5 on SQLite and job_terms on PostgreSQL,
// where a slow term is made counted per day in the background (counted-terms.ts).
import { sql, type RawBuilder } from 'kysely';
import type { Logger } from 'pino';
import { dialectOf, type Db, type DialectName } from '../db/database.ts';
import { attributeBit, hasAttrDayCounts, hasDayCounts, isCountryFacet, titlePairCover, wordPairs } from './index-keys.ts';
import { ftsKey, ftsKeyInWindow, type ParsedTextQuery } from './fts-query.ts';
import { bucketsInTimeOrder, singleTerm, spanQueries } from './search-terms.ts';
import { countedFacet, countTerm } from './counted-terms.ts';
import { TextWindowSearch } from './text-window.ts';
import { DAY_MS } from './day.ts';
import type { SearchPlan } from './search-plan.ts';

/** A facet range this small drives a description search, each listing checked against the full-text matches. */
const FTS_PROBE_LIMIT = 2_000;
/** Narrow facet ranges are counted up to this many rows when only the driver choice depends on it. */
const DRIVER_COUNT_CAP = 30_000;
/**
 * PostgreSQL work_mem of a description search: an exact bitmap takes about 64 bytes per heap page
 * holding a match, and a common term has matches on nearly every page of job_terms (about 90 bytes
 * a row: 11,000 pages at a million listings, 110,000 at ten million, over the 4 MB default).
 */
const SEARCH_WORK_MEM = '32MB';

export interface JobSearchOptions {
  /**
   * PostgreSQL: a search of one description term whose statements took at least this long (ms;
   * default 20) makes the term counted per day (counted-terms.ts), so later searches of it read its
   * window's day counts instead of every match. Infinity: never.
   */
  countTermsAfterMs?: number;
  /** PostgreSQL: false to neither make nor use counted terms (to measure what they save; default true). */
  countedTerms?: boolean;
  /**
   * A facet range of at most this many listings drives a description search (default 2,000);
   * larger ones leave it to the full-text matches. Tests set 0 to have the matches drive on a
   * small store.
   */
  facetDrivesUpTo?: number;
  /** Where a term that failed to become counted is reported (the search itself stays exact on the slow path). */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * How many rows of a driving range cost as much as one probe of another facet's range: a probe is a
 * descent of the index (four pages at a million listings), a type, region, level or country is
 * checked in the row already read.
 */
const PROBE_ROWS = 8;

/** Facets the driver's rows carry (attribute bits, countries): checked without a probe. */
function checkedInRow(facet: string): boolean {
  return facet === 'all' || attributeBit(facet) !== null || isCountryFacet(facet);
}

/**
 * The facet whose range drives a query of several: the one whose rows, with the probes the other
 * facets then need, cost least. A title word of 19,000 listings whose rows carry the country beats
 * a country of 10,000 that must probe the word for each of them.
 */
function cheapestDriver(facets: string[], counts: Map<string, number>): string {
  const cost = (driver: string) =>
    (counts.get(driver) ?? Infinity) * (1 + PROBE_ROWS * facets.filter((f) => f !== driver && !checkedInRow(f)).length);
  return facets.reduce((best, facet) => (cost(facet) < cost(best) ? facet : best));
}

/** The days (since the epoch) lying wholly between two times: `first` > `last` when none does. */
function wholeDays(lo: number, hi: number): { first: number; last: number } {
  return { first: Math.ceil(lo / DAY_MS), last: Math.floor((hi + 1) / DAY_MS) - 1 };
}

/** Runs plans on one database; one per JobSearch, holding the terms this process is making counted. */
export class SearchRunner {
  readonly dialect: DialectName;

  private readonly textWindow: TextWindowSearch;
  private readonly countTermsAfterMs: number;
  private readonly facetDrivesUpTo: number;
  private readonly logger?: Pick<Logger, 'warn'>;
  private readonly useCounted: boolean;
  /** Terms being made counted, by this process (counted-terms.ts). */
  private readonly counting = new Map<string, Promise<unknown>>();
  /** The last arrival this process asked for (countLater): the next waits for it. */
  private arrivals: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    options: JobSearchOptions = {},
  ) {
    this.dialect = dialectOf(db);
    this.textWindow = new TextWindowSearch(db);
    this.countTermsAfterMs = options.countedTerms === false ? Infinity : (options.countTermsAfterMs ?? 20);
    this.useCounted = options.countedTerms !== false;
    this.facetDrivesUpTo = options.facetDrivesUpTo ?? FTS_PROBE_LIMIT;
    this.logger = options.logger;
  }

  /** Resolves once the terms this process is making counted are (for tests and shutdown). */
  async settled(): Promise<void> {
    while (this.counting.size) await Promise.allSettled([...this.counting.values()]);
  }

  /**
   * Makes `term` counted in the background, once per process at a time; a failure is tried again by
   * a later search. This process's arrivals run one after another: at ten million listings one
   * takes seconds under the exclusive lock, and arrivals asked together gave up against each other
   * (each waits at most 2 s for the lock: four of eight in one benchmark's warm-up).
   */
  private countLater(term: string): void {
    if (this.counting.has(term)) return;
    const counting = this.arrivals
      .then(() => countTerm(this.db, term))
      .catch((error: unknown) =>
        this.logger?.warn(
          { term, err: { message: (error as Error).message } },
          'jobs search: a description term could not be made counted; a later search tries again',
        ),
      )
      .finally(() => this.counting.delete(term));
    this.arrivals = counting;
    this.counting.set(term, counting);
  }

  /** Exact count of one facet's range, from per-day sums and the two partial days at the ends. */
  private async countFacetRange(facet: string, remote: number, lo: number, hi: number): Promise<number> {
    const days = wholeDays(lo, hi);
    if (days.last - days.first < 2 || !hasDayCounts(facet)) return this.countRows(facet, remote, lo, hi);
    const full = await sql<{ n: number | string }>`select ${this.dayCounts(facet, remote, days, [], new Map())} as n`.execute(this.db);
    const head = await this.countRows(facet, remote, lo, days.first * DAY_MS - 1);
    const tail = await this.countRows(facet, remote, (days.last + 1) * DAY_MS, hi);
    return Number(full.rows[0].n) + head + tail;
  }

  /**
   * The sum of `facet`'s day counts over whole days (SQL, a scalar): of every listing
   * (job_facet_days), or with `others` (type, region, level, country: checked in the row) of those
   * passing them, from the counts per attributes and countries (job_facet_attr_days, PostgreSQL).
   */
  private dayCounts(
    facet: string,
    remote: number,
    days: { first: number; last: number },
    others: string[],
    counts: Map<string, number>,
  ): RawBuilder<unknown> {
    const where = sql`d.facet = ${facet} and d.has_remote = ${remote} and d.day between ${days.first} and ${days.last}`;
    return others.length
      ? sql`(select coalesce(sum(d.n), 0) from job_facet_attr_days d where ${where} and ${sql.join(this.facetConditions(others, 'd', counts), sql` and `)})`
      : sql`(select coalesce(sum(d.n), 0) from job_facet_days d where ${where})`;
  }

  /**
   * PostgreSQL: the exact count of `driver`'s range whose rows pass the type, region, level and
   * country checks of `others`, from the per-day counts per attributes and countries of its whole
   * days (job_facet_attr_days) plus the two partial days at the window's ends, counted row by row.
   */
  private async countByAttrDays(driver: string, others: string[], plan: SearchPlan, counts: Map<string, number>): Promise<number> {
    const days = wholeDays(plan.lo, plan.hi);
    const rows = (lo: number, hi: number) =>
      sql`(select count(*) from job_facets f where f.facet = ${driver} and f.has_remote = ${plan.remote} and f.published_at between ${lo} and ${hi} and ${sql.join(this.facetConditions(others, 'f', counts), sql` and `)})`;
    if (days.last - days.first < 2)
      return Number((await sql<{ n: string }>`select ${rows(plan.lo, plan.hi)} as n`.execute(this.db)).rows[0].n);
    const head = rows(plan.lo, days.first * DAY_MS - 1);
    const tail = rows((days.last + 1) * DAY_MS, plan.hi);
    const result = await sql<{
      n: number | string;
    }>`select ${this.dayCounts(driver, plan.remote, days, others, counts)} + ${head} + ${tail} as n`.execute(this.db);
    return Number(result.rows[0].n);
  }

  private async countRowsCapped(facet: string, remote: number, lo: number, hi: number, cap: number): Promise<number> {
    const result = await sql<{
      n: number | string;
    }>`select count(*) as n from (select 1 from job_facets where facet = ${facet} and has_remote = ${remote} and published_at between ${lo} and ${hi} limit ${cap}) capped`.execute(
      this.db,
    );
    return Number(result.rows[0].n);
  }

  private async countRows(facet: string, remote: number, lo: number, hi: number): Promise<number> {
    if (lo > hi) return 0;
    const result = await sql<{
      n: number | string;
    }>`select count(*) as n from job_facets where facet = ${facet} and has_remote = ${remote} and published_at between ${lo} and ${hi}`.execute(
      this.db,
    );
    return Number(result.rows[0].n);
  }

  /**
   * Whether the listing of a row is in `facet`'s range. With the window (PostgreSQL), the probed
   * range is bounded as the driver's is, so the planner can also merge the two ranges, both in key
   * order, instead of descending the index once per row: 2,562 probes of "senior engineer" from
   * "senior backend" read 10,000 index pages, the merge 264.
   */
  private facetProbe(
    facet: string,
    remote: RawBuilder<unknown>,
    published: RawBuilder<unknown>,
    jobId: RawBuilder<unknown>,
    window?: { lo: number; hi: number },
  ): RawBuilder<unknown> {
    const bounded = window && this.dialect === 'postgres' ? sql` and o.published_at between ${window.lo} and ${window.hi}` : sql``;
    return sql`exists (select 1 from job_facets o where o.facet = ${facet} and o.has_remote = ${remote} and o.published_at = ${published} and o.job_id = ${jobId}${bounded})`;
  }

  /**
   * The facets other than the driver as conditions on a row that carries `attrs` and `countries`
   * (an index row or a job_live row): types, regions, level and countries are checked in that row;
   * the others (title words and pairs, cities, companies) are probes, the rarest first.
   */
  private facetConditions(
    facets: string[],
    row: string,
    counts: Map<string, number>,
    window?: { lo: number; hi: number },
  ): RawBuilder<unknown>[] {
    const r = (column: string) => sql.ref(`${row}.${column}`);
    let mask = 0;
    const out: RawBuilder<unknown>[] = [];
    const probes: string[] = [];
    for (const facet of facets) {
      const bit = attributeBit(facet);
      if (bit !== null)
        mask += bit; // facets are distinct, so are their bits
      else if (isCountryFacet(facet))
        out.push(
          this.dialect === 'sqlite'
            ? sql`instr(${r('countries')}, ${facet.slice(2)}) > 0`
            : sql`strpos(${r('countries')}, ${facet.slice(2)}) > 0`,
        );
      else probes.push(facet);
    }
    if (mask) out.unshift(sql`(${r('attrs')} & ${mask}) = ${mask}`);
    probes.sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0));
    for (const facet of probes) out.push(this.facetProbe(facet, r('has_remote'), r('published_at'), r('job_id'), window));
    return out;
  }

  /** Conditions on `j` (jobs) and the company store beyond the facets; `row` is the index row (f). */
  private residuals(plan: SearchPlan, row: string | null): RawBuilder<unknown>[] {
    const out: RawBuilder<unknown>[] = [];
    for (const word of plan.locationWords) out.push(sql`lower(j.location) like ${`%${word}%`}`);
    if (plan.company.length)
      out.push(sql`exists (select 1 from companies c where c.id = j.company_id and ${sql.join(plan.company, sql` and `)})`);
    if (row && plan.description) {
      const r = (column: string) => sql.ref(`${row}.${column}`);
      // The matches of the window, built once, against each index row's full-text key.
      out.push(
        this.dialect === 'sqlite'
          ? sql`${ftsKey(r('has_remote'), r('published_at'), r('job_id'))} in (select rowid from jobs_fts where jobs_fts match ${plan.description} and ${ftsKeyInWindow(sql`rowid`, plan.remote, plan.lo, plan.hi)})`
          : sql`${r('job_id')} in (select job_id from job_terms where ${this.termsMatch(plan, sql.ref('terms'))})`,
      );
    }
    // A phrase of four words or more, confirmed on the listings that hold all its triples: their
    // text is cut here (the stored positional tsvector that once served this was half the jobs row).
    if (plan.recheck) out.push(sql`to_tsvector('simple', left(j.description, 100000)) @@ websearch_to_tsquery('simple', ${plan.recheck})`);
    return out;
  }

  /**
   * PostgreSQL: the tsqueries of `terms`, one per bucket (search-terms.ts) of a remote flag and
   * window, the window first narrowed to the listings it holds (the first and last in the `all`
   * facet's range: an open end would otherwise span every week); none when it holds none.
   */
  private async weekQueries(
    terms: ParsedTextQuery,
    remote: number,
    lo: number,
    hi: number,
  ): Promise<{ queries: string[]; inOrder: boolean }> {
    const held = await this.heldSpan(this.db, remote, lo, hi);
    if (!held) return { queries: [], inOrder: false };
    return { queries: spanQueries(terms, remote, held.lo, held.hi), inOrder: bucketsInTimeOrder(held.lo, held.hi) };
  }

  /** The first and last publication time of the live listings of a remote flag between two times (the `all` facet's range), or null when it holds none. */
  private async heldSpan(db: Db, remote: number, lo: number, hi: number): Promise<{ lo: number; hi: number } | null> {
    const held = await sql<{
      lo: number | string | null;
      hi: number | string | null;
    }>`select min(published_at) as lo, max(published_at) as hi from job_facets where facet = 'all' and has_remote = ${remote} and published_at between ${lo} and ${hi}`.execute(
      db,
    );
    const { lo: first, hi: last } = held.rows[0];
    return first === null || last === null ? null : { lo: Number(first), hi: Number(last) };
  }

  /** PostgreSQL: `terms` (a job_terms column) matches one of `queries` (by default the run's week queries). */
  private termsMatch(plan: SearchPlan, terms: RawBuilder<unknown>, queries = plan.weekQueries): RawBuilder<unknown> {
    return sql`(${sql.join(
      queries.map((q) => sql`${terms} @@ ${q}::tsquery`),
      sql` or `,
    )})`;
  }

  /** The plan's total and the listing ids of the page at `offset`, newest first. */
  async run(plan: SearchPlan, offset: number, limit: number): Promise<{ total: number; ids: number[] }> {
    if (plan.terms) {
      const weeks = await this.weekQueries(plan.terms, plan.remote, plan.lo, plan.hi);
      if (!weeks.queries.length) return { total: 0, ids: [] };
      plan = { ...plan, weekQueries: weeks.queries, weeksInOrder: weeks.inOrder };
    }
    // Sizes of the facet ranges: exact for the broad facets (per-day sums), capped for the narrow
    // ones when there are several (only the smallest matters, to choose the driver).
    const counts = new Map<string, number>();
    const exact = new Set<string>();
    if (plan.titleWords.length) plan = { ...plan, facets: await this.titleCover(plan, counts, exact) };
    if (plan.facets.length > 1 || plan.facets[0] !== 'all' || (!plan.description && !plan.locationWords.length && !plan.company.length)) {
      for (const facet of plan.facets) {
        if (counts.has(facet)) continue;
        if (plan.facets.length > 1 && !hasDayCounts(facet)) {
          counts.set(facet, await this.countRowsCapped(facet, plan.remote, plan.lo, plan.hi, DRIVER_COUNT_CAP));
        } else {
          counts.set(facet, await this.countFacetRange(facet, plan.remote, plan.lo, plan.hi));
          exact.add(facet);
        }
      }
    }
    const driver = plan.facets.length === 1 ? plan.facets[0] : cheapestDriver(plan.facets, counts);
    const driverCount = exact.has(driver) || (counts.get(driver) ?? Infinity) < DRIVER_COUNT_CAP ? counts.get(driver) : undefined;
    if (counts.get(driver) === 0) return { total: 0, ids: [] };
    if (driverCount === 0) return { total: 0, ids: [] };

    if (plan.description) {
      // A small facet range is checked against the set of full-text matches (built once); otherwise
      // the full-text matches drive, filtered and ordered in one statement that also counts them.
      const smallest = [...counts].filter(([f]) => f !== 'all').sort((a, b) => a[1] - b[1])[0];
      if (!smallest || smallest[1] > this.facetDrivesUpTo) return this.runFromText(plan, offset, limit, counts);
    }

    const others = plan.facets.filter((f) => f !== driver && f !== 'all');
    const conditions = [...this.facetConditions(others, 'f', counts, plan), ...this.residuals(plan, 'f')];
    const needsJobs = plan.locationWords.length > 0 || plan.company.length > 0 || plan.recheck !== null;
    const from = needsJobs
      ? this.dialect === 'sqlite'
        ? sql`job_facets f cross join jobs j on j.id = f.job_id`
        : sql`job_facets f join jobs j on j.id = f.job_id`
      : sql`job_facets f`;
    const where = sql`f.facet = ${driver} and f.has_remote = ${plan.remote} and f.published_at between ${plan.lo} and ${plan.hi}${conditions.length ? sql` and ${sql.join(conditions, sql` and `)}` : sql``}`;
    const onlyInRow =
      this.dialect === 'postgres' &&
      hasAttrDayCounts(driver) &&
      others.length > 0 &&
      others.every(checkedInRow) &&
      !plan.locationWords.length &&
      !plan.company.length &&
      !plan.description;
    const total =
      !conditions.length && driverCount !== undefined
        ? driverCount
        : onlyInRow
          ? await this.countByAttrDays(driver, others, plan, counts)
          : Number((await sql<{ n: number | string }>`select count(*) as n from ${from} where ${where}`.execute(this.db)).rows[0].n);
    if (offset >= total) return { total, ids: [] };
    const page = await sql<{
      job_id: number;
    }>`select f.job_id from ${from} where ${where} order by f.published_at desc, f.job_id desc limit ${limit} offset ${offset}`.execute(
      this.db,
    );
    return { total, ids: page.rows.map((r) => Number(r.job_id)) };
  }

  /**
   * The plan's facets with its title's narrowest covering pairs (titlePairCover) in place of the
   * fixed ones: every pair of the title's words counted exactly (per-day sums) into `counts`.
   */
  private async titleCover(plan: SearchPlan, counts: Map<string, number>, exact: Set<string>): Promise<string[]> {
    for (const { facet } of wordPairs(plan.titleWords)) {
      counts.set(facet, await this.countFacetRange(facet, plan.remote, plan.lo, plan.hi));
      exact.add(facet);
    }
    const cover = titlePairCover(plan.titleWords, (facet) => counts.get(facet)!);
    return [...new Set([...plan.facets.filter((f) => !plan.titlePairs.includes(f)), ...cover])];
  }

  /** The full-text matches drive; every other filter is checked on them. */
  private async runFromText(
    plan: SearchPlan,
    offset: number,
    limit: number,
    counts: Map<string, number>,
  ): Promise<{ total: number; ids: number[] }> {
    const facets = plan.facets.filter((f) => f !== 'all');
    const sqlite = this.dialect === 'sqlite';
    const needsJobs = plan.locationWords.length > 0 || plan.company.length > 0 || plan.recheck !== null;
    if (sqlite) {
      const conditions = [...this.facetConditions(facets, 'l', counts), ...this.residuals(plan, null)];
      const q = { match: plan.description!, remote: plan.remote, lo: plan.lo, hi: plan.hi, conditions, withJobs: needsJobs };
      const total = await this.textWindow.count(q);
      return { total, ids: offset < total ? await this.textWindow.page(q, offset, limit) : [] };
    }
    // PostgreSQL: the GIN index of job_terms gives the matches without reading any text; each
    // match's narrow job_terms row carries what the filters and the order need (migration 0026),
    // so statements over it alone filter, order and count them. A listing waiting in the stage has
    // terms but must not be found before its merge, as on SQLite: with an empty stage (the usual
    // case, checked once in the search's snapshot) every row is live, otherwise job_live says so.
    // A stretch (a counted term's partial days and page) is asked of GIN and job_terms' time index
    // together; that index is on `published_at + 0` (migration 0035) so that statements over the
    // whole window never use it: the planner, finding a common term's keys costly, read the
    // window's rows from a plain time index and tested each one's out-of-line terms (6.6 s at a
    // million listings, against 29 ms), or ANDed the window's half a million rows into its bitmap.
    const conditions = (queries: string[], stretch?: { lo: number; hi: number }) => [
      this.termsMatch(plan, sql.ref('t.terms'), queries),
      sql`t.has_remote = ${plan.remote}`,
      stretch ? sql`t.published_at + 0 between ${stretch.lo} and ${stretch.hi}` : sql`t.published_at between ${plan.lo} and ${plan.hi}`,
      ...this.facetConditions(facets, 't', counts),
      ...this.residuals(plan, null),
      sql`(not exists (select 1 from job_facets_staged) or exists (select 1 from job_live l where l.job_id = t.job_id))`,
    ];
    const from = needsJobs ? sql`job_terms t join jobs j on j.id = t.job_id` : sql`job_terms t`;
    const where = (queries: string[], stretch?: { lo: number; hi: number }) => sql.join(conditions(queries, stretch), sql` and `);
    const count = async (db: Db, queries: string[], stretch?: { lo: number; hi: number }) =>
      Number((await sql<{ n: number | string }>`select count(*) as n from ${from} where ${where(queries, stretch)}`.execute(db)).rows[0].n);
    // A page, newest first, looked for in the newest weeks (one, then four, then sixteen...) until
    // they hold it: a listing of an older week is older than every listing of a newer one. Each
    // statement also counts the matches of the weeks it read.
    const newestPage = async (db: Db) => {
      const all = plan.weekQueries.length;
      for (let weeks = 1; ; weeks = Math.min(all, weeks * 4)) {
        const newest = plan.weekQueries.slice(all - weeks);
        const rows = await sql<{
          id: number | string;
          n: number | string;
        }>`select t.job_id as id, count(*) over () as n from ${from} where ${where(newest)} order by t.published_at desc, t.job_id desc limit ${limit} offset ${offset}`.execute(
          db,
        );
        if (rows.rows.length < limit && weeks < all) continue;
        const inNewest = rows.rows.length ? Number(rows.rows[0].n) : offset ? await count(db, newest) : 0;
        return { ids: rows.rows.map((r) => Number(r.id)), weeks, inNewest };
      }
    };
    // The page among the matches published in [lo, hi] (each of the range's weeks asked for): short
    // when the range holds fewer than the page reaches.
    const pageBetween = async (db: Db, lo: number, hi: number) => {
      const queries = spanQueries(plan.terms!, plan.remote, lo, hi);
      const rows = await sql<{
        id: number | string;
      }>`select t.job_id as id from ${from} where ${where(queries, { lo, hi })} order by t.published_at desc, t.job_id desc limit ${limit} offset ${offset}`.execute(
        db,
      );
      return rows.rows.map((r) => Number(r.id));
    };
    // One term with no filter beside those its counts keep (remote flag, type, region, level,
    // country) may be counted per day (counted-terms.ts).
    const term = this.useCounted && plan.terms && !needsJobs && facets.every(checkedInRow) ? singleTerm(plan.terms) : null;
    return this.withSearchSettings(async (db) => {
      if (term) {
        const counted = await this.runCounted(db, plan, term, facets, counts, { offset, limit, count, pageBetween });
        if (counted) return counted;
      }
      const started = performance.now();
      const all = plan.weekQueries.length;
      let result: { total: number; ids: number[] };
      // Only where every match is a result is the page looked for in the newest weeks: the
      // statement that finds it counts those weeks' matches, and the older weeks are counted apart,
      // so a first page reads every match once and orders one week's. With filters beside the text,
      // most matches are read and dropped, one statement's window aggregate holds the few that
      // pass, and two statements measured slower.
      if (plan.weeksInOrder && !facets.length && !needsJobs) {
        const page = await newestPage(db);
        const older = page.weeks < all ? await count(db, plan.weekQueries.slice(0, all - page.weeks)) : 0;
        result = { total: page.inNewest + older, ids: page.ids };
      } else {
        const rows = await sql<{
          id: number | string;
          n: number | string;
        }>`select t.job_id as id, count(*) over () as n from ${from} where ${where(plan.weekQueries)} order by t.published_at desc, t.job_id desc limit ${limit} offset ${offset}`.execute(
          db,
        );
        const total = rows.rows.length ? Number(rows.rows[0].n) : offset ? await count(db, plan.weekQueries) : 0;
        result = { total, ids: rows.rows.map((r) => Number(r.id)) };
      }
      if (term && performance.now() - started >= this.countTermsAfterMs) this.countLater(term);
      return result;
    });
  }

  /**
   * PostgreSQL: a search of one counted term (counted-terms.ts), or null when the term is not
   * counted or the window holds no whole day. The days wholly inside the window are counted from
   * the term's day counts (per attributes when type, region, level or country filter), the two
   * partial days at its ends from their matches: the window is first narrowed, in this snapshot,
   * to the first and last listing it holds, so an open end costs nothing. The page is looked for
   * in the newest stretch of time that should hold it at the window's average rate of matches,
   * four times longer each time it does not. Matches of a stretch are found by GIN (their weeks'
   * keys) and the time index of job_terms together (migration 0035), so only they are visited.
   */
  private async runCounted(
    db: Db,
    plan: SearchPlan,
    term: string,
    facets: string[],
    counts: Map<string, number>,
    statements: {
      offset: number;
      limit: number;
      count: (db: Db, queries: string[], stretch?: { lo: number; hi: number }) => Promise<number>;
      pageBetween: (db: Db, lo: number, hi: number) => Promise<number[]>;
    },
  ): Promise<{ total: number; ids: number[] } | null> {
    const whole = wholeDays(plan.lo, plan.hi);
    if (whole.last < whole.first) return null;
    const known = await sql`select 1 from job_counted_terms where term = ${term}`.execute(db);
    if (!known.rows.length) return null;
    // Every live listing of the window is published in [lo, hi] (read again in this snapshot).
    const held = await this.heldSpan(db, plan.remote, plan.lo, plan.hi);
    if (!held) return { total: 0, ids: [] };
    const { lo, hi } = held;
    // The whole days of the window that can hold its listings.
    const days = { first: Math.max(whole.first, Math.floor(lo / DAY_MS)), last: Math.min(whole.last, Math.floor(hi / DAY_MS)) };
    const counted = sql<{ n: number | string }>`select ${this.dayCounts(countedFacet(term), plan.remote, days, facets, counts)} as n`;
    const between = (from: number, to: number) =>
      from > to ? 0 : statements.count(db, spanQueries(plan.terms!, plan.remote, from, to), { lo: from, hi: to });
    const total =
      Number((await counted.execute(db)).rows[0].n) +
      (await between(lo, Math.min(hi, whole.first * DAY_MS - 1))) +
      (await between(Math.max(lo, (whole.last + 1) * DAY_MS), hi));
    const needed = statements.offset + statements.limit;
    if (statements.offset >= total) return { total, ids: [] };
    // Twice the stretch that holds the page at the window's average rate, at least a minute.
    let span = Math.max(60_000, Math.ceil((2 * needed * (hi - lo + 1)) / total));
    for (;;) {
      const from = Math.max(lo, hi - span + 1);
      const ids = await statements.pageBetween(db, from, hi);
      if (ids.length === statements.limit || from === lo || statements.offset + ids.length >= total) return { total, ids };
      span *= 4;
    }
  }

  /**
   * PostgreSQL: runs `statements` with JIT compilation off and room for an exact bitmap. A bitmap
   * scan of thousands of matches is estimated costly enough for JIT, which then spent 30–80 ms
   * compiling a query that runs in less. And a bitmap past `work_mem` turns lossy: a lossy page's
   * every row is then tested against the query, reading its out-of-line terms, where an exact
   * page reads only the matches' narrow rows (SEARCH_WORK_MEM). One snapshot for every statement
   * (repeatable read), so the count and the page agree while an import merges beside them.
   */
  private async withSearchSettings<T>(statements: (db: Db) => Promise<T>): Promise<T> {
    const settings = async (db: Db) => {
      await sql`set local jit = off`.execute(db);
      await sql.raw(`set local work_mem = '${SEARCH_WORK_MEM}'`).execute(db);
    };
    if (this.db.isTransaction) {
      await settings(this.db);
      return statements(this.db);
    }
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await settings(trx);
        return statements(trx);
      });
  }
}
