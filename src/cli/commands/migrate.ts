import type { Command } from 'commander';

/** `leadbase migrate`. */
export function registerMigrate(migrate: Command): void {
  migrate.option('--json', 'print a JSON object {location, applied}').action(async (opts: { json?: boolean }) => {
    const { loadConfig } = await import('../../platform/config.ts');
    const { openDatabase } = await import('../../db/database.ts');
    const { migrateToLatest } = await import('../../db/migrate.ts');
    const config = loadConfig();
    const handle = openDatabase(config.databaseUrl);
    try {
      const { applied } = await migrateToLatest(handle.db);
      if (opts.json) return console.log(JSON.stringify({ location: handle.location, applied }));
      console.log(applied.length ? `applied ${applied.join(', ')} to ${handle.location}` : `${handle.location} is up to date`);
    } finally {
      await handle.close();
    }
  });
}
