import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/http/app.ts';
import { createServices, type ServiceDeps, type Services } from '../../src/services.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { openSqlite, type DbTarget, type TestDatabase } from './db.ts';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  database: TestDatabase;
  /** A fresh key with `credits` credits. */
  key: string;
  keyId: number;
  /** POST with a JSON body and the key, unless `headers` overrides. */
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  get(path: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Starting credits of the test key (default 100). */
  credits?: number;
  /** Use this database (shared by several apps) instead of opening a new one. */
  database?: TestDatabase;
  redisUrl?: string;
  rateLimitNamespace?: string;
  rateLimits?: Record<string, number>;
  /** Extra dependencies for domain services (test DNS server, allow-private probing…). */
  deps?: Partial<ServiceDeps>;
  /** Use this key instead of creating one (a second instance serving the same account). */
  existingKey?: { key: string; id: number };
  /** Registers extra routes (test fixtures) before the app is ready. */
  routes?: (app: FastifyInstance) => void | Promise<void>;
}

/** Builds the real app on a fresh migrated database (SQLite unless a target says otherwise), with one funded key. */
export async function startTestApp(target?: DbTarget, options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (target ? await target.open() : await openSqlite());
  const ownsDatabase = !options.database;
  // Scheduled crawls stay off unless a test's config turns them on (their suites build their own).
  const config = { ...(options.deps?.config ?? loadConfig({ CRAWL_ENABLED: '0' })), logLevel: 'silent' };
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true })
    : undefined;
  await redis?.connect();
  const services = createServices({ db: database.db, dialect: database.dialect, redis, ...options.deps, config });
  const app = await buildApp({
    config,
    services,
    logger: false,
    rateLimitNamespace: options.rateLimitNamespace ?? `test-${randomBytes(6).toString('hex')}`,
    // The test-only charged route (charge-route.ts) gets a limit like every real operation.
    rateLimits: { 'test-charge': 1000, ...options.rateLimits },
  });
  await options.routes?.(app);
  await app.ready();
  const created = options.existingKey ?? (await services.keys.create('test', (options.credits ?? 100) * 1000));
  const withKey = (headers?: Record<string, string>) => ({ 'x-api-key': created.key, ...headers });
  return {
    app,
    services,
    database,
    key: created.key,
    keyId: created.id,
    post: (path, body, headers) =>
      app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/json', ...withKey(headers) },
        payload: body === undefined ? undefined : JSON.stringify(body),
      }),
    get: (path, headers) => app.inject({ method: 'GET', url: path, headers: withKey(headers) }),
    inject: (opts) => app.inject(opts),
    async close() {
      await app.close();
      await services.close();
      redis?.disconnect();
      if (ownsDatabase) await database.destroy();
    },
  };
}
