import { loadConfig, type Config } from '../platform/config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { Services } from '../services.ts';
import { ImportStoppedError } from '../platform/import-summary.ts';

/** Opens the database named by DATABASE_URL, migrates it when needed, runs `fn`, closes it. */
export async function withDatabase<T>(fn: (handle: DatabaseHandle, config: Config) => Promise<T>): Promise<T> {
  // Loaded here rather than at the top: `leadbase --help` should not pay for the storage modules,
  // nor a command on an up-to-date database for the migrations' (checked by one query first).
  const { openDatabase } = await import('../db/database.ts');
  const { migrationsCurrent } = await import('../db/migration-state.ts');
  const config = loadConfig();
  const handle = openDatabase(config.databaseUrl, { busyTimeoutMs: config.sqliteBusyTimeoutMs });
  try {
    if (!(await migrationsCurrent(handle.db))) await (await import('../db/migrate.ts')).migrateToLatest(handle.db);
    return await fn(handle, config);
  } finally {
    await handle.close();
  }
}

/**
 * withDatabase, with every service built once by the composition root (createServices), as the
 * server builds them; without background work (no greylist re-checks from a CLI command).
 */
export async function withServices<T>(fn: (services: Services, config: Config) => Promise<T>): Promise<T> {
  return withDatabase(async (handle, config) => {
    const { createServices } = await import('../services.ts');
    const services = createServices({ db: handle.db, dialect: handle.dialect, config, background: false });
    try {
      return await fn(services, config);
    } finally {
      await services.close();
    }
  });
}

/** Errors a command reports to the operator as one line, without a stack trace. */
export class CliError extends Error {}

/**
 * For import commands, after the summary is printed: an input whose every row was refused stored
 * nothing, which is a failure (non-zero exit), not a run that went well.
 */
export function failIfAllRefused(read: number, refused: number, what: string): void {
  if (read > 0 && refused >= read)
    throw new CliError(`every one of the ${read} ${what} read was refused (the summary says why): nothing was stored`);
}

/**
 * For import commands: an import the database stopped (ImportStoppedError) prints what it did so far
 * (the summary, as text or JSON) and fails the command with the message saying how to resume.
 */
export function failStoppedImport(error: unknown, label: string, json: boolean | undefined): never {
  if (error instanceof ImportStoppedError) {
    if (json) process.stdout.write(`${JSON.stringify(error.summary.toJSON())}\n`);
    else process.stdout.write(`${label}: ${error.summary.format()}\n`);
    throw new CliError(error.message);
  }
  throw error;
}
