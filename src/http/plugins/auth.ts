import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

/** X-API-Key on every route marked `config.auth` (Node lower-cases header names, so any case matches). */
async function authPlugin(app: FastifyInstance): Promise<void> {
  // Callback style: the common case (a recently seen key) completes without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.routeOptions.config.auth) return done();
    const header = request.headers['x-api-key'];
    const presented = (Array.isArray(header) ? header[0] : header)?.trim();
    if (!presented) return done(new AppError(401, 'missing_api_key', 'Missing API key: send it in the X-API-Key header.'));
    const cached = app.services.keys.cachedAuthentication(presented);
    if (cached) {
      request.apiKey = cached;
      return done();
    }
    app.services.keys.authenticate(presented).then((key) => {
      if (!key) return done(new AppError(401, 'invalid_api_key', 'Invalid API key: it is unknown or has been revoked.'));
      request.apiKey = key;
      done();
    }, done);
  });
}

export default fp(authPlugin, { name: 'auth', dependencies: ['errors'] });
