import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './platform/config.ts';
import type { Db, DialectName } from './db/database.ts';
import { KeyService } from './keys/service.ts';
import { BillingService } from './billing/service.ts';
import { LookupService } from './lookups/service.ts';
import { CompanyService } from './companies/service.ts';
import { PeopleService } from './people/service.ts';
import { JobService } from './jobs/service.ts';
import { createEmailValidationService, type EmailValidationService } from './email/service.ts';
import type { EmailOverrides } from './email/config.ts';
import { createProbeLimits } from './email/limits-backend.ts';
import { IdempotencyStore } from './billing/idempotency.ts';
import { checkHealth, type Health } from './platform/health.ts';
import { DatabaseQueue } from './queue/database-queue.ts';
import { PgBossQueue } from './queue/pgboss-queue.ts';
import type { JobQueue } from './queue/types.ts';
import { BulkValidationService, completionPayload } from './email/bulk.ts';
import { WebhookSender } from './net/webhooks.ts';
import { BulkJobService, isRowsJob } from './bulk/service.ts';
import { bulkProducts } from './operations/bulk-products.ts';
import { HttpClient } from './net/http-client.ts';
import { RobotsRules } from './net/robots.ts';
import { HostPoliteness } from './sources/politeness.ts';
import { SourceRegistry } from './sources/registry.ts';
import { SourceRunner } from './sources/runner.ts';
import { CrawlScheduler } from './sources/scheduler.ts';
import { BootstrapRuns } from './sources/bootstrap-runs.ts';
import type { CircuitBreaker } from './db/breaker.ts';
import { isUnavailable } from './db/unavailable.ts';
import { OutageLog } from './platform/outage-log.ts';

export interface ServiceDeps {
  db: Db;
  dialect: DialectName;
  config: Config;
  redis?: Redis;
  logger?: Logger;
  /** Overrides of the EMAIL_* settings (tests: fake DNS server, SMTP port, loopback allowed). */
  email?: EmailOverrides;
  /** The background queue (tests give pg-boss a schema of their own); built from the config otherwise. */
  queue?: JobQueue;
  /** Pacing of bulk jobs (tests shorten the wait of a job paused for credits). */
  bulk?: {
    pausedCheckMs?: number;
    concurrency?: number;
    /** Runs of one slice in all before its job fails (default 20). */
    runAttempts?: number;
    /** Wait before a failed run is tried again, doubled each time (default 1 s). */
    retryDelayMs?: number;
    /** A product job's event stream: how often it reads the job and sends a heartbeat. */
    streamTiming?: { pollMs?: number; heartbeatMs?: number };
  };
  /** Run background work (greylist re-checks, bulk validation jobs, due crawls); false for a CLI command. Default true. */
  background?: boolean;
  /** Where outages are logged (once at start, a count per interval, once at end); made from the logger otherwise. */
  outages?: OutageLog;
  /** The database's circuit breaker (the server's and worker's PostgreSQL pool): pg-boss's pool shares it. */
  databaseBreaker?: CircuitBreaker;
  /** Redis's circuit breaker: rate limits count per instance while it is open. */
  redisBreaker?: CircuitBreaker;
  /** TEST ONLY: hosts (`host:port`) crawls and discovery may reach on loopback or private addresses. */
  crawlAllowPrivateHosts?: readonly string[];
}

