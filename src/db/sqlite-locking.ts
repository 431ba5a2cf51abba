// Several processes (servers, the CLI, workers) write one SQLite file; only one holds the write
// lock at a time. Two rules keep that from losing work:
// - A transaction that writes takes the lock when it begins (BEGIN IMMEDIATE), where SQLite waits
//   for it up to the busy timeout. A deferred BEGIN takes it at its first write; if another process
//   committed after the transaction's first read, SQLite answers SQLITE_BUSY_SNAPSHOT at once,
//   without waiting, since the transaction's reads are stale.
// - Every busy or locked answer (SQLITE_BUSY and its extended codes, SQLITE_LOCKED and its extended
//   codes) means "another connection holds the lock": worth waiting out, never a fault of the data.
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type TransactionSettings } from 'kysely';

/** Every busy or locked code, as better-sqlite3 names the extended result code: SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED_SHAREDCACHE… */
export const SQLITE_LOCK_CODE = /^SQLITE_(BUSY|LOCKED)(_|$)/;

/** True when `error` (or an error it wraps) is SQLite saying another connection holds a lock. */
export function isSqliteLocked(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && SQLITE_LOCK_CODE.test(code)) return true;
  }
  return false;
}

/** SQLite's driver with transactions that take the write lock when they begin (read-only ones excepted). */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(settings?.accessMode === 'read only' ? 'begin' : 'begin immediate'));
  }
}

/**
 * Kysely's SQLite dialect whose transactions begin IMMEDIATE: nearly all of ours write, and one that
 * reads first would otherwise fail at once with SQLITE_BUSY_SNAPSHOT beside another writing process.
 * `db.transaction().setAccessMode('read only')` keeps a deferred BEGIN for a transaction that only reads.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(settings);
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}
