// Which store the probe limits are counted in (EMAIL_PROBE_LIMITS, docs/email.md "Safety"): Redis
// when the deployment has it, else PostgreSQL, so instances sharing either share their limits. A
// SQLite deployment is one instance as a rule, and its one connection is the bulk writer's too:
// there limits count in the process unless EMAIL_PROBE_LIMITS=database asks for the shared table
// (several processes on one SQLite file). "local" keeps per-process counting anywhere.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Db, DialectName } from '../db/database.ts';
import type { EmailConfig } from './config.ts';
import { DatabaseLeaseStore } from './lease-store-db.ts';
import { RedisLeaseStore } from './lease-store-redis.ts';
import { limitSettings, LocalProbeLimits, type ProbeLimits } from './probe-limits.ts';
import { SharedProbeLimits } from './shared-limits.ts';

export interface LimitsBackendDeps {
  db: Db;
  dialect: DialectName;
  redis?: Redis;
  logger?: Logger;
}

export function createProbeLimits(config: EmailConfig, deps: LimitsBackendDeps): ProbeLimits {
  const settings = limitSettings(config);
  let kind = config.probeLimits;
  if (kind === 'auto') kind = deps.redis ? 'redis' : deps.dialect === 'postgres' ? 'database' : 'local';
  if (kind === 'redis' && !deps.redis) throw new Error('EMAIL_PROBE_LIMITS=redis needs REDIS_URL');
  if (kind === 'local') return new LocalProbeLimits(settings);
  const store =
    kind === 'redis' ? new RedisLeaseStore(deps.redis!, config.probeLimitsNamespace) : new DatabaseLeaseStore(deps.db, deps.dialect);
  return new SharedProbeLimits({ ...settings, store, leaseTtlMs: config.probeLeaseTtlMs, logger: deps.logger });
}
