import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../../operations/errors.ts';
import type { CircuitBreaker } from '../../db/breaker.ts';
import { RATE_LIMITS_PER_MINUTE } from '../../operations/catalogue.ts';

export interface RateLimitOptions {
  /** Shared budget across instances when set; otherwise each instance counts in memory. */
  redis?: Redis;
  /** Redis key namespace (tests use their own so parallel suites do not share budgets). */
  namespace?: string;
  /** Per-operation overrides of RATE_LIMITS_PER_MINUTE. */
  limits?: Record<string, number>;
  /** Called for every refusal (metrics). */
  onRefused?: (operation: string) => void;
  /** Redis's circuit breaker: while it is open, limits are counted in memory without asking Redis. */
  breaker?: CircuitBreaker;
  /** Called for every request counted in memory because Redis is unavailable (the outage's count). */
  onFallback?: (error: unknown) => void;
}

const WINDOW_SECONDS = 60;

/** What a limiter answered: how many requests remain in the window and when it resets. */
interface Verdict {
  allowed: boolean;
  remaining: number;
  msBeforeNext: number;
}

/**
 * Fixed one-minute windows per key and operation, in this process's memory: the same counting as
 * rate-limiter-flexible's memory limiter (which still backs the Redis one when Redis is away), but
 * answered synchronously, so a request of a single-instance server takes no promise for it.
 */
class MemoryWindows {
  private readonly windows = new Map<string, { used: number; resetAt: number }>();
  private sweepAt = 0;

  consume(key: string, limit: number, now = Date.now()): Verdict {
    if (now >= this.sweepAt) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { used: 0, resetAt: now + WINDOW_SECONDS * 1000 };
      this.windows.set(key, window);
    }
    window.used++;
    return { allowed: window.used <= limit, remaining: limit - window.used, msBeforeNext: window.resetAt - now };
  }

  /** Drops ended windows once a minute, so keys seen once do not stay forever. */
  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.sweepAt = now + WINDOW_SECONDS * 1000;
  }
}

function setHeaders(
  reply: { header(name: string, value: string | number): unknown },
  limit: number,
  remaining: number,
  resetSeconds: number,
) {
  // Lower-case names as written: Fastify lower-cases every name it is given, and a name it has to
  // change is a new string on every request, where these are the same six each time.
  const left = Math.max(0, remaining);
  reply.header('ratelimit-limit', limit);
  reply.header('ratelimit-remaining', left);
  reply.header('ratelimit-reset', resetSeconds);
  reply.header('x-ratelimit-limit', limit);
  reply.header('x-ratelimit-remaining', left);
  reply.header('x-ratelimit-reset', resetSeconds);
}

async function rateLimitPlugin(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const limits: Record<string, number> = { ...RATE_LIMITS_PER_MINUTE, ...options.limits };

  // Every authenticated route names an operation with a limit: a route without one is a mistake
  // found at start-up, never a route that is silently unlimited.
  app.addHook('onRoute', (route) => {
    const config = route.config as { auth?: boolean; operation?: string } | undefined;
    if (config?.auth && !(config.operation && limits[config.operation])) {
      throw new Error(
        `route ${String(route.method)} ${route.url} has no rate limit: its operation "${config.operation}" is not in src/operations/catalogue.ts`,
      );
    }
  });
  const namespace = options.namespace ?? 'leadbase';
  const memory = new MemoryWindows();
  const limiters = new Map<string, RateLimiterAbstract>();

  // Shared budget: one limiter per (operation, limit), so keys granted a higher limit count in a
  // budget of that size. If Redis is unreachable, it keeps limiting per instance rather than failing
  // (consumeOrFallBack), in the same windows as a server without Redis.
  function redisLimiter(redis: Redis, operation: string, points: number): RateLimiterAbstract {
    const id = `${operation}:${points}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      const keyPrefix = `${namespace}:rl:${operation}`;
      limiter = new RateLimiterRedis({
        storeClient: redis,
        keyPrefix,
        points,
        duration: WINDOW_SECONDS,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  }

  function consumeShared(redis: Redis, operation: string, keyId: string, limit: number): Promise<Verdict> {
    return redisLimiter(redis, operation, limit)
      .consume(keyId, 1)
      .then(
        (res) => ({ allowed: true, remaining: res.remainingPoints, msBeforeNext: res.msBeforeNext }),
        (rejection: unknown) => {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          return { allowed: false, remaining: 0, msBeforeNext: rejection.msBeforeNext };
        },
      );
  }

  function answer(reply: FastifyReply, operation: string, limit: number, verdict: Verdict): AppError | undefined {
    if (verdict.allowed) {
      setHeaders(reply, limit, verdict.remaining, Math.ceil(verdict.msBeforeNext / 1000));
      return undefined;
    }
    const resetSeconds = Math.max(1, Math.ceil(verdict.msBeforeNext / 1000));
    setHeaders(reply, limit, 0, resetSeconds);
    options.onRefused?.(operation);
    return new AppError(
      429,
      'rate_limited',
      `Rate limit of ${limit} requests per minute exceeded for ${operation}; retry in ${resetSeconds} s.`,
      undefined,
      {
        'Retry-After': String(resetSeconds),
      },
    );
  }

  function consumeOrFallBack(redis: Redis, operation: string, keyId: string, limit: number): Promise<Verdict> {
    const breaker = options.breaker;
    const shared = breaker
      ? breaker.run(() => consumeShared(redis, operation, keyId, limit))
      : consumeShared(redis, operation, keyId, limit);
    // Any Redis failure (not only a lost connection: an out-of-memory Redis too) counts in memory, as
    // the insurance limiter of rate-limiter-flexible would; the breaker counts only the lost ones.
    return shared.catch((error: unknown) => {
      options.onFallback?.(error);
      return memory.consume(`${operation}:${limit}:${keyId}`, limit);
    });
  }

  // Callback style: without Redis the verdict is synchronous and the request continues at once.
  app.addHook('onRequest', (request, reply, done) => {
    const { auth, operation } = request.routeOptions.config;
    if (!auth || !operation || !request.apiKey) return done();
    const limit = request.apiKey.rateLimits?.[operation] ?? limits[operation];
    const keyId = String(request.apiKey.id);
    if (!options.redis) return done(answer(reply, operation, limit, memory.consume(`${operation}:${limit}:${keyId}`, limit)));
    consumeOrFallBack(options.redis, operation, keyId, limit).then((verdict) => done(answer(reply, operation, limit, verdict)), done);
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit', dependencies: ['auth'] });
