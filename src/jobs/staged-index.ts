// Staged search-index entries (docs/jobs.md, "Bulk imports"). A new listing's index entry (its
// facets as a JSON list, with its remote flag, time, attribute bits and countries) is appended to
// job_facets_staged in the listing's own transaction; a merge later writes the facet rows, live
// rows, full-text rows and per-day counts of every staged listing in key order, then removes them.
// Random inserts into the million-row facet index dirtied one page per row; a sorted merge appends.
//
// Until merged, a listing is stored but not searchable (it has no live row and no full-text row).
// A staged listing is never changed or removed unmerged: the repository merges first (see
// JobRepository.removeFromIndex). A merge is safe to repeat after a crash: facet, live and
// full-text rows are written only where missing, and the day counts are added in the transaction
// that removes the staged entries they came from, so they count once.
import type { Kysely } from 'kysely';
import { dialectOf, type DialectName } from '../db/database.ts';
import { beginBulkWrites } from '../db/bulk-writes.ts';
import { inTransaction } from '../db/transaction.ts';
import { run } from './bulk-sql.ts';
import { ftsKeySql } from './fts-query.ts';
import { DAY_MS } from './day.ts';
import { ATTR_DAY_COUNTED_PREFIXES, DAY_COUNTED_PREFIXES } from './index-keys.ts';
import { COUNTED_PREFIX, holdCountedTermsShared } from './counted-terms.ts';

export interface MergeOptions {
  onProgress?: (progress: MergeProgress) => void;
  /** SQLite: facet rows written per transaction (default 200,000), so other writers (the API's billing) get the lock in between. */
  chunkRows?: number;
  /** SQLite: listings whose live and full-text rows are written per transaction (default 20,000). */
  chunkListings?: number;
  /** SQLite: below this many staged listings (default 2,000) a merge is one transaction straight from the stage, without the sorted copy. */
  smallMerge?: number;
}

const COLUMNS = 'facet, has_remote, published_at, job_id, attrs, countries';
/** The facet `f.value` has one of `prefixes` (SQL; the prefixes are our own constants, two characters each). */
const prefixIn = (prefixes: readonly string[]) => `substr(f.value, 1, 2) in (${prefixes.map((p) => `'${p}'`).join(', ')})`;
/** Facets with per-day counts (hasDayCounts in index-keys.ts), as an SQL condition on `f.value`. */
const HAS_DAY_COUNTS = `(f.value = 'all' or ${prefixIn(DAY_COUNTED_PREFIXES)})`;
/** Facets that are index rows: not counted description terms (`d:`, counted-terms.ts), which only have day counts. */
const IS_FACET_ROW = `substr(f.value, 1, 2) <> '${COUNTED_PREFIX}'`;
/** Facets with per-day counts per attributes on PostgreSQL (hasAttrDayCounts in index-keys.ts). */
const HAS_ATTR_DAY_COUNTS = prefixIn(ATTR_DAY_COUNTED_PREFIXES);

export interface MergeProgress {
  /** Index rows (facet rows and listings) written so far, and in all. */
  rows: number;
  total: number;
}

/**
 * Runs `fn` with a 2 MiB SQLite page cache. The sorter keeps a cache's worth of rows in memory
 * before it writes a sorted run: with the usual 256 MiB cache one huge run sorts at about 1.4 µs a
 * row, runs that fit the CPU caches merged afterwards at about 0.65 (measured on 3 million facet
 * rows). The pages it drops are read again as needed.
 */
async function withSortRuns<T>(db: Kysely<any>, fn: () => Promise<T>): Promise<T> {
  const [{ cache_size: before }] = await run<{ cache_size: number }>(db, 'pragma cache_size');
  await run(db, 'pragma cache_size = -2048');
  try {
    return await fn();
  } finally {
    await run(db, `pragma cache_size = ${Number(before)}`);
  }
}

/** The staged entries `s` with one row `f` per facet (`f.value`). */
function expanded(dialect: DialectName): string {
  return dialect === 'postgres'
    ? 'job_facets_staged s cross join lateral json_array_elements_text(s.facets::json) f(value)'
    : 'job_facets_staged s cross join json_each(s.facets) f';
}

const FACET_ROW = 'f.value, s.has_remote, s.published_at, s.job_id, s.attrs, s.countries';

/** Whether any listings wait to be merged. */
export async function hasStagedEntries(db: Kysely<any>): Promise<boolean> {
  return (await run(db, 'select 1 from job_facets_staged limit 1')).length > 0;
}

/** Live rows, and on SQLite full-text rows (where the live row is still missing), of the staged listings `s` matching `where`. */
async function writeListingRows(db: Kysely<any>, dialect: DialectName, where: string, params: unknown[]): Promise<void> {
  if (dialect === 'postgres') {
    // Full text: a listing's search terms (job_terms) were written with the listing itself.
    await run(
      db,
      `insert into job_live (job_id, has_remote, published_at, attrs, countries)
      select job_id, has_remote, published_at, attrs, countries from job_facets_staged s where ${where} order by job_id on conflict do nothing`,
      params,
    );
    return;
  }
  const key = ftsKeySql('s.has_remote', 's.published_at', 's.job_id');
  await run(
    db,
    `insert into jobs_fts (rowid, description)
    select ${key}, j.description from job_facets_staged s cross join jobs j on j.id = s.job_id
    where ${where} and not exists (select 1 from job_live l where l.search_key = ${key}) order by 1`,
    params,
  );
  await run(
    db,
    `insert into job_live (search_key, job_id, has_remote, published_at, attrs, countries)
    select ${key}, job_id, has_remote, published_at, attrs, countries from job_facets_staged s where ${where} order by 1 on conflict do nothing`,
    params,
  );
}

