import { sql, type Kysely } from 'kysely';
import { dialectOf } from './database.ts';

/** WAL pages between checkpoints during a bulk import (4 KiB pages: about 200 MB of WAL). */
const BULK_CHECKPOINT_PAGES = 50_000;

/**
 * Before a bulk import, on SQLite: a WAL checkpoint every BULK_CHECKPOINT_PAGES pages instead of
 * every 1,000. An import commits thousands of pages at a time, so the default interval checkpointed
 * (copied every page again and synced the files) after every commit; spaced out, a page several
 * commits rewrote is copied once and the files are synced far less often. Returns the step that
 * ends the import: the rest of the WAL checkpointed now (its cost belongs to the import) and the
 * previous interval back. Nothing to do on PostgreSQL.
 */
export async function beginBulkWrites(db: Kysely<any>): Promise<() => Promise<void>> {
  if (dialectOf(db) !== 'sqlite' || db.isTransaction) return async () => {};
  const before = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
  const interval = Number(before.rows[0]?.wal_autocheckpoint ?? 1000);
  await sql.raw(`pragma wal_autocheckpoint = ${BULK_CHECKPOINT_PAGES}`).execute(db);
  return async () => {
    await sql`pragma wal_checkpoint(passive)`.execute(db);
    await sql.raw(`pragma wal_autocheckpoint = ${interval}`).execute(db);
  };
}
