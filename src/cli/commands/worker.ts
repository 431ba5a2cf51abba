import type { Command } from 'commander';

/** `leadbase worker`: background work (bulk validation jobs, due crawls) without serving HTTP. */
export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description('Run background work (bulk validation jobs, webhooks, scheduled crawls) without serving HTTP; stop with SIGTERM')
    .option('--no-crawl', 'do not run scheduled crawls (bulk jobs only)')
    .action(async (opts: { crawl: boolean }) => {
      const { loadConfig } = await import('../../config.ts');
      const { openDatabase } = await import('../../db/database.ts');
      const { migrateToLatest } = await import('../../db/migrate.ts');
      const { createServices } = await import('../../services.ts');
      const { createLogger } = await import('../../logger.ts');
      const config = loadConfig();
      if (!opts.crawl) config.crawl.enabled = false;
      const logger = createLogger({ level: config.logLevel });
      const handle = openDatabase(config.databaseUrl, { logger, busyTimeoutMs: config.sqliteBusyTimeoutMs });
      await migrateToLatest(handle.db);
      const services = createServices({ db: handle.db, dialect: handle.dialect, config, logger });
      logger.info({ database: handle.location, crawl: config.crawl.enabled }, 'leadbase worker running');
      process.stdout.write(`leadbase worker running (crawls ${config.crawl.enabled ? 'on' : 'off'}); stop with Ctrl-C\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGTERM', resolve);
        process.once('SIGINT', resolve);
      });
      logger.info('worker stopping');
      await services.close();
      await handle.close();
    });
}
