import type { FastifyInstance } from 'fastify';
import { RETRY_AFTER_SECONDS } from '../../../db/unavailable.ts';

/**
 * Liveness and readiness for load balancers and orchestrators (no key needed). /readyz says only
 * "ok" or "unavailable" per dependency; why a check failed goes to the log, never to the caller.
 */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const { status, ...checks } = await app.services.health();
    if (status === 'unavailable') {
      reply.status(503).header('Retry-After', String(RETRY_AFTER_SECONDS));
      return { error: 'unavailable', message: 'Not ready: the database is unavailable.', checks };
    }
    return { status, checks };
  });
}
