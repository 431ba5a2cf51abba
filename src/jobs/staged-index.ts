// Staged search-index rows (docs/jobs.md, "Bulk imports"). A new listing's index rows are appended
// to job_facets_staged in the listing's own transaction; a merge later writes every staged row
// into job_facets, job_live, the full-text index and the per-day counts in key order, then removes
// them. Random inserts into the million-row index dirtied one page per row; a sorted merge appends.
//
// Until merged, a listing is stored but not searchable (it has no live row and no full-text row).
// A staged listing is never changed or removed unmerged: the repository merges first (see
// JobRepository.removeFromIndex). A merge is safe to repeat after a crash: index, live and
// full-text rows are written only where missing, and the day counts are added in the transaction
// that removes the staged rows they came from, so they count once.
import { CompiledQuery, type Kysely } from 'kysely';
import { dialectOf, type DialectName } from '../db/database.ts';
import { inTransaction } from '../db/transaction.ts';
import { ftsKeySql } from './fts-query.ts';
import { DAY_MS } from './repository.ts';

/** Staged rows merged per transaction on SQLite, so other writers (the API's billing) get the lock in between. */
const CHUNK_ROWS = 200_000;
/** Below this many staged rows a merge is one transaction straight from the stage (no sorted copy). */
const SMALL_MERGE_ROWS = 20_000;

const COLUMNS = 'facet, has_remote, published_at, job_id, attrs, countries';
/** Facets with per-day counts (see hasDayCounts in repository.ts), as an SQL condition. */
const HAS_DAY_COUNTS = "(facet = 'all' or substr(facet, 1, 2) in ('c:', 'r:', 't:', 'x:'))";

export interface MergeProgress {
  /** Staged index rows merged so far, and in all. */
  rows: number;
  total: number;
}

/** Runs a statement written with `?` placeholders (numbered for PostgreSQL). */
async function run<R = unknown>(db: Kysely<any>, text: string, params: unknown[] = []): Promise<R[]> {
  let n = 0;
  const compiled = dialectOf(db) === 'postgres' ? text.replace(/\?/g, () => `$${++n}`) : text;
  return (await db.executeQuery<R>(CompiledQuery.raw(compiled, params))).rows;
}

/** Whether any index rows wait to be merged. */
export async function hasStagedRows(db: Kysely<any>): Promise<boolean> {
  return (await run(db, 'select 1 from job_facets_staged limit 1')).length > 0;
}

/** Where a merge reads staged rows: a table, a condition on its alias `s`, the order to write them in. */
interface RowSource {
  table: string;
  where: string;
  order: string;
  params: unknown[];
}

/**
 * Writes the rows of `source` into the index: facet rows, then per listing (its `all` row) the
 * full-text row where its live row is missing, then the live row.
 */
async function writeIndexRows(db: Kysely<any>, dialect: DialectName, source: RowSource): Promise<void> {
  const from = `${source.table} s where ${source.where}`;
  await run(db, `insert into job_facets (${COLUMNS}) select ${COLUMNS} from ${from} order by ${source.order} on conflict do nothing`, source.params);
  if (dialect === 'postgres') {
    // The full-text index is the generated jobs.description_tsv column.
    await run(db, `insert into job_live (job_id, has_remote, published_at, attrs, countries)
      select job_id, has_remote, published_at, attrs, countries from ${from} and s.facet = 'all' order by job_id on conflict do nothing`, source.params);
    return;
  }
  const key = ftsKeySql('s.has_remote', 's.published_at', 's.job_id');
  await run(db, `insert into jobs_fts (rowid, description)
    select ${key}, j.description from ${source.table} s cross join jobs j on j.id = s.job_id
    where ${source.where} and s.facet = 'all' and not exists (select 1 from job_live l where l.search_key = ${key}) order by 1`, source.params);
  await run(db, `insert into job_live (search_key, job_id, has_remote, published_at, attrs, countries)
    select ${key}, job_id, has_remote, published_at, attrs, countries from ${from} and s.facet = 'all' order by 1 on conflict do nothing`, source.params);
}

/** Adds the day counts of the staged rows up to `last` and removes those rows: once, in one transaction. */
async function settle(trx: Kysely<any>, last: number): Promise<void> {
  await run(trx, `insert into job_facet_days (facet, has_remote, day, n)
    select facet, has_remote, published_at / ${DAY_MS}, count(*) from job_facets_staged where seq <= ? and ${HAS_DAY_COUNTS}
    group by facet, has_remote, published_at / ${DAY_MS}
    on conflict (facet, has_remote, day) do update set n = job_facet_days.n + excluded.n`, [last]);
  await run(trx, 'delete from job_facets_staged where seq <= ?', [last]);
}

/**
 * Merges every staged row into the search index; returns how many rows it merged. Inside a
 * transaction (or on PostgreSQL, where other writers are not blocked by it) the merge is one
 * transaction; on SQLite a large merge sorts the stage once into a temporary table and writes it in
 * chunks of CHUNK_ROWS, one transaction each.
 */
export async function mergeStagedIndex(db: Kysely<any>, onProgress?: (progress: MergeProgress) => void): Promise<number> {
  const dialect = dialectOf(db);
  const stage = await run<{ last: number | string | null; n: number | string }>(db, 'select max(seq) as last, count(*) as n from job_facets_staged');
  if (stage[0].last === null) return 0;
  const last = Number(stage[0].last);
  const total = Number(stage[0].n);
  const whole = async (trx: Kysely<any>) => {
    await writeIndexRows(trx, dialect, { table: 'job_facets_staged', where: 's.seq <= ?', order: 'facet, has_remote, published_at, job_id', params: [last] });
    await settle(trx, last);
  };
  if (db.isTransaction || dialect === 'postgres' || total < SMALL_MERGE_ROWS) await inTransaction(db, whole);
  else {
    // The sorted copy is a temporary table (the connection's own): building it takes no write lock.
    await run(db, `create temp table if not exists job_merge_sorted (${COLUMNS})`);
    await run(db, 'delete from temp.job_merge_sorted');
    try {
      await run(db, `insert into temp.job_merge_sorted select ${COLUMNS} from job_facets_staged where seq <= ? order by facet, has_remote, published_at, job_id`, [last]);
      for (let first = 1; first <= total; first += CHUNK_ROWS) {
        const chunk = { table: 'temp.job_merge_sorted', where: 's.rowid between ? and ?', order: 's.rowid', params: [first, first + CHUNK_ROWS - 1] };
        await db.transaction().execute((trx) => writeIndexRows(trx, dialect, chunk));
        onProgress?.({ rows: Math.min(total, first + CHUNK_ROWS - 1), total });
      }
      await db.transaction().execute((trx) => settle(trx, last));
    } finally {
      await run(db, 'delete from temp.job_merge_sorted');
    }
  }
  onProgress?.({ rows: total, total });
  return total;
}
