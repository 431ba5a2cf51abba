import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { Db } from './db/database.ts';
import type { Logger } from './logger.ts';

export type DependencyState = 'ok' | 'unavailable';

export interface Health {
  /**
   * ready: all answer. degraded: Redis is down; requests are still served, with rate limits counted
   * per instance, so a load balancer should keep the instance. unavailable: the database is down.
   */
  status: 'ready' | 'degraded' | 'unavailable';
  database: DependencyState;
  /** Absent when the instance runs without Redis (embedded mode). */
  redis?: DependencyState;
}

/** A check that has not answered in this long counts as unavailable (a load balancer polls often). */
const CHECK_TIMEOUT_MS = 1500;

async function probe(name: string, check: () => Promise<unknown>, logger?: Logger): Promise<DependencyState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch (error) {
    // The reason is for the operator's log only: the unauthenticated endpoint says just "unavailable".
    logger?.warn({ dependency: name, err: { message: (error as Error).message } }, 'health check failed');
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(deps: { db: Db; redis?: Redis; logger?: Logger }): Promise<Health> {
  const [database, redis] = await Promise.all([
    probe('database', () => sql`select 1`.execute(deps.db), deps.logger),
    deps.redis ? probe('redis', () => deps.redis!.ping(), deps.logger) : undefined,
  ]);
  const status = database !== 'ok' ? 'unavailable' : redis === 'unavailable' ? 'degraded' : 'ready';
  return { status, database, ...(redis ? { redis } : {}) };
}
