import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../operations/errors.ts';
import { LEASE_RENEWAL_MS, LeaseLostError, newOwnerToken, requestFingerprint } from '../../billing/idempotency.ts';

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
  const store = app.services.idempotency;

  /** Keeps the record's short lease alive while the request runs (see IN_FLIGHT_LEASE_MS). */
  function keepLease(keyId: number, idemKey: string, owner: string): NodeJS.Timeout {
    const timer = setInterval(() => {
      store.renew(keyId, idemKey, owner).catch(() => {
        // Database unreachable: the request itself will fail and answer 503; nothing to add here.
      });
    }, LEASE_RENEWAL_MS);
    timer.unref();
    return timer;
  }

  function stopLease(request: { idempotency?: { lease?: NodeJS.Timeout } }) {
    const idem = request.idempotency;
    if (idem?.lease) clearInterval(idem.lease);
    if (idem) idem.lease = undefined;
  }

  app.addHook('preHandler', (request, reply, done) => {
    const header = request.headers['idempotency-key'];
    // Most requests carry no key: finish without a promise.
    if (header === undefined || request.method !== 'POST' || !request.apiKey || request.routeOptions.config.rawAnswer) return done();
    const idemKey = Array.isArray(header) ? header[0] : header;
    if (!idemKey || idemKey.length > MAX_KEY_LENGTH) {
      return done(
        new AppError(400, 'invalid_request', `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters.`, [
          { field: 'Idempotency-Key', message: 'invalid length' },
        ]),
      );
    }
    const fingerprint = requestFingerprint(request.method, request.routeOptions.url ?? request.url, request.body);
    const keyId = request.apiKey.id;
    const owner = newOwnerToken();
    store.begin(keyId, idemKey, fingerprint, Date.now(), owner).then((outcome) => {
      switch (outcome.kind) {
        case 'new':
          request.idempotency = { idemKey, stored: false, owner, lease: keepLease(keyId, idemKey, owner) };
          return done();
        case 'mismatch':
          return done(new AppError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.'));
        case 'in_flight':
          return done(
            new AppError(409, 'idempotency_in_flight', 'A request with this Idempotency-Key is still being processed; retry later.'),
          );
        case 'replay':
          reply.headers(outcome.response.headers);
          reply.header('Idempotent-Replayed', 'true');
          reply.status(outcome.response.statusCode).send(outcome.response.body);
      }
    }, done);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const idem = request.idempotency;
    stopLease(request);
    if (!idem || idem.stored || !request.apiKey) return done(null, payload);
    idem.stored = true;
    storeOrRelease(request.apiKey.id, idem.idemKey, idem.owner, reply.statusCode, reply.getHeaders(), payload).then(
      () => done(null, payload),
      (error: unknown) => {
        // Sending the answer matters more than the record: a record left in flight lapses with its lease.
        request.log.warn({ err: { message: (error as Error).message }, reqId: request.id }, 'could not store the Idempotency-Key record');
        done(null, payload);
      },
    );
  });
  // A request that ends without a response (client gone, hook failure) must not renew forever.
  app.addHook('onResponse', (request, _reply, done) => {
    stopLease(request);
    done();
  });

  async function storeOrRelease(
    keyId: number,
    idemKey: string,
    owner: string,
    status: number,
    headers: Record<string, unknown>,
    payload: unknown,
  ) {
    if (status >= 500 || NOT_STORED.has(status) || typeof payload !== 'string') {
      await store.release(keyId, idemKey, owner);
    } else {
      try {
        await store.complete(keyId, idemKey, { statusCode: status, headers: replayableHeaders(headers), body: payload }, Date.now(), owner);
      } catch (error) {
        if (!(error instanceof LeaseLostError)) throw error;
        // A retry took over; it will store its own answer.
      }
    }
  }
}

export default fp(idempotencyPlugin, { name: 'idempotency', dependencies: ['auth'] });
