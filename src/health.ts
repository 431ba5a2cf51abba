import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { Db } from './db/database.ts';
import type { Logger } from './logger.ts';
import type { OutageLog } from './outage-log.ts';

export type DependencyState = 'ok' | 'unavailable';

export interface Health {
  /**
   * ready: all answer. degraded: Redis or the background queue is down; requests are still served
   * (rate limits counted per instance; background work waits), so a load balancer should keep the
   * instance. unavailable: the database is down.
   */
  status: 'ready' | 'degraded' | 'unavailable';
  database: DependencyState;
  /** Whether the background queue can take and hand out work (absent where no queue is given). */
  queue?: DependencyState;
  /** Absent when the instance runs without Redis (embedded mode). */
  redis?: DependencyState;
}

/** A check that has not answered in this long counts as unavailable (a load balancer polls often). */
const CHECK_TIMEOUT_MS = 1500;

interface HealthDeps {
  db: Db;
  redis?: Redis;
  queue?: { check(): Promise<void> };
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
  const [database, redis, queue] = await Promise.all([
    probe('database', () => sql`select 1`.execute(deps.db), deps),
    deps.redis ? probe('redis', () => deps.redis!.ping(), deps) : undefined,
    deps.queue ? probe('queue', () => deps.queue!.check(), deps) : undefined,
  ]);
  const status = database !== 'ok' ? 'unavailable' : redis === 'unavailable' || queue === 'unavailable' ? 'degraded' : 'ready';
  return { status, database, ...(redis ? { redis } : {}), ...(queue ? { queue } : {}) };
}