/** Everything the HTTP layer and the CLI call. Each domain adds its service here. */
export interface Services {
  db: Db;
  dialect: DialectName;
  redis?: Redis;
  keys: KeyService;
  billing: BillingService;
  lookups: LookupService;
  companies: CompanyService;
  people: PeopleService;
  jobs: JobService;
  email: EmailValidationService;
  /** Bulk validation jobs, worked by the queue. */
  bulk: BulkValidationService;
  /** Bulk jobs of every product (docs/bulk.md), worked off the same queue. */
  bulkJobs: BulkJobService;
  /** Background work: pg-boss on PostgreSQL, the embedded queue in the application database otherwise. */
  queue: JobQueue;
  idempotency: IdempotencyStore;
  /** The sources registry, the crawls that keep them fresh, and the bootstrap the console starts. */
  sources: { registry: SourceRegistry; scheduler: CrawlScheduler; http: HttpClient; robots: RobotsRules; bootstrap: BootstrapRuns };
  /** Outages of the database, Redis and the queue, logged once at start, as a count per interval, once at end. */
  outages: OutageLog;
  /** Redis's circuit breaker, when Redis is used. */
  redisBreaker?: CircuitBreaker;
  /** Whether the database, Redis and the queue answer now (for /readyz); never throws. */
  health(): Promise<Health>;
  /** Stops background work (timers, queues) before the database closes. */
  close(): Promise<void>;
}

