// POST /jobs-finder over the facet index (see docs/jobs.md, "Search design"). Every filter that is a
// facet is an index range in newest-first order; the smallest range drives, type, region, level and
// country are checked in the driver's rows (which carry them), the other facets are primary-key
// probes, and what is not a facet (unresolved location words, company size/type/industry) is
// checked on the driver's listings. A description drives from its full-text matches
// (text-window.ts) unless a facet range is small. Totals are exact: one facet alone is counted from
// per-day sums plus the two partial days; anything else is counted over the driver.
//
// Here the orchestration: search-plan.ts turns the filters into a plan, search-run.ts counts it
// and reads a page of ids, search-listings.ts loads that page's listings.
import { checkedFilters } from './filters.ts';
import { InvalidInputError } from '../platform/invalid-input.ts';
import { dialectOf, type Db, type DialectName } from '../db/database.ts';
import type { JobSearchResult, HiddenByDefaults } from '../contract/jobs.ts';
import { DEFAULT_POSTED_WITHIN_DAYS, planSearch, type CompanyLookup, type JobSearchFilters, type SearchPlan } from './search-plan.ts';
import { SearchRunner, type JobSearchOptions } from './search-run.ts';
import { loadListings } from './search-listings.ts';
import { DAY_MS } from './day.ts';

export type { CompanyLookup, JobSearchFilters } from './search-plan.ts';
export type { JobSearchOptions } from './search-run.ts';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 50;

/** How deep an empty answer's note looks for the oldest listing its defaults hid; past it the note widens to the longest window. */
const HIDDEN_OLDEST_MAX_DEPTH = 10_000;
const MAX_POSTED_WITHIN = 36_500;

/** With has_remote 'any', how deep a page may reach (page × per_page): both partitions are read up to it and merged. */
export const ANY_REMOTE_WINDOW_MAX = 10_000;

export class JobSearch {
  readonly dialect: DialectName;

  private readonly runner: SearchRunner;

  constructor(
    private readonly db: Db,
    private readonly companies?: CompanyLookup,
    options: JobSearchOptions = {},
  ) {
    this.dialect = dialectOf(db);
    this.runner = new SearchRunner(db, options);
  }

  /** Resolves once the terms this process is making counted are (for tests and shutdown). */
  settled(): Promise<void> {
    return this.runner.settled();
  }

