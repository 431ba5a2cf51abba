// PostgreSQL settings of an import's own transactions (SET LOCAL: they end with the transaction and
// touch nothing else the server runs). Each is safe for an import and only for one:
// - synchronous_commit off: a commit returns before its WAL reaches the disk. A server crash can
//   lose the last groups committed (never corrupt anything); the import is idempotent and a rerun
//   stores them again (docs/jobs.md, "Bulk imports").
// - gin_pending_list_limit: new listings' terms go to job_terms' GIN pending list (fastupdate) and
//   are moved into the index when it fills. Moving a larger list sorts more entries per key and
//   descends the tree once per key instead of once per few listings; the import cleans the list at
//   its end (cleanPendingTerms), so searches do not read a long list for long.
// - work_mem: what that move (and the merge's sort of facet rows) accumulates in memory at once.
import type { Kysely } from 'kysely';
import { dialectOf } from '../db/database.ts';
import { inTransaction } from '../db/transaction.ts';
import { run } from './bulk-sql.ts';

/** job_terms' pending list during an import (the server default is 4 MB). */
const PENDING_LIST_KB = 32 * 1024;
/** Memory of one import statement's sort or pending-list move (the server default is 4 MB). */
const IMPORT_WORK_MEM_KB = 128 * 1024;

/** Applies the import settings to the transaction `trx` (PostgreSQL; nothing on SQLite). */
export async function useImportSettings(trx: Kysely<any>): Promise<void> {
  if (dialectOf(trx) !== 'postgres' || !trx.isTransaction) return;
  await run(
    trx,
    `select set_config('synchronous_commit', 'off', true), set_config('gin_pending_list_limit', '${PENDING_LIST_KB}', true),
      set_config('work_mem', '${IMPORT_WORK_MEM_KB}kB', true)`,
  );
}

/** Moves job_terms' pending list into its GIN index now (PostgreSQL), so searches read no long list after an import. */
export async function cleanPendingTerms(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  // Called this way (as VACUUM would), the move takes maintenance_work_mem rather than work_mem.
  await inTransaction(db, async (trx) => {
    await run(trx, `select set_config('maintenance_work_mem', '${IMPORT_WORK_MEM_KB}kB', true)`);
    await run(trx, `select gin_clean_pending_list('job_terms_terms'::regclass)`);
  });
}
