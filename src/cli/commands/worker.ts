import type { Command } from 'commander';
import { exitOnSignals, exitOnStartFailure } from '../shutdown.ts';

/** `leadbase worker`: background work (bulk validation jobs, due crawls) without serving HTTP. */
export function registerWorker(worker: Command): void {
  worker.option('--no-crawl', 'do not run scheduled crawls (bulk jobs only)').action(async (opts: { crawl: boolean }) => {
    const { loadConfig } = await import('../../platform/config.ts');
    const { openDatabase } = await import('../../db/database.ts');
    const { migrateToLatest } = await import('../../db/migrate.ts');
    const { createServices } = await import('../../services.ts');
    const { createLogger } = await import('../../platform/logger.ts');
    const { CircuitBreaker } = await import('../../db/breaker.ts');
    const { OutageLog } = await import('../../platform/outage-log.ts');
    const config = loadConfig();
    if (!opts.crawl) config.crawl.enabled = false;
    const logger = createLogger({ level: config.logLevel });
    const outages = new OutageLog({ logger, intervalMs: config.timeouts.outageLogIntervalMs });
    const databaseBreaker = new CircuitBreaker({ dependency: 'database', outages });
    const timeouts = { connectMs: config.timeouts.dbConnectMs, queryMs: config.timeouts.dbQueryMs, idleMs: config.timeouts.dbIdleMs };
    const starting = (async () => {
      const handle = openDatabase(config.databaseUrl, {
        logger,
        busyTimeoutMs: config.sqliteBusyTimeoutMs,
        timeouts,
        breaker: databaseBreaker,
      });
      await migrateToLatest(handle.db);
      const services = createServices({ db: handle.db, dialect: handle.dialect, config, logger, outages, databaseBreaker });
      return { handle, services };
    })();
    exitOnSignals({
      timeoutMs: config.timeouts.shutdownMs,
      drain: async () => {
        const { handle, services } = await starting;
        logger.info('worker stopping');
        await services.close();
        await handle.close();
      },
      log: (details, message) => logger.warn(details, message),
    });
    await starting.catch((error: unknown) => exitOnStartFailure('worker', error));
    logger.info({ crawl: config.crawl.enabled }, 'leadbase worker running');
    process.stdout.write(`leadbase worker running (crawls ${config.crawl.enabled ? 'on' : 'off'}); stop with Ctrl-C\n`);
  });
}
