import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../../operations/errors.ts';
import { consoleCallKey } from '../admin-access.ts';

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim() || undefined;

/**
 * The API key a request presents: X-API-Key, else `Authorization: Bearer <key>`, else
 * X-LeadMagic-Key (the header LeadMagic's hosted MCP documents), so that their clients' requests
 * authenticate unchanged (docs/contract.md, Authentication). Node lower-cases header names.
 */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const apiKey = first(headers['x-api-key']);
  if (apiKey) return apiKey;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(first(headers.authorization) ?? '');
  return bearer?.[1] ?? first(headers['x-leadmagic-key']);
}

/** The key on every route marked `config.auth`. */
async function authPlugin(app: FastifyInstance): Promise<void> {
  // Callback style: the common case (a recently seen key) completes without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.routeOptions.config.auth) return done();
    const presented = presentedKey(request.headers);
    if (!presented) {
      // A call from the console's Explore screen: the session's key, or the one the operator names.
      consoleCallKey(app, app.sessions, request).then((call) => {
        if (!call) {
          return done(
            new AppError(401, 'missing_api_key', 'Missing API key: send it in the X-API-Key header (or as Authorization: Bearer <key>).'),
          );
        }
        request.apiKey = call.key;
        // The operator spends a customer's credits: the audit log records it (plugins/admin.ts).
        if (call.role === 'operator') request.adminCaller = { role: 'operator', via: 'session' };
        done();
      }, done);
      return;
    }
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
