// The world the source tests run in: a fresh database of the target, and the services on it with the
// test's crawl settings, no background work, and the guarded client allowed to reach only the local
// upstreams the test started (they listen on 127.0.0.1, a private address it refuses otherwise).
import type { Logger } from 'pino';
import { loadConfig } from '../../src/platform/config.ts';
import { createServices, type Services } from '../../src/services.ts';
import type { DbTarget, TestDatabase } from './db.ts';

export interface CrawlServicesOptions {
  /** Settings read as the environment (CRAWL_USER_AGENT, CRAWL_HOST_INTERVAL_MS, …). */
  env: Record<string, string>;
  /** host:port of the local upstreams the guarded client may reach. */
  allowHosts?: string[];
  logger?: Logger;
}

export interface CrawlServices {
  database: TestDatabase;
  services: Services;
  /** Closes the services, then deletes the database. */
  close(): Promise<void>;
}

export async function openCrawlServices(target: DbTarget, options: CrawlServicesOptions): Promise<CrawlServices> {
  const database = await target.open();
  const services = createServices({
    db: database.db,
    dialect: database.dialect,
    config: loadConfig(options.env),
    background: false,
    crawlAllowPrivateHosts: options.allowHosts,
    logger: options.logger,
  });
  return {
    database,
    services,
    async close() {
      await services.close();
      await database.destroy();
    },
  };
}
