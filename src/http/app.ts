import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import sjson from 'secure-json-parse';
import type { Config } from '../platform/config.ts';
import type { Services } from '../services.ts';
import './types.ts';
import errorsPlugin from './plugins/errors.ts';
import authPlugin from './plugins/auth.ts';
import clientFormsPlugin from './plugins/client-forms.ts';
import rateLimitPlugin from './plugins/rate-limit.ts';
import idempotencyPlugin from './plugins/idempotency.ts';
import billingPlugin from './plugins/billing.ts';
import metricsPlugin, { createMetrics } from './plugins/metrics.ts';
import { registerSourceMetrics } from './plugins/source-metrics.ts';
import { registerOutboundMetrics } from './plugins/outbound-metrics.ts';
import docsPlugin from './plugins/docs.ts';
import handlerPassPlugin from './plugins/handler-pass.ts';
import adminPlugin from './plugins/admin.ts';
import consolePlugin from './plugins/console.ts';
import { routes } from './routes/index.ts';
import { AppError } from '../operations/errors.ts';
import { createLogger, type Logger } from '../platform/logger.ts';
import { AccessLogController } from './access-log.ts';

export interface BuildAppOptions {
  config: Pick<Config, 'bodyLimitBytes' | 'logLevel' | 'trustProxy'> & Partial<Pick<Config, 'adminToken' | 'queue'>>;
  services: Services;
  /** Redis key namespace for shared rate limits (tests isolate themselves with their own). */
  rateLimitNamespace?: string;
  rateLimits?: Record<string, number>;
  /** false silences the app (tests); otherwise the process logger, or a new one at config.logLevel. */
  logger?: false | Logger;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Requests Node's HTTP parser refuses never reach a route; they are answered in the API's envelope too. */
const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request was not received in time.'],
};

function writeClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Bad Request', 'Malformed HTTP request.'];
  const body = JSON.stringify({ error: 'invalid_request', message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const logger = options.logger === false ? undefined : (options.logger ?? createLogger({ level: options.config.logLevel }));
  const app = Fastify({
    // Typed as Fastify's base logger so the instance keeps the plain FastifyInstance type the rest
    // of the code (and every plugin) is written against; the rule cannot see that the generic changes.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    ...(logger ? { loggerInstance: logger as FastifyBaseLogger } : { logger: false }),
    bodyLimit: options.config.bodyLimitBytes,
    trustProxy: options.config.trustProxy,
    requestIdHeader: false,
    logController: new AccessLogController(logger),
    // request.log is the process logger itself: a child logger built per request costs more than the
    // line it writes, and every line about a request carries its reqId field.
    childLoggerFactory: (parent) => parent,
    // A caller's X-Request-Id is kept when it is sane, so logs can be joined across services.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    clientErrorHandler: writeClientError,
    // Errors Fastify finds before routing (a URL that does not decode, an over-long parameter).
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      void reply.status(400).send({ error: 'invalid_request', message: `Invalid request: ${error.message}` });
    },
    ajv: { customOptions: { coerceTypes: false, allErrors: true, removeAdditional: false, useDefaults: true } },
  });
  app.decorate('services', options.services);
  app.decorate('adminToken', options.config.adminToken);
  app.decorate('pgBossSchema', options.config.queue?.backend === 'pg-boss' ? options.config.queue.pgBossSchema : undefined);

  // JSON only: an empty body is "no body" (so POST /credits needs none), and non-JSON types get 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, sjson.parse(text, { protoAction: 'remove', constructorAction: 'remove' }));
    } catch {
      done(new AppError(400, 'invalid_request', 'Request body is not valid JSON.'), undefined);
    }
  });

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  const metrics = createMetrics();
  registerSourceMetrics(metrics.registry, options.services.sources);
  registerOutboundMetrics(metrics.registry, options.services.email.outbound);
  await app.register(errorsPlugin);
  await app.register(metricsPlugin, { metrics });
  await app.register(docsPlugin);
  await app.register(authPlugin);
  await app.register(clientFormsPlugin);
  await app.register(rateLimitPlugin, {
    redis: options.services.redis,
    namespace: options.rateLimitNamespace,
    limits: options.rateLimits,
    onRefused: (operation) => metrics.rateLimitRefusals.inc({ operation }),
    breaker: options.services.redisBreaker,
    onFallback: (error) => options.services.outages.refused('redis', error),
  });
  await app.register(idempotencyPlugin);
  await app.register(billingPlugin, {
    onCharged: (operation, units) => metrics.recordCharge(operation, units),
  });
  await app.register(handlerPassPlugin);
  await app.register(adminPlugin);
  await app.register(consolePlugin);
  for (const route of routes) await app.register(route);
  return app;
}
