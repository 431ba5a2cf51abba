import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db, DialectName } from './db/database.ts';
import { KeyService } from './keys/service.ts';
import { BillingService } from './billing/service.ts';
import { LookupService } from './lookups/service.ts';
import { CompanyService } from './companies/service.ts';
import { PeopleService } from './people/service.ts';
import { JobService } from './jobs/service.ts';
import { createEmailValidationService, type EmailValidationService } from './email/service.ts';
import type { EmailOverrides } from './email/config.ts';
import { IdempotencyStore } from './billing/idempotency.ts';
import { checkHealth, type Health } from './health.ts';

export interface ServiceDeps {
  db: Db;
  dialect: DialectName;
  config: Config;
  redis?: Redis;
  logger?: Logger;
  /** Overrides of the EMAIL_* settings (tests: fake DNS server, SMTP port, loopback allowed). */
  email?: EmailOverrides;
  /** Run background work (the email engine's greylist re-checks); false for a CLI command. Default true. */
  background?: boolean;
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
  idempotency: IdempotencyStore;
  /** Whether the database and Redis answer now (for /readyz); never throws. */
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
    enrichmentByDomain: (domain) => companies.enrichmentByDomain(domain),
  });
  return {
    db: deps.db,
    dialect: deps.dialect,
    redis: deps.redis,
    keys: new KeyService(deps.db, { authCacheTtlMs: deps.config.authCacheTtlMs }),
    billing: new BillingService(deps.db),
    lookups: new LookupService(deps.db),
    companies,
    jobs: new JobService({ db: deps.db, companies, writeRetry: { maxWaitMs: deps.config.importLockWaitMs } }),
    email,
    idempotency: new IdempotencyStore(deps.db),
    health: () => checkHealth({ db: deps.db, redis: deps.redis, logger: deps.logger }),
    people: new PeopleService({ db: deps.db, companies, emailValidator: email, profileBaseUrl: deps.config.profileBaseUrl }),
    // The email engine is the one service with background work (greylist re-checks).
    close: () => email.close(),
  };
}
