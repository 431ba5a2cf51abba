// Configuration comes from the environment only; every setting has a safe default
// so that `npm start` works on a fresh clone.

import { loadEmailConfig, type EmailConfig } from '../email/config.ts';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  logLevel: string;
  bodyLimitBytes: number;
  starterCredits: number;
  trustProxy: boolean;
  /** How long an authenticated key is remembered per instance; revocation elsewhere takes up to this long. */
  authCacheTtlMs: number;
  /** SQLite: how long a write waits for another process's lock before the attempt fails (importers then retry). */
  sqliteBusyTimeoutMs: number;
  /** How long an import keeps retrying a locked or unreachable database before it stops (IMPORT_LOCK_WAIT_MS). */
  importLockWaitMs: number;
  /** Every EMAIL_* setting of the validation engine (docs/email.md). */
  email: EmailConfig;
  /** The background queue: pg-boss (PostgreSQL only) or the embedded queue in the application database (QUEUE_BACKEND). */
  queue: { backend: 'pg-boss' | 'database'; pgBossSchema: string };
  /** Bulk validation jobs (docs/email.md, "Bulk lists"). */
  bulk: {
    /** How long one run of a job works before it hands over to a queued continuation (BULK_SLICE_MS). */
    sliceMs: number;
    /** How long a claimed job holds without renewal: after a kill -9 another instance resumes it this much later (BULK_LEASE_MS). */
    leaseMs: number;
    /** Addresses of one job validated at once (BULK_CONCURRENCY); the engine still paces each mail host. */
    concurrency: number;
    /** How long a greylisted address waits before it is asked again (BULK_GREYLIST_RETRY_MS). */
    greylistRetryMs: number;
    /** From a job's start, how long greylisted addresses are asked again (BULK_GREYLIST_DEADLINE_MS). */
    greylistDeadlineMs: number;
  };
  /** Scheduled crawls of registered sources (docs/sources.md). */
  crawl: {
    /** Run due crawls in the background of `serve` and `worker` (`serve --no-crawl` turns it off). */
    enabled: boolean;
    /** Sent with every crawl and discovery request; name your contact (CRAWL_USER_AGENT). */
    userAgent: string;
    /** Sources run at once per instance (CRAWL_CONCURRENCY). */
    concurrency: number;
    /** Between the starts of two fetches to one host, across instances (CRAWL_HOST_INTERVAL_MS). */
    hostIntervalMs: number;
    /** One fetch, headers and body (CRAWL_TIMEOUT_MS). */
    timeoutMs: number;
    /** Largest body read (CRAWL_MAX_BYTES). */
    maxBytes: number;
    /** How often an instance looks for due sources (CRAWL_TICK_MS). */
    tickMs: number;
    /** A reserved or running source's lease; a crashed instance's sources are run again after it (CRAWL_LEASE_MS). */
    leaseMs: number;
    /** First retry delay after a failure, doubled per failure (CRAWL_RETRY_MS). */
    retryBaseMs: number;
    /** Longest retry delay (CRAWL_RETRY_CAP_MS). */
    retryCapMs: number;
    /** Consecutive failures after which a source is paused (CRAWL_PAUSE_AFTER). */
    pauseAfterFailures: number;
  };
  /** Bounds that keep a stalled or down dependency from holding the process (README, "When a dependency is down"). */
  timeouts: {
    /** SIGTERM/SIGINT end the process within this long, whatever is stalled, after draining what drains (SHUTDOWN_TIMEOUT_MS). */
    shutdownMs: number;
    /** A PostgreSQL connection that has not opened in this long fails (DB_CONNECT_TIMEOUT_MS). */
    dbConnectMs: number;
    /** A PostgreSQL query without an answer in this long fails, and its connection is dropped; 0: no limit (DB_QUERY_TIMEOUT_MS). */
    dbQueryMs: number;
    /** An idle pooled PostgreSQL connection is closed after this long (DB_IDLE_TIMEOUT_MS). */
    dbIdleMs: number;
    /** A Redis connection that has not opened in this long fails (REDIS_CONNECT_TIMEOUT_MS). */
    redisConnectMs: number;
    /** A Redis command without an answer in this long fails; rate limits fall back to per instance (REDIS_COMMAND_TIMEOUT_MS). */
    redisCommandMs: number;
    /** While a dependency is down, how often the count of affected requests is logged (OUTAGE_LOG_INTERVAL_MS). */
    outageLogIntervalMs: number;
  };
  /** The bootstrap the console starts (docs/console.md, "Bootstrap"); the CLI's options take precedence. */
  bootstrap: {
    /** `NAME=URL` pairs, comma-separated: the upstreams read from a copy (BOOTSTRAP_MIRRORS; names in `leadbase bootstrap --help`). */
    mirrors: string[];
    /** The boards list read instead of the starter list (BOOTSTRAP_BOARDS). */
    boardsFile: string | undefined;
  };
  /** Bearer token of the operators' /admin API; unset, the admin API answers 404 (ADMIN_TOKEN). */
  adminToken: string | undefined;
  /** Base of served professional-network profile URLs (people domain); the public identifier is appended. */
  profileBaseUrl: string;
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}

