import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createServices } from './services.ts';
import { buildApp } from './http/app.ts';
import type { CreatedKey } from './keys/service.ts';
import { createLogger } from './logger.ts';
import { storesEmpty } from './status.ts';

export interface RunningServer {
  app: FastifyInstance;
  address: string;
  firstKey?: CreatedKey;
  /** The company, jobs and people stores were all empty at start (`leadbase bootstrap` fills them). */
  emptyStores: boolean;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Create a first key with starter credits when the database has none (npm start). */
  firstKey?: boolean;
}

/** Opens storage, migrates, builds the app and listens. Used by `leadbase serve`. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = createLogger({ level: config.logLevel });
  const handle = openDatabase(config.databaseUrl, { logger, busyTimeoutMs: config.sqliteBusyTimeoutMs });
  await migrateToLatest(handle.db);
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true })
    : undefined;
  let closeRedis = () => {};
  if (redis) {
    // Fail at start if Redis is configured but unreachable; later outages fall back to per-instance limits.
    await redis.connect();
    // ioredis reconnects by itself; without an error listener an outage would crash the process.
    // The outage is logged once when the connection drops (a clean close emits no error, and a
    // Redis back before the first reconnect attempt would emit none at all) and its end once.
    let down = false;
    let closing = false;
    const markDown = (error: { message: string; code?: string }) => {
      if (down || closing) return;
      down = true;
      logger.warn(
        { err: { message: error.message, code: error.code } },
        'Redis unreachable: rate limits are counted per instance until it returns',
      );
    };
    redis.on('error', markDown);
    redis.on('close', () => markDown({ message: 'connection closed' }));
    closeRedis = () => {
      closing = true;
      redis.disconnect();
    };
    redis.on('ready', () => {
      if (!down) return;
      down = false;
      logger.info('Redis reachable again: rate limits are shared again');
    });
  }
  const services = createServices({ db: handle.db, dialect: handle.dialect, config, redis, logger });
  const app = await buildApp({ config, services, logger });

  let firstKey: CreatedKey | undefined;
  if (options.firstKey && (await services.keys.count()) === 0) {
    firstKey = await services.keys.create('first key', config.starterCredits * 1000);
  }

  // Idempotency records live 24 hours; sweep the expired ones hourly (any instance may do it).
  const sweep = setInterval(
    () => {
      services.idempotency.purgeExpired().catch((error) => app.log.warn({ err: error }, 'idempotency sweep failed'));
    },
    60 * 60 * 1000,
  );
  sweep.unref();

  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info({ database: handle.location, redis: Boolean(redis) }, 'leadbase is serving');
  const emptyStores = await storesEmpty(handle.db).catch(() => false);
  if (emptyStores)
    app.log.info('the stores are empty: every lookup answers not found until `leadbase bootstrap` fills them from open data');
  // Listings an interrupted import stored without indexing them become searchable (docs/jobs.md, "Bulk imports").
  const indexing = services.jobs.mergeStagedIndex().then(
    (listings) => {
      if (listings) app.log.info({ listings }, 'staged job listings merged into the search index');
    },
    (error) => app.log.warn({ err: error }, 'merging staged job listings failed'),
  );

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      clearInterval(sweep);
      await app.close(); // stops accepting, lets in-flight requests finish
      await indexing;
      await services.close();
      closeRedis();
      await handle.close();
    })());
  return { app, address, firstKey, emptyStores, stop };
}
