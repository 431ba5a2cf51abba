import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

/** X-API-Key on every route marked `config.auth` (Node lower-cases header names, so any case matches). */
async function authPlugin(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config.auth) return;
    const header = request.headers['x-api-key'];
    const presented = Array.isArray(header) ? header[0] : header;
    if (!presented || presented.trim() === '') {
      throw new AppError(401, 'missing_api_key', 'Missing API key: send it in the X-API-Key header.');
    }
    const key = await app.services.keys.authenticate(presented.trim());
    if (!key) throw new AppError(401, 'invalid_api_key', 'Invalid API key: it is unknown or has been revoked.');
    request.apiKey = key;
  });
}

export default fp(authPlugin, { name: 'auth', dependencies: ['errors'] });
