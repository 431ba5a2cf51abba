import type { Command } from 'commander';

/** `leadbase migrate`. */
export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending database migrations and exit')
    .action(async () => {
      const { loadConfig } = await import('../../config.ts');
      const { openDatabase } = await import('../../db/database.ts');
      const { migrateToLatest } = await import('../../db/migrate.ts');
      const config = loadConfig();
      const handle = openDatabase(config.databaseUrl);
      try {
        const { applied } = await migrateToLatest(handle.db);
        console.log(applied.length ? `applied ${applied.join(', ')} to ${handle.location}` : `${handle.location} is up to date`);
      } finally {
        await handle.close();
      }
    });
}