/** The composition root: builds every domain service from the storage handles and configuration. */
export function createServices(deps: ServiceDeps): Services {
  const companies = new CompanyService({ db: deps.db });
  const email = createEmailValidationService({
    db: deps.db,
    dialect: deps.dialect,
    settings: deps.config.email,
    config: deps.email,
    fetchText: deps.email?.fetchText,
    logger: deps.logger,
    recheckWorker: deps.background,
    // Counted with every instance sharing this Redis or database (docs/email.md, "Safety").
    limits: (settings) => createProbeLimits(settings, { db: deps.db, dialect: deps.dialect, redis: deps.redis, logger: deps.logger }),
    enrichmentByDomain: (domain) => companies.enrichmentByDomain(domain),
  });
  const outages = deps.outages ?? new OutageLog({ logger: deps.logger, intervalMs: deps.config.timeouts.outageLogIntervalMs });
  // Every worker's poll fails while the database is away: counted into one outage, not a line each.
  const queueError = (error: unknown) =>
    isUnavailable(error)
      ? outages.refused('queue', error)
      : deps.logger?.warn({ err: { message: (error as Error).message } }, 'background queue: an operation failed, retrying');
  const timeouts = deps.config.timeouts;
  const queue =
    deps.queue ??
    (deps.config.queue.backend === 'pg-boss'
      ? new PgBossQueue({
          connectionString: deps.config.databaseUrl,
          schema: deps.config.queue.pgBossSchema,
          onError: queueError,
          timeouts: { connectMs: timeouts.dbConnectMs, queryMs: timeouts.dbQueryMs, idleMs: timeouts.dbIdleMs },
          breaker: deps.databaseBreaker,
        })
      : new DatabaseQueue({ db: deps.db, onError: queueError }));
  const keys = new KeyService(deps.db, { authCacheTtlMs: deps.config.authCacheTtlMs });
  const webhooks = new WebhookSender({
    queue,
    logger: deps.logger,
    secretOf: async (keyId) => (await keys.webhookSecret(keyId)) ?? '',
    // The same test-only switch as the prober's: private receivers only where private MX hosts are allowed.
    allowPrivate: deps.email?.allowPrivateMx,
  });
  const bulk = new BulkValidationService({
    db: deps.db,
    validator: email,
    queue,
    onFinished: (job) => webhooks.announce(job.keyId, job.webhookUrl, completionPayload(job)),
    ...deps.config.bulk,
    ...deps.bulk,
  });
  const people = new PeopleService({ db: deps.db, companies, emailValidator: email, profileBaseUrl: deps.config.profileBaseUrl });
  const jobs = new JobService({
    db: deps.db,
    companies,
    writeRetry: { maxWaitMs: deps.config.importLockWaitMs },
    search: { logger: deps.logger },
  });
  // A row of a product is answered by the same calls as its single request, over these domain
  // services; its schemas are compiled when the first bulk job runs.
  let products: ReturnType<typeof bulkProducts> | undefined;
  const bulkJobs = new BulkJobService({
    db: deps.db,
    queue,
    products: () => (products ??= bulkProducts({ companies, email, people, jobs })),
    sliceMs: deps.config.bulk.sliceMs,
    pausedCheckMs: deps.bulk?.pausedCheckMs,
    runAttempts: deps.bulk?.runAttempts,
    retryDelayMs: deps.bulk?.retryDelayMs,
    streamTiming: deps.bulk?.streamTiming,
    // The same signed, retried, SSRF-guarded deliveries as the validation lists' completion webhook.
    announce: (keyId, url, payload) => webhooks.announce(keyId, url, payload),
  });
  const crawl = deps.config.crawl;
  const http = new HttpClient({
    userAgent: crawl.userAgent,
    timeoutMs: crawl.timeoutMs,
    maxBytes: crawl.maxBytes,
    allowPrivateHosts: deps.crawlAllowPrivateHosts,
  });
  const robots = new RobotsRules(http);
  const scheduler = new CrawlScheduler({
    db: deps.db,
    queue,
    logger: deps.logger,
    settings: crawl,
    mergeIndex: () => jobs.mergeStagedIndex(),
    runner: new SourceRunner({
      db: deps.db,
      http,
      robots,
      politeness: new HostPoliteness({ db: deps.db, minIntervalMs: crawl.hostIntervalMs, holdMs: crawl.timeoutMs * 4 }),
      jobs,
      companies,
      people,
    }),
  });
  const registry = new SourceRegistry({
    db: deps.db,
    companyIdByDomain: async (domain) => (await companies.findByDomain(domain))?.id ?? null,
  });
  const bootstrap = new BootstrapRuns({
    db: deps.db,
    registry,
    scheduler,
    companies,
    jobs,
    people,
    http,
    robots,
    mirrors: deps.config.bootstrap.mirrors,
    boardsFile: deps.config.bootstrap.boardsFile,
    concurrency: crawl.concurrency,
  });
  // Workers only where background work runs (the server, `leadbase worker`); a CLI command queues jobs for it.
  const closing = new AbortController();
  const working =
    deps.background === false
      ? Promise.resolve()
      : startWorkers([
          () => bulk.startWorker(2, { accepts: isRowsJob, run: (job, signal) => bulkJobs.run(job, signal) }),
          () => webhooks.startWorker(),
          ...(crawl.enabled ? [() => scheduler.start()] : []),
        ]);
  /** Starts each worker once; one that cannot start (the database unreachable) is tried again, at most 5 s apart, until close. */
  async function startWorkers(starts: (() => Promise<void>)[]): Promise<void> {
    for (const start of starts) {
      for (let attempt = 1; !closing.signal.aborted; attempt++) {
        try {
          await start();
          break;
        } catch (error) {
          if (isUnavailable(error)) outages.refused('queue', error);
          else
            deps.logger?.error({ err: { message: (error as Error).message }, attempt }, 'a background worker did not start; trying again');
          await sleep(Math.min(5000, 1000 * attempt), undefined, { signal: closing.signal }).catch(() => {});
        }
      }
    }
  }
  return {
    db: deps.db,
    dialect: deps.dialect,
    redis: deps.redis,
    keys,
    billing: new BillingService(deps.db),
    lookups: new LookupService(deps.db),
    companies,
    jobs,
    sources: { registry, scheduler, http, robots, bootstrap },
    email,
    bulk,
    bulkJobs,
    queue,
    idempotency: new IdempotencyStore(deps.db),
    outages,
    redisBreaker: deps.redisBreaker,
    health: () => checkHealth({ db: deps.db, redis: deps.redis, queue, dns: () => email.dnsState(), logger: deps.logger, outages }),
    people,
    close: async () => {
      closing.abort();
      await working;
      await bootstrap.close();
      await scheduler.stop();
      // Running bulk slices are aborted and put back for the next start; then the engine's timers.
      await queue.stop();
      await email.close();
      await jobs.close();
      await http.close();
      outages.close();
    },
  };
}
