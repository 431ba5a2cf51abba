import type { Kysely } from 'kysely';

/**
 * Runs `fn` in a transaction: the caller's own when `db` already is one (so a repository built on a
 * transaction joins it), else a new one.
 */
export function inTransaction<DB, T>(db: Kysely<DB>, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
