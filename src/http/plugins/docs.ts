import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ADMIN_SECURITY_SCHEMES, ADMIN_TAG } from '../../contract/admin.ts';

/** The docs page's wordmark. */
const LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="32" viewBox="0 0 150 32">' +
    '<text x="0" y="24" font-family="Helvetica, Arial, sans-serif" font-size="24" font-weight="700" fill="#ffffff">leadbase</text></svg>',
);

/** The tab's icon: an "l" on our colour. */
const FAVICON = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f6feb"/>' +
    '<text x="11" y="25" font-family="Helvetica, Arial, sans-serif" font-size="24" font-weight="700" fill="#ffffff">l</text></svg>',
);

/**
 * The groups of /docs, in the order the page shows them: Swagger UI lists the document's declared
 * tags first, in this order, then any other. The customers' operations come first; the 39 admin
 * operations (the console's API, for operators) last, or a customer opening /docs would scroll past
 * them to find /email-validate. Every tag an operation carries is declared here (test/http/openapi.test.ts).
 */
const DOCS_TAGS: { name: string; description: string }[] = [
  { name: 'email', description: 'Email validation (one address, or a list as a background job) and the email finder' },
  { name: 'people', description: 'People: roles, mobiles, profiles, emails, job changes, people and employee search' },
  { name: 'companies', description: 'Companies: profile, funding, competitors, technographics' },
  { name: 'jobs', description: 'Job listings search' },
  { name: 'bulk', description: 'Lists of rows of one product answered as a background job, each row charged as its single call' },
  { name: 'lookups', description: 'The id lists the jobs filters take (free)' },
  { name: 'account', description: "The calling key's balance (free)" },
  { name: 'leadmagic-v1', description: "LeadMagic's v1 paths, each one of the operations above in LeadMagic's shapes" },
  { name: 'mcp', description: 'The operations as tools of the Model Context Protocol' },
  ADMIN_TAG,
];

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
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Prepaid-credit data API for B2B sales prospecting. Every data endpoint needs the X-API-Key header. ' +
          'Errors are {"error", "message", "details"?}. Charged responses carry X-Credits-Cost and X-Credits-Remaining; ' +
          'every authenticated response carries RateLimit-* headers. POST requests accept an Idempotency-Key header.',
      },
      // Relative: the document describes the server that serves it.
      servers: [{ url: '/', description: 'This leadbase server' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Your API key (leadbase keys create)' },
          ...ADMIN_SECURITY_SCHEMES,
        },
      },
      security: [{ apiKey: [] }],
      tags: DOCS_TAGS,
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: false, validatorUrl: null },
    staticCSP: true,
    // Our name on the page, not the framework's logo.
    logo: { type: 'image/svg+xml', content: LOGO, href: '/docs' },
    theme: {
      title: 'leadbase API',
      favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: FAVICON }],
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

export default fp(docsPlugin, { name: 'docs' });
