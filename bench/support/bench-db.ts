import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';

export interface BenchDatabase {
  handle: DatabaseHandle;
  /** Where the data lives, for the report. */
  where: string;
  /** Closes the database; on PostgreSQL also drops the benchmark's schema. */
  drop(): Promise<void>;
}

export interface BenchDatabaseOptions {
  /** Folder for the SQLite file, or the file itself with `sqliteFile`. */
  dir: string;
  sqliteFile?: string;
  pgUrl?: string;
  /** Prefix of the throw-away PostgreSQL schema. */
  schemaPrefix: string;
  /** A PostgreSQL schema of this name, created when missing and kept by drop() (a store reused between runs). */
  keptSchema?: string;
  poolSize?: number;
}

/** A fresh database for one benchmark run: a SQLite file, or a PostgreSQL schema of its own. */
export async function openBenchDatabase(dialect: string, options: BenchDatabaseOptions): Promise<BenchDatabase> {
  if (dialect !== 'postgres') {
    const file = options.sqliteFile || join(options.dir, 'bench.sqlite');
    const handle = openDatabase(`sqlite:${file}`);
    return { handle, where: `SQLite file (WAL, synchronous=NORMAL)`, drop: () => handle.close() };
  }
  const url = options.pgUrl;
  if (!url) throw new Error('DATABASE_URL must name a PostgreSQL database for the postgres runs');
  const schema = options.keptSchema ?? `${options.schemaPrefix}_${randomBytes(4).toString('hex')}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`create schema${options.keptSchema ? ' if not exists' : ''} ${schema}`);
  const handle = openDatabase(url, { pgSchema: schema, poolSize: options.poolSize });
  return {
    handle,
    where: `PostgreSQL (${new URL(url).host}, schema ${schema})`,
    drop: async () => {
      await handle.close();
      if (!options.keptSchema) await admin(`drop schema ${schema} cascade`);
    },
  };
}
