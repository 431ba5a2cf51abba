// PostgreSQL settings of an import's own transactions (SET LOCAL: they end with the transaction and
// touch nothing else the server runs). Each is safe for an import and only for one.
// - synchronous_commit stays on: with it off, the VACUUM after the index merge left the merged
//   pages not all-visible (facet counts then read the heap; test/jobs/facet-search-dialects.test.ts).
// - gin_pending_list_limit: new listings' terms go to job_terms' GIN pending list (fastupdate) and
//   are moved into the index when it fills. Each term's move appends to that term's posting list
//   (new ids are the largest), one page per term however many listings carry it: a larger list
//   touches fewer pages per listing. The import empties the list at its end (cleanPendingTerms), so
//   searches do not read a long list after it.
import type { Kysely } from 'kysely';
import { dialectOf } from '../db/database.ts';
import { run } from './bulk-sql.ts';

/** job_terms' pending list during an import, in kB (the server default is 4 MB). */
const PENDING_LIST_KB = 32 * 1024;

/** Applies the import settings to the transaction `trx` (PostgreSQL; nothing on SQLite). */
export async function useImportSettings(trx: Kysely<any>): Promise<void> {
  if (dialectOf(trx) !== 'postgres' || !trx.isTransaction) return;
  await run(trx, `select set_config('gin_pending_list_limit', '${PENDING_LIST_KB}', true)`);
}

/** Moves job_terms' pending list into its GIN index now (PostgreSQL), so searches read no long list after an import. */
export async function cleanPendingTerms(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await run(db, `select gin_clean_pending_list('job_terms_terms'::regclass)`);
}