function queueFromEnv(env: NodeJS.ProcessEnv): Config['queue'] {
  const postgres = /^postgres(ql)?:/.test(env.DATABASE_URL ?? '');
  const backend = env.QUEUE_BACKEND || (postgres ? 'pg-boss' : 'database');
  if (backend !== 'pg-boss' && backend !== 'database') throw new Error(`QUEUE_BACKEND must be pg-boss or database, got "${backend}"`);
  if (backend === 'pg-boss' && !postgres) throw new Error('QUEUE_BACKEND=pg-boss needs a postgres:// DATABASE_URL');
  return { backend, pgBossSchema: env.QUEUE_PGBOSS_SCHEMA || 'pgboss' };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: intFromEnv(env, 'PORT', 3000),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || 'sqlite:./data/leadbase.sqlite',
    redisUrl: env.REDIS_URL || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimitBytes: intFromEnv(env, 'BODY_LIMIT_BYTES', 64 * 1024),
    starterCredits: intFromEnv(env, 'STARTER_CREDITS', 100),
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    authCacheTtlMs: intFromEnv(env, 'AUTH_CACHE_TTL_MS', 5000),
    sqliteBusyTimeoutMs: intFromEnv(env, 'SQLITE_BUSY_TIMEOUT_MS', 5000),
    importLockWaitMs: intFromEnv(env, 'IMPORT_LOCK_WAIT_MS', 60_000),
    email: loadEmailConfig(env),
    queue: queueFromEnv(env),
    bulk: {
      sliceMs: Math.max(100, intFromEnv(env, 'BULK_SLICE_MS', 60_000)),
      leaseMs: Math.max(1000, intFromEnv(env, 'BULK_LEASE_MS', 120_000)),
      concurrency: Math.max(1, intFromEnv(env, 'BULK_CONCURRENCY', 200)),
      greylistRetryMs: intFromEnv(env, 'BULK_GREYLIST_RETRY_MS', 5 * 60_000),
      greylistDeadlineMs: intFromEnv(env, 'BULK_GREYLIST_DEADLINE_MS', 30 * 60_000),
    },
    crawl: {
      enabled: env.CRAWL_ENABLED !== '0' && env.CRAWL_ENABLED !== 'false',
      userAgent: env.CRAWL_USER_AGENT || 'leadbase-crawler/0.1 (operator contact not set: CRAWL_USER_AGENT)',
      concurrency: Math.max(1, intFromEnv(env, 'CRAWL_CONCURRENCY', 8)),
      hostIntervalMs: intFromEnv(env, 'CRAWL_HOST_INTERVAL_MS', 1000),
      timeoutMs: Math.max(100, intFromEnv(env, 'CRAWL_TIMEOUT_MS', 15_000)),
      maxBytes: Math.max(1024, intFromEnv(env, 'CRAWL_MAX_BYTES', 50 * 1024 * 1024)),
      tickMs: Math.max(20, intFromEnv(env, 'CRAWL_TICK_MS', 5000)),
      leaseMs: Math.max(1000, intFromEnv(env, 'CRAWL_LEASE_MS', 300_000)),
      retryBaseMs: Math.max(1, intFromEnv(env, 'CRAWL_RETRY_MS', 60_000)),
      retryCapMs: Math.max(1, intFromEnv(env, 'CRAWL_RETRY_CAP_MS', 6 * 3_600_000)),
      pauseAfterFailures: Math.max(1, intFromEnv(env, 'CRAWL_PAUSE_AFTER', 10)),
    },
    timeouts: {
      shutdownMs: Math.max(100, intFromEnv(env, 'SHUTDOWN_TIMEOUT_MS', 10_000)),
      dbConnectMs: Math.max(100, intFromEnv(env, 'DB_CONNECT_TIMEOUT_MS', 3000)),
      dbQueryMs: intFromEnv(env, 'DB_QUERY_TIMEOUT_MS', 30_000),
      dbIdleMs: Math.max(100, intFromEnv(env, 'DB_IDLE_TIMEOUT_MS', 30_000)),
      redisConnectMs: Math.max(100, intFromEnv(env, 'REDIS_CONNECT_TIMEOUT_MS', 3000)),
      redisCommandMs: Math.max(10, intFromEnv(env, 'REDIS_COMMAND_TIMEOUT_MS', 1000)),
      outageLogIntervalMs: Math.max(100, intFromEnv(env, 'OUTAGE_LOG_INTERVAL_MS', 10_000)),
    },
    bootstrap: {
      mirrors: (env.BOOTSTRAP_MIRRORS ?? '')
        .split(',')
        .map((pair) => pair.trim())
        .filter(Boolean),
      boardsFile: env.BOOTSTRAP_BOARDS || undefined,
    },
    adminToken: env.ADMIN_TOKEN || undefined,
    profileBaseUrl: env.PROFILE_BASE_URL || 'https://www.linkedin.com/in/',
  };
}
