import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/**
 * OpenAPI 3.1 generated from the routes' TypeBox schemas, served at /openapi.json, and a docs page
 * at /docs whose assets are served from node_modules (works with no internet).
 */
async function docsPlugin(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'leadbase API',
        version: '1.0.0',
        description:
          'Prepaid-credit data API for B2B sales prospecting. Every data endpoint needs the X-API-Key header. ' +
          'Errors are {"error", "message", "details"?}. Charged responses carry X-Credits-Cost and X-Credits-Remaining; ' +
          'every authenticated response carries RateLimit-* headers. POST requests accept an Idempotency-Key header.',
      },
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      },
      security: [{ apiKey: [] }],
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: false, validatorUrl: null },
    staticCSP: true,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

export default fp(docsPlugin, { name: 'docs' });
