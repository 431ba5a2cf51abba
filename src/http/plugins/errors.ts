import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, type ErrorCode } from '../../operations/errors.ts';
import { domainErrorToHttp } from '../errors.ts';
import { DependencyUnavailableError, isUnavailable, RETRY_AFTER_SECONDS } from '../../db/unavailable.ts';
import { schemaErrors } from '../../operations/schema-errors.ts';

const CONTENT_ERRORS: Record<string, [number, ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', 'Request bodies must be JSON (Content-Type: application/json).'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid_request', 'Content-Length does not match the body.'],
};

/**
 * A 413's message names the limit that refused the body, in bytes, so a caller knows how far to cut
 * it; the server-wide one also names its setting, for the operator (docs/contract.md, Errors). Routes
 * with a limit of their own (bulk lists, webhooks) declare it as their route's bodyLimit.
 */
export function tooLargeMessage(routeLimit: number | undefined, serverLimit: number | undefined): string {
  const limit = routeLimit ?? serverLimit;
  if (limit === undefined) return 'Request body is too large.';
  return limit === serverLimit
    ? `Request body is too large: the limit is ${limit} bytes (BODY_LIMIT_BYTES).`
    : `Request body is too large: this endpoint takes at most ${limit} bytes.`;
}

/** PostgreSQL "data exception" errors (SQLSTATE class 22: out of range, bad characters, bad text representation). */
function isDataException(error: unknown): boolean {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && typeof severity === 'string' && code.startsWith('22');
}

async function errorsPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.statusCode).send({
        error: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
      });
    }
    const mapped = domainErrorToHttp(error);
    if (mapped) {
      return reply
        .status(mapped.statusCode)
        .send({ error: mapped.code, message: mapped.message, ...(mapped.details ? { details: mapped.details } : {}) });
    }
    if (isUnavailable(error)) {
      // The database or Redis is down or was just lost: the caller should retry, nothing was charged.
      // Counted into the outage's log lines (src/platform/outage-log.ts), not a line per request.
      app.services.outages.refused(error instanceof DependencyUnavailableError ? error.dependency : 'database', error);
      reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return reply
        .status(503)
        .send({ error: 'unavailable', message: `Service temporarily unavailable; retry in ${RETRY_AFTER_SECONDS} seconds.` });
    }
    const fastifyError = error;
    if (fastifyError.validation) {
      return reply.status(400).send({ error: 'invalid_request', ...schemaErrors(fastifyError.validation) });
    }
    if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fastifyError.statusCode === 413) {
      return reply
        .status(413)
        .send({ error: 'payload_too_large', message: tooLargeMessage(request.routeOptions.bodyLimit, app.initialConfig.bodyLimit) });
    }
    const known = fastifyError.code ? CONTENT_ERRORS[fastifyError.code] : undefined;
    if (known) {
      const [status, code, message] = known;
      return reply.status(status).send({ error: code, message });
    }
    const status = fastifyError.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = status === 404 ? 'not_found' : status === 415 ? 'unsupported_media_type' : 'invalid_request';
      return reply.status(status).send({ error: code, message: error.message });
    }
    if (isDataException(error)) {
      // A value the schema let through that the database cannot hold or compare (PostgreSQL class 22):
      // the request's fault, not ours, but logged in full so the schema gap can be closed.
      request.log.error({ err: error, reqId: request.id }, 'request value refused by the database');
      return reply
        .status(400)
        .send({ error: 'invalid_request', message: 'Invalid request: a value is out of the range this API accepts.' });
    }
    // Unexpected: log it in full with the request id, answer without internals.
    request.log.error({ err: error, reqId: request.id }, 'request failed');
    return reply.status(500).send({ error: 'internal_error', message: `Internal server error (request ${request.id}).` });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ error: 'not_found', message: `No route for ${request.method} ${request.url.split('?')[0]}.` });
  });
}

export default fp(errorsPlugin, { name: 'errors' });
