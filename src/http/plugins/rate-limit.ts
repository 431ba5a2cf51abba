import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors.ts';
import { RATE_LIMITS_PER_MINUTE } from '../operations.ts';

export interface RateLimitOptions {
  /** Shared budget across instances when set; otherwise each instance counts in memory. */
  redis?: Redis;
  /** Redis key namespace (tests use their own so parallel suites do not share budgets). */
  namespace?: string;
  /** Per-operation overrides of RATE_LIMITS_PER_MINUTE. */
  limits?: Record<string, number>;
  /** Called for every refusal (metrics). */
  onRefused?: (operation: string) => void;
}

const WINDOW_SECONDS = 60;

function setHeaders(
  reply: { header(name: string, value: string | number): unknown },
  limit: number,
  remaining: number,
  resetSeconds: number,
) {
  for (const prefix of ['', 'X-']) {
    reply.header(`${prefix}RateLimit-Limit`, limit);
    reply.header(`${prefix}RateLimit-Remaining`, Math.max(0, remaining));
    reply.header(`${prefix}RateLimit-Reset`, resetSeconds);
  }
}

async function rateLimitPlugin(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const limits: Record<string, number> = { ...RATE_LIMITS_PER_MINUTE, ...options.limits };

  // Every authenticated route names an operation with a limit: a route without one is a mistake
  // found at start-up, never a route that is silently unlimited.
  app.addHook('onRoute', (route) => {
    const config = route.config as { auth?: boolean; operation?: string } | undefined;
    if (config?.auth && !(config.operation && limits[config.operation])) {
      throw new Error(
        `route ${String(route.method)} ${route.url} has no rate limit: its operation "${config.operation}" is not in src/http/operations.ts`,
      );
    }
  });
  const namespace = options.namespace ?? 'leadbase';
  const limiters = new Map<string, RateLimiterAbstract>();

  // One limiter per (operation, limit): keys granted a higher limit count in a budget of that size.
  function limiterFor(operation: string, points: number): RateLimiterAbstract {
    const id = `${operation}:${points}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      const memory = new RateLimiterMemory({ keyPrefix: `${namespace}:rl:${operation}`, points, duration: WINDOW_SECONDS });
      limiter = options.redis
        ? new RateLimiterRedis({
            storeClient: options.redis,
            keyPrefix: `${namespace}:rl:${operation}`,
            points,
            duration: WINDOW_SECONDS,
            // If Redis is unreachable, keep limiting per instance rather than failing requests.
            insuranceLimiter: memory,
          })
        : memory;
      limiters.set(id, limiter);
    }
    return limiter;
  }

  app.addHook('onRequest', async (request, reply) => {
    const { auth, operation } = request.routeOptions.config;
    if (!auth || !operation || !request.apiKey) return;
    const limit = request.apiKey.rateLimits?.[operation] ?? limits[operation];
    try {
      const res = await limiterFor(operation, limit).consume(String(request.apiKey.id), 1);
      setHeaders(reply, limit, res.remainingPoints, Math.ceil(res.msBeforeNext / 1000));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const resetSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      setHeaders(reply, limit, 0, resetSeconds);
      options.onRefused?.(operation);
      throw new AppError(
        429,
        'rate_limited',
        `Rate limit of ${limit} requests per minute exceeded for ${operation}; retry in ${resetSeconds} s.`,
        undefined,
        {
          'Retry-After': String(resetSeconds),
        },
      );
    }
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit', dependencies: ['auth'] });
