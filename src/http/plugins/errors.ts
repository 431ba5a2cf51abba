import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, type ErrorCode, type ErrorDetail } from '../../operations/errors.ts';
import { domainErrorToHttp } from '../errors.ts';
import { DependencyUnavailableError, isUnavailable, RETRY_AFTER_SECONDS } from '../../db/unavailable.ts';
import { NO_CONTROL_CHARACTERS } from '../../contract/common.ts';

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

function validationDetails(errors: AjvError[]): ErrorDetail[] {
  return errors.map((e) => {
    let field = e.instancePath || '/';
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required' && typeof e.params.missingProperty === 'string') {
      // Ajv says "must have required property 'x'" of the object holding x; the field named is x
      // itself, so the sentence reads "job_title is required", not "job_title must have required property 'job_title'".
      field = `${e.instancePath}/${e.params.missingProperty}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties' && typeof e.params.additionalProperty === 'string') {
      field = `${e.instancePath}/${e.params.additionalProperty}`;
      message = 'is not a field of this request';
    } else if (e.keyword === 'pattern' && e.params.pattern === NO_CONTROL_CHARACTERS) {
      message = 'must not contain control characters';
    } else if (e.keyword === 'enum' || (e.keyword === 'const' && e.params.allowedValue !== undefined)) {
      const allowed = (e.params.allowedValues as unknown[]) ?? [e.params.allowedValue];
      message = `must be one of: ${allowed.join(', ')}`;
    }
    return { field, message };
  });
}

/** anyOf of literals reports one error per literal; fold them into one "must be one of" line. */
function foldLiteralUnions(errors: AjvError[]): AjvError[] {
  const byPath = new Map<string, AjvError[]>();
  for (const e of errors) byPath.set(e.instancePath, [...(byPath.get(e.instancePath) ?? []), e]);
  const out: AjvError[] = [];
  for (const [path, list] of byPath) {
    const consts = list.filter((e) => e.keyword === 'const');
    if (consts.length > 1 && list.some((e) => e.keyword === 'anyOf')) {
      out.push({ instancePath: path, keyword: 'enum', params: { allowedValues: consts.map((e) => e.params.allowedValue) } });
    } else {
      out.push(...list.filter((e) => e.keyword !== 'anyOf' || list.length === 1));
    }
  }
  return out;
}

/** A field's JSON path as a sentence names it: `/filters/0/title` is `filters[0].title`, the root is "body". */
function fieldName(path: string): string {
  if (path === '/' || path === '') return 'body';
  return path
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

/** A body's schema errors as our envelope says them: a message naming the first field, and every field's detail. */
export function schemaErrors(errors: AjvError[]): { message: string; details: ErrorDetail[] } {
  const details = validationDetails(foldLiteralUnions(errors));
  const first = details[0];
  const message = first ? `Invalid request: ${fieldName(first.field)} ${first.message}.` : 'Invalid request.';
  return { message, details };
}

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
      // Counted into the outage's log lines (src/outage-log.ts), not a line per request.
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