/**
 * Adds the day counts of the staged entries up to `last` and removes those entries, in one
 * transaction, so each entry is counted once even when two merges race: SQLite runs one writer at
 * a time; on PostgreSQL the counts come from the rows this statement itself deleted.
 */
async function settle(trx: Kysely<any>, dialect: DialectName, last: number): Promise<void> {
  const counts = (from: string, where: string) => `insert into job_facet_days (facet, has_remote, day, n)
    select f.value, s.has_remote, s.published_at / ${DAY_MS}, count(*) from ${from} where ${where}
    group by f.value, s.has_remote, s.published_at / ${DAY_MS}
    on conflict (facet, has_remote, day) do update set n = job_facet_days.n + excluded.n`;
  if (dialect === 'postgres') {
    // The same deleted rows also give the counts per attributes (hasAttrDayCounts in index-keys.ts),
    // new groups inserted in key order so that a facet's days stay together (migration 0036).
    const expandedGone = 'gone s cross join lateral json_array_elements_text(s.facets::json) f(value)';
    await run(
      trx,
      `with gone as (delete from job_facets_staged where seq <= ? returning has_remote, published_at, attrs, countries, facets),
      days as (${counts(expandedGone, HAS_DAY_COUNTS)})
      insert into job_facet_attr_days (facet, has_remote, day, attrs, countries, n)
      select f.value, s.has_remote, s.published_at / ${DAY_MS}, s.attrs, s.countries, count(*) from ${expandedGone}
      where ${HAS_ATTR_DAY_COUNTS}
      group by f.value, s.has_remote, s.published_at / ${DAY_MS}, s.attrs, s.countries
      order by 1, 2, 3, 4, 5
      on conflict (facet, has_remote, day, attrs, countries) do update set n = job_facet_attr_days.n + excluded.n`,
      [last],
    );
    return;
  }
  await run(trx, counts(expanded(dialect), `s.seq <= ? and ${HAS_DAY_COUNTS}`), [last]);
  await run(trx, 'delete from job_facets_staged where seq <= ?', [last]);
}

/**
 * Merges every staged listing into the search index; returns how many it merged. Inside a
 * transaction (or on PostgreSQL, where it does not block other writers) the merge is one
 * transaction; on SQLite a large merge sorts the facet rows once into a temporary table and writes
 * everything in chunks, one transaction each.
 */
export async function mergeStagedIndex(db: Kysely<any>, options: MergeOptions = {}): Promise<number> {
  const { onProgress, chunkRows = 200_000, chunkListings = 20_000, smallMerge = 2_000 } = options;
  const dialect = dialectOf(db);
  const [stage] = await run<{ first: number | string | null; last: number | string | null; n: number | string }>(
    db,
    'select min(seq) as first, max(seq) as last, count(*) as n from job_facets_staged',
  );
  if (stage.last === null) return 0;
  const [first, last, listings] = [Number(stage.first), Number(stage.last), Number(stage.n)];
  if (db.isTransaction || dialect === 'postgres' || listings < smallMerge) {
    await inTransaction(db, async (trx) => {
      // A counted term's arrival marks staged entries: not while they are merged.
      if (dialect === 'postgres') await holdCountedTermsShared(trx);
      await run(
        trx,
        `insert into job_facets (${COLUMNS}) select ${FACET_ROW} from ${expanded(dialect)} where s.seq <= ? and ${IS_FACET_ROW} order by 1, 2, 3, 4 on conflict do nothing`,
        [last],
      );
      await writeListingRows(trx, dialect, 's.seq <= ?', [last]);
      await settle(trx, dialect, last);
    });
    return listings;
  }
  // The sorted copy is a temporary table (the connection's own): building it takes no write lock.
  const endBulkWrites = await beginBulkWrites(db);
  await run(db, `create temp table if not exists job_merge_sorted (${COLUMNS})`);
  await run(db, 'delete from temp.job_merge_sorted');
  try {
    await withSortRuns(db, () =>
      run(
        db,
        `insert into temp.job_merge_sorted select ${FACET_ROW} from ${expanded(dialect)} where s.seq <= ? and ${IS_FACET_ROW} order by 1, 2, 3, 4`,
        [last],
      ),
    );
    // Rowids of the sorted copy run from 1, in key order.
    const [{ n }] = await run<{ n: number | null }>(db, 'select max(rowid) as n from temp.job_merge_sorted');
    const rows = Number(n ?? 0);
    const total = rows + listings;
    for (let from = 1; from <= rows; from += chunkRows) {
      await db
        .transaction()
        .execute((trx) =>
          run(
            trx,
            `insert into job_facets (${COLUMNS}) select ${COLUMNS} from temp.job_merge_sorted where rowid between ? and ? order by rowid on conflict do nothing`,
            [from, from + chunkRows - 1],
          ),
        );
      onProgress?.({ rows: Math.min(rows, from + chunkRows - 1), total });
    }
    for (let from = first; from <= last; from += chunkListings) {
      await db
        .transaction()
        .execute((trx) => writeListingRows(trx, dialect, 's.seq between ? and ?', [from, Math.min(last, from + chunkListings - 1)]));
      onProgress?.({ rows: rows + Math.min(listings, from + chunkListings - first), total });
    }
    await db.transaction().execute((trx) => withSortRuns(trx, () => settle(trx, dialect, last)));
  } finally {
    await run(db, 'delete from temp.job_merge_sorted');
    await endBulkWrites();
  }
  return listings;
}
