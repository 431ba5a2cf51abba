import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';

/** Opens the database named by DATABASE_URL, migrates it when needed, runs `fn`, closes it. */
export async function withDatabase<T>(fn: (handle: DatabaseHandle, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const handle = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(handle.db);
    return await fn(handle, config);
  } finally {
    await handle.close();
  }
}

/** Errors a command reports to the operator as one line, without a stack trace. */
export class CliError extends Error {}
