import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

/** Liveness and readiness for load balancers and orchestrators (no key needed). */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const checks: Record<string, string> = {};
    try {
      await sql`select 1`.execute(app.services.db);
      checks.database = 'ok';
    } catch (error) {
      checks.database = `error: ${(error as Error).message}`;
    }
    if (app.services.redis) {
      try {
        await app.services.redis.ping();
        checks.redis = 'ok';
      } catch (error) {
        checks.redis = `error: ${(error as Error).message}`;
      }
    }
    const ready = Object.values(checks).every((v) => v === 'ok');
    reply.status(ready ? 200 : 503);
    return ready ? { status: 'ready', checks } : { error: 'unavailable', message: 'Not ready.', checks };
  });
}
