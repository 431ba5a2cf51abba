import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';
import { IdempotencyStore, requestFingerprint } from '../../billing/idempotency.ts';

const MAX_KEY_LENGTH = 255;
/** Responses a retry should redo rather than replay. */
const NOT_STORED = new Set([402, 409, 429]);
/** Headers worth replaying; rate-limit headers belong to the retry itself. */
const REPLAYED_HEADERS = ['content-type', 'x-credits-cost', 'x-credits-remaining'];

export function replayableHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = headers[name];
    if (value !== undefined) out[name] = String(value);
  }
  return out;
}

async function idempotencyPlugin(app: FastifyInstance): Promise<void> {
  const store = new IdempotencyStore(app.services.db);

  app.addHook('preHandler', (request, reply, done) => {
    const header = request.headers['idempotency-key'];
    // Most requests carry no key: finish without a promise.
    if (header === undefined || request.method !== 'POST' || !request.apiKey) return done();
    const idemKey = Array.isArray(header) ? header[0] : header;
    if (!idemKey || idemKey.length > MAX_KEY_LENGTH) {
      return done(
        new AppError(400, 'invalid_request', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`, [
          { field: 'Idempotency-Key', message: 'invalid length' },
        ]),
      );
    }
    const fingerprint = requestFingerprint(request.method, request.routeOptions.url ?? request.url, request.body);
    store.begin(request.apiKey.id, idemKey, fingerprint).then((outcome) => {
      switch (outcome.kind) {
        case 'new':
          request.idempotency = { idemKey, stored: false };
          return done();
        case 'mismatch':
          return done(new AppError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.'));
        case 'in_flight':
          return done(new AppError(409, 'idempotency_in_flight', 'A request with this Idempotency-Key is still being processed; retry later.'));
        case 'replay':
          reply.headers(outcome.response.headers);
          reply.header('Idempotent-Replayed', 'true');
          reply.status(outcome.response.statusCode).send(outcome.response.body);
      }
    }, done);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const idem = request.idempotency;
    if (!idem || idem.stored || !request.apiKey) return done(null, payload);
    idem.stored = true;
    storeOrRelease(request.apiKey.id, idem.idemKey, reply.statusCode, reply.getHeaders(), payload).then(() => done(null, payload), done);
  });

  async function storeOrRelease(keyId: number, idemKey: string, status: number, headers: Record<string, unknown>, payload: unknown) {
    if (status >= 500 || NOT_STORED.has(status) || typeof payload !== 'string') {
      await store.release(keyId, idemKey);
    } else {
      await store.complete(keyId, idemKey, { statusCode: status, headers: replayableHeaders(headers), body: payload });
    }
  }
}

export default fp(idempotencyPlugin, { name: 'idempotency', dependencies: ['auth'] });
