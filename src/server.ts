import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import type { Config } from './platform/config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createServices } from './services.ts';
import { buildApp } from './http/app.ts';
import type { CreatedKey } from './keys/service.ts';
import { createLogger } from './platform/logger.ts';
import { storesEmpty } from './platform/status.ts';
import { CircuitBreaker } from './db/breaker.ts';
import { OutageLog } from './platform/outage-log.ts';

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
  const outages = new OutageLog({ logger, intervalMs: config.timeouts.outageLogIntervalMs });
  const databaseBreaker = new CircuitBreaker({ dependency: 'database', outages });
  const handle = openDatabase(config.databaseUrl, {
    logger,
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
    timeouts: { connectMs: config.timeouts.dbConnectMs, queryMs: config.timeouts.dbQueryMs, idleMs: config.timeouts.dbIdleMs },
    breaker: databaseBreaker,
  });
  await migrate(config, handle);
  const redis = config.redisUrl ? createRedis(config) : undefined;
  let redisBreaker: CircuitBreaker | undefined;
  let closeRedis = () => {};
  if (redis) {
    // Fail at start if Redis is configured but unreachable; later outages fall back to per-instance limits.
    await redis.connect();
    // ioredis reconnects by itself (one connection at a time, spaced by retryStrategy); without an
    // error listener an outage would crash the process. The breaker opens when the connection drops
    // (a clean close emits no error, and a Redis back before the first reconnect attempt would emit
    // none at all) and closes when it is ready again; the outage log says so once each way.
    const breaker = (redisBreaker = new CircuitBreaker({ dependency: 'redis', outages }));
    let closing = false;
    const markDown = (error: { message: string; code?: string }) => {
      if (!closing && !breaker.isOpen) breaker.failed(error);
    };
    redis.on('error', markDown);
    redis.on('close', () => markDown({ message: 'connection closed' }));
    closeRedis = () => {
      closing = true;
      redis.disconnect();
    };
    redis.on('ready', () => breaker.close());
  }
  const services = createServices({
    db: handle.db,
    dialect: handle.dialect,
    config,
    redis,
    logger,
    outages,
    databaseBreaker,
    redisBreaker,
  });
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
  // Technographics read stored matches; a store migrated with listings, or a changed dictionary,
  // has them made here (answers read the descriptions meanwhile: docs/jobs.md, "Technographics").
  const building = new AbortController();
  const technologies = services.jobs.buildTechnologies({ signal: building.signal }).then(
    (listings) => {
      if (listings) app.log.info({ listings }, 'technologies of job listings matched');
    },
    (error) => app.log.warn({ err: error }, 'matching the technologies of job listings failed'),
  );

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      clearInterval(sweep);
      await app.close(); // stops accepting, lets in-flight requests finish
      building.abort();
      await indexing;
      await technologies;
      await services.close();
      closeRedis();
      await handle.close();
    })());
  return { app, address, firstKey, emptyStores, stop };
}

/**
 * Migrations run on a connection of their own without the query bound: a migration may rightly run
 * one statement for minutes. (An in-memory SQLite database lives in its one connection: migrated there.)
 */
async function migrate(config: Config, serving: ReturnType<typeof openDatabase>): Promise<void> {
  if (serving.dialect !== 'postgres') {
    await migrateToLatest(serving.db);
    return;
  }
  const handle = openDatabase(config.databaseUrl, { poolSize: 1, timeouts: { connectMs: config.timeouts.dbConnectMs } });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
}

/** The Redis client of shared rate limits, with every bound set (README, "When a dependency is down"). */
function createRedis(config: Config): Redis {
  return new Redis(config.redisUrl!, {
    lazyConnect: true,
    // Commands fail at once while disconnected (limits then count per instance) instead of queueing.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: config.timeouts.redisConnectMs,
    commandTimeout: config.timeouts.redisCommandMs,
    keepAlive: 10_000,
    // One reconnection at a time, 100 ms after the loss and then up to a second apart: a returning
    // Redis is used again within a second.
    retryStrategy: (times) => Math.min(100 * times, 1000),
  });
}
