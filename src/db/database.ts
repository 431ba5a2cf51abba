import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { Kysely, PostgresAdapter, PostgresDialect } from 'kysely';
import type { Database } from './schema.ts';
import { ImmediateSqliteDialect } from './sqlite-locking.ts';
import type { CircuitBreaker } from './breaker.ts';
import { createPgPool, type PgTimeouts } from './pg-pool.ts';

export type Db = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';

export interface OpenDatabaseOptions {
  /** PostgreSQL schema to use (tests isolate themselves in a schema of their own). */
  pgSchema?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** SQLite: how long a statement waits for another process's write lock before SQLITE_BUSY (default 5000 ms). */
  busyTimeoutMs?: number;
  /** Shown in pg_stat_activity, so an operator can tell our connections apart (default "leadbase"). */
  applicationName?: string;
  /** Where a lost idle connection is reported; without one it is ignored (the pool replaces it). */
  logger?: { warn(details: object, message: string): void };
  /** PostgreSQL: connect, query and idle bounds (src/db/pg-pool.ts). */
  timeouts?: PgTimeouts;
  /** PostgreSQL: connections go through it, so a down database is probed, not hammered. */
  breaker?: CircuitBreaker;
}

export interface DatabaseHandle {
  db: Db;
  dialect: DialectName;
  /** Human-readable location, without credentials. */
  location: string;
  close(): Promise<void>;
}

export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** A SQLite connection whose prepared statements are kept (see withStatementCache). */
export interface SqliteConnection {
  prepare(query: string): SQLite.Statement;
  close(): void;
}

// The connection behind each SQLite Kysely instance, keyed by its dialect adapter, which a Kysely
// instance shares with its transactions (see sqliteConnectionOf).
const sqliteConnections = new WeakMap<object, SqliteConnection>();

/**
 * The connection behind a SQLite `db` or transaction (undefined on PostgreSQL), with the same
 * statement cache Kysely uses. For bulk writers: inside a Kysely transaction, which holds that
 * single connection, prepared statements run on it synchronously are part of the transaction, at a
 * fraction of the cost of a Kysely query per row. Outside a transaction, use Kysely (another flow
 * may hold the connection).
 */
export function sqliteConnectionOf(db: Kysely<any>): SqliteConnection | undefined {
  return sqliteConnections.get(db.getExecutor().adapter);
}

// For file databases: a second, read-only connection for the hot point reads (see PreparedQuery),
// opened on first use and closed with the main one.
const sqliteReaders = new WeakMap<object, () => SqliteConnection>();

/**
 * A read-only connection beside the one Kysely uses (undefined on PostgreSQL and for an in-memory
 * database). In WAL mode it reads the last committed state without waiting for the main
 * connection, which a transaction (an import's batch, a charge) may hold across awaits; and a
 * synchronous point read on it costs a fraction of a Kysely query.
 */
export function sqliteReaderOf(db: Kysely<any>): SqliteConnection | undefined {
  return db.isTransaction ? undefined : sqliteReaders.get(db.getExecutor().adapter)?.();
}

export function sqlitePathFromUrl(url: string): string {
  const path = url.replace(/^sqlite:(\/\/)?/, '');
  if (!path) throw new Error(`DATABASE_URL "${url}" names no file`);
  return path;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; preparing costs more than running a point query, so the
 * hot queries' prepared statements are kept (least recently used evicted).
 */
function withStatementCache(sqlite: SQLite.Database, onClose?: () => void): SqliteConnection {
  const cache = new LRUCache<string, SQLite.Statement>({ max: STATEMENT_CACHE_SIZE });
  return {
    close: () => {
      onClose?.();
      sqlite.close();
    },
    prepare(query: string) {
      let statement = cache.get(query);
      if (!statement) cache.set(query, (statement = sqlite.prepare(query)));
      return statement;
    },
  };
}

export function openDatabase(url: string, options: OpenDatabaseOptions = {}): DatabaseHandle {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = createPgPool({
      connectionString: url,
      max: options.poolSize ?? 10,
      applicationName: options.applicationName ?? 'leadbase',
      pgSchema: options.pgSchema,
      timeouts: options.timeouts,
      breaker: options.breaker,
      logger: options.logger,
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const parsed = new URL(url);
    return {
      db,
      dialect: 'postgres',
      location: `postgres://${parsed.host}${parsed.pathname}${options.pgSchema ? ` (schema ${options.pgSchema})` : ''}`,
      close: () => db.destroy(),
    };
  }
  if (url.startsWith('sqlite:')) {
    const path = sqlitePathFromUrl(url);
    if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
    const sqlite = new SQLite(path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // Another process (the CLI beside a running server) may hold the write lock briefly.
    sqlite.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    // Searches and index writes touch far more pages than the default 2 MB cache holds (the jobs
    // index alone is over 1 GB at a million listings): up to 256 MiB, taken only as pages are read.
    sqlite.pragma('cache_size = -262144');
    let reader: SqliteConnection | undefined;
    const connection = withStatementCache(sqlite, () => reader?.close());
    // Transactions begin IMMEDIATE: see sqlite-locking.ts for why a deferred BEGIN loses writes beside other processes.
    const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: connection }) });
    sqliteConnections.set(db.getExecutor().adapter, connection);
    if (path !== ':memory:') {
      sqliteReaders.set(db.getExecutor().adapter, () => {
        if (!reader) {
          const readOnly = new SQLite(path, { readonly: true, fileMustExist: true });
          readOnly.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
          reader = withStatementCache(readOnly);
        }
        return reader;
      });
    }
    return { db, dialect: 'sqlite', location: `sqlite:${path}`, close: () => db.destroy() };
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${url.split(':')[0]}:…"`);
}