  async search(filters: JobSearchFilters, now = Date.now()): Promise<JobSearchResult> {
    filters = checkedFilters(filters);
    const page = filters.page ?? 1;
    const perPage = Math.min(filters.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
    const plan = await planSearch(filters, now, this.dialect, this.companies);
    const offset = (page - 1) * perPage;
    let total = 0;
    let ids: number[] = [];
    if (!plan.empty)
      ({ total, ids } =
        filters.has_remote === 'any' ? await this.runAny(plan, offset, perPage) : await this.runner.run(plan, offset, perPage));
    const totalPages = Math.ceil(total / perPage);
    const results = ids.length ? await loadListings(this.db, ids) : [];
    return { total_count: total, page, per_page: perPage, total_pages: totalPages, results };
  }

  /**
   * For an answer with no listing: the listings of the same query that the defaults the client did
   * not override (the 30-day window, non-remote only) hid, and which of them would show which.
   * Null when no default applied or none hid anything. Each widening is the same search run again
   * (a count, and for a wider window one listing at its oldest), only for an empty answer, so a
   * client that sent no date gets told why instead of concluding the company has no listings.
   */
  async hiddenByDefaults(filters: JobSearchFilters, now = Date.now()): Promise<HiddenByDefaults | null> {
    filters = checkedFilters(filters);
    const dateDefault = filters.posted_within === undefined && !filters.posted_after && !filters.posted_before;
    const remoteDefault = filters.has_remote === undefined;
    // The v1 paths' 'any' is not our default, and their shape has no room for the note.
    if ((!dateDefault && !remoteDefault) || filters.has_remote === 'any') return null;
    const plan = await planSearch(filters, now, this.dialect, this.companies);
    if (plan.empty) return null;
    // A window reaching every listing: the listing count is exact, and the oldest listing says how
    // many days would show them all.
    const widened = async (remote: number, widenDate: boolean): Promise<{ shown: number; days?: number }> => {
      const wide = { ...plan, remote, lo: widenDate ? 0 : plan.lo };
      // A page of one: on PostgreSQL a text search counts through its page's rows.
      const { total } = await this.runner.run(wide, 0, 1);
      if (!widenDate || total === 0) return { shown: total };
      let days = MAX_POSTED_WITHIN;
      if (total <= HIDDEN_OLDEST_MAX_DEPTH) {
        const [oldest] = (await this.runner.run(wide, total - 1, 1)).ids;
        const row =
          oldest === undefined
            ? undefined
            : await this.db.selectFrom('jobs').select('published_at').where('id', '=', oldest).executeTakeFirst();
        // A whole day more than its age, so the listing is still inside when the client asks again.
        if (row) days = Math.min(MAX_POSTED_WITHIN, Math.max(1, Math.floor((now - Number(row.published_at)) / DAY_MS) + 1));
      }
      return { shown: total, days };
    };
    const window = `posted_within: ${DEFAULT_POSTED_WITHIN_DAYS}`;
    const entries: HiddenByDefaults['filters'] = [];
    let count = 0;
    if (dateDefault) {
      const older = await widened(plan.remote, true);
      count += older.shown;
      if (older.shown) entries.push({ filter: `${window} (default)`, would_show: older.shown, widen_with: { posted_within: older.days! } });
    }
    if (remoteDefault) {
      // has_remote: true shows the remote listings only (our path has no "any"): within the window
      // alone, and, when the window is a default too, over every date.
      const remoteAnyDate = dateDefault ? await widened(1, true) : undefined;
      const remoteInWindow = remoteAnyDate?.shown === 0 ? { shown: 0 } : await widened(1, false);
      count += remoteAnyDate?.shown ?? remoteInWindow.shown;
      if (remoteInWindow.shown)
        entries.push({ filter: 'has_remote: false (default)', would_show: remoteInWindow.shown, widen_with: { has_remote: true } });
      if (remoteAnyDate && remoteAnyDate.shown > remoteInWindow.shown)
        entries.push({
          filter: `${window} and has_remote: false (defaults)`,
          would_show: remoteAnyDate.shown,
          widen_with: { has_remote: true, posted_within: remoteAnyDate.days! },
        });
    }
    return count ? { count, filters: entries } : null;
  }

  /**
   * Remote and non-remote listings alike: each partition of the index read up to the page's end,
   * merged newest first (the order of one partition), the page cut from the merge.
   */
  private async runAny(plan: SearchPlan, offset: number, limit: number): Promise<{ total: number; ids: number[] }> {
    if (offset + limit > ANY_REMOTE_WINDOW_MAX) {
      throw new InvalidInputError(
        'page',
        `Without has_remote, pages reach at most ${ANY_REMOTE_WINDOW_MAX} listings deep (page × per_page): send has_remote to page further.`,
      );
    }
    const onSite = await this.runner.run({ ...plan, remote: 0 }, 0, offset + limit);
    const remote = await this.runner.run({ ...plan, remote: 1 }, 0, offset + limit);
    const total = onSite.total + remote.total;
    const ids = [...onSite.ids, ...remote.ids];
    if (offset >= total || !ids.length) return { total, ids: [] };
    const rows = await this.db.selectFrom('jobs').select(['id', 'published_at']).where('id', 'in', ids).execute();
    const published = new Map(rows.map((r) => [Number(r.id), Number(r.published_at)]));
    ids.sort((a, b) => published.get(b)! - published.get(a)! || b - a);
    return { total, ids: ids.slice(offset, offset + limit) };
  }
}
