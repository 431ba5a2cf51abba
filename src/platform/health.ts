import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.ts';
import type { Logger } from './logger.ts';
import type { OutageLog } from './outage-log.ts';

export type DependencyState = 'ok' | 'unavailable';

export interface Health {
  /**
   * ready: all answer. degraded: Redis, the background queue or the DNS resolver is down; requests
   * are still served (rate limits counted per instance; background work waits; validations that
   * would rest on the resolver are unknown), so a load balancer should keep the instance. unavailable: the database is down.
   */
  status: 'ready' | 'degraded' | 'unavailable';
  database: DependencyState;
  /** Whether the background queue can take and hand out work (absent where no queue is given). */
  queue?: DependencyState;
  /** Absent when the instance runs without Redis (embedded mode). */
  redis?: DependencyState;
  /**
   * The email engine's DNS resolver: unavailable while it denies a name that exists (the canary,
   * EMAIL_DNS_CANARY; docs/email.md). Validations are still served, answered unknown where they would
   * rest on its NXDOMAIN, so the instance is degraded, not unavailable.
   */
  dns?: DependencyState;
}

/** A check that has not answered in this long counts as unavailable (a load balancer polls often). */
const CHECK_TIMEOUT_MS = 1500;

interface HealthDeps {
  db: Db;
  redis?: Redis;
  queue?: { check(): Promise<void> };
  /** The email engine's view of its resolver (it asks the canary only when it has seen it failing). */
  dns?: () => Promise<DependencyState>;
  logger?: Logger;
  /** A check of a dependency already in a logged outage is not logged again on every poll. */
  outages?: OutageLog;
}

async function probe(name: string, check: () => Promise<unknown>, deps: HealthDeps): Promise<DependencyState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch (error) {
    // The reason is for the operator's log only: the unauthenticated endpoint says just "unavailable".
    if (!deps.outages?.isDown(name))
      deps.logger?.warn({ dependency: name, err: { message: (error as Error).message } }, 'health check failed');
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(deps: HealthDeps): Promise<Health> {
  const [database, redis, queue, dns] = await Promise.all([
    probe('database', () => sql`select 1`.execute(deps.db), deps),
    deps.redis ? probe('redis', () => deps.redis!.ping(), deps) : undefined,
    deps.queue ? probe('queue', () => deps.queue!.check(), deps) : undefined,
    // The engine logs the resolver's failure and recovery itself (once each), not at every poll.
    deps.dns
      ? probe(
          'dns',
          async () => ((await deps.dns!()) === 'ok' ? undefined : Promise.reject(new Error('DNS resolver denies the canary name'))),
          { ...deps, logger: undefined },
        )
      : undefined,
  ]);
  const degraded = redis === 'unavailable' || queue === 'unavailable' || dns === 'unavailable';
  const status = database !== 'ok' ? 'unavailable' : degraded ? 'degraded' : 'ready';
  return { status, database, ...(redis ? { redis } : {}), ...(queue ? { queue } : {}), ...(dns ? { dns } : {}) };
}
