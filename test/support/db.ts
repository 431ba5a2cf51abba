import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

export const POSTGRES_URL = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
export const REDIS_URL = process.env.REDIS_URL || undefined;
export const PG_SKIP = POSTGRES_URL ? false : 'DATABASE_URL not set: PostgreSQL suite skipped';
export const REDIS_SKIP = REDIS_URL ? false : 'REDIS_URL not set: Redis suite skipped';

export interface DbTarget {
  name: 'sqlite' | 'postgres';
  /** false, or the reason the suite is skipped. */
  skip: false | string;
  /** Opens a fresh, migrated, isolated database. */
  open(): Promise<TestDatabase>;
}

export interface TestDatabase extends DatabaseHandle {
  /** The DATABASE_URL another process would use to reach the same data (sqlite file path, or postgres URL). */
  url: string;
  pgSchema?: string;
  /** Closes and deletes the database. */
  destroy(): Promise<void>;
}

export async function openSqlite(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-test-'));
  const url = `sqlite:${join(dir, 'test.sqlite')}`;
  const handle = openDatabase(url);
  await migrateToLatest(handle.db);
  return {
    ...handle,
    url,
    destroy: async () => {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a migration step on a test schema. Before it migrates, Kysely's migrator looks for its
 * tables by introspecting every schema of the database, and that catalog query fails when another
 * test file changes its own schema at the same moment: 'schema "t_…" does not exist' when one is
 * dropped, 'column "…" of relation "…" does not exist' when a test drops a column (the query asks
 * pg_get_serial_sequence of each column it lists). Those errors, raised outside any migration
 * (migrateToLatest then names none), are retried.
 */
export async function besideOtherTests<T>(schema: string, step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt === 5 || !raceWithOtherSchema(String((error as Error).message), schema)) throw error;
    }
  }
}

function raceWithOtherSchema(message: string, schema: string): boolean {
  const dropped = /schema "(t_[0-9a-f]+)" does not exist/.exec(message);
  if (dropped) return dropped[1] !== schema;
  const inMigration = /\(in \d{4}_\w+\)/.test(message);
  return !inMigration && /(column "[^"]+" of )?relation "[^"]+" does not exist/.test(message);
}

async function migrateBesideOtherTests(handle: DatabaseHandle, schema: string): Promise<void> {
  await besideOtherTests(schema, () => migrateToLatest(handle.db));
}

/** A PostgreSQL schema of its own, so test files can run side by side on one database. */
export async function openPostgres(poolSize = 10): Promise<TestDatabase> {
  if (!POSTGRES_URL) throw new Error('DATABASE_URL is not set');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create schema ${schema}`);
  const handle = openDatabase(POSTGRES_URL, { pgSchema: schema, poolSize });
  await migrateBesideOtherTests(handle, schema);
  return {
    ...handle,
    url: POSTGRES_URL,
    pgSchema: schema,
    destroy: async () => {
      await handle.close();
      await adminQuery(`drop schema if exists ${schema} cascade`);
    },
  };
}

/**
 * A PostgreSQL database of its own on DATABASE_URL's server, for a test that needs VACUUM to find
 * it alone: a vacuum marks pages all-visible only past every open transaction of its database, and
 * the shared test database always holds some of other test files' (a stalled-database fault test
 * keeps one open for seconds).
 */
export async function openOwnPostgresDatabase(): Promise<TestDatabase> {
  const own = await ownDatabase();
  const handle = openDatabase(own.url);
  await migrateToLatest(handle.db);
  return {
    ...handle,
    url: own.url,
    destroy: async () => {
      await handle.close();
      await own.drop();
    },
  };
}

/** A PostgreSQL database of the test's own on DATABASE_URL's server (empty; whoever opens it migrates it), dropped by drop(). */
export async function ownDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!POSTGRES_URL) throw new Error('DATABASE_URL is not set');
  const name = `t_own_${randomBytes(5).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = Object.assign(new URL(POSTGRES_URL), { pathname: `/${name}` }).toString();
  return { url, drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

/** Both storage modes; PostgreSQL only when DATABASE_URL is set. */
export const dbTargets: DbTarget[] = [
  { name: 'sqlite', skip: false, open: openSqlite },
  { name: 'postgres', skip: PG_SKIP, open: () => openPostgres() },
];

/** A second, independent connection to the same test database: what another server instance would have. */
export function reopen(t: TestDatabase): TestDatabase {
  const handle = openDatabase(t.url, { pgSchema: t.pgSchema });
  return { ...handle, url: t.url, pgSchema: t.pgSchema, destroy: () => handle.close() };
}

/** Drops a schema a test made beside its database (pg-boss's, say), with its own connection. */
export async function dropPgSchema(schema: string): Promise<void> {
  await adminQuery(`drop schema if exists ${schema} cascade`);
}

/** Runs one statement on DATABASE_URL's database over a connection of its own (schemas and databases made and dropped). */
async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
