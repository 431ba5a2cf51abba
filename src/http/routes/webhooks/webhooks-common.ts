// What every delivery webhook route shares: raw bodies (signatures are over the bytes), the
// operator token, and recording the events as engagement evidence.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../../operations/errors.ts';
import { hasOperatorToken } from '../../../email/webhooks/verify.ts';
import type { EngagementEvent } from '../../../email/engagement.ts';

export const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;

/** In this (encapsulated) plugin, JSON and text bodies arrive as the raw string. */
export function rawBodies(app: FastifyInstance): void {
  // The route's own limit too: a 413 names the limit of the route (plugins/errors.ts), not the server's.
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= WEBHOOK_BODY_LIMIT;
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/json', 'text/plain'],
    { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
}

export function requireOperatorToken(app: FastifyInstance, request: FastifyRequest): void {
  const token = app.services.email.config.webhookToken;
  if (!token) throw new AppError(404, 'not_found', 'Delivery webhooks are off on this server (set EMAIL_WEBHOOK_TOKEN).');
  if (!hasOperatorToken(request.headers, (request.query ?? {}) as Record<string, unknown>, token)) {
    throw new AppError(401, 'invalid_webhook_token', 'Missing or wrong webhook token.');
  }
}

export function parseJson(raw: unknown): unknown {
  try {
    return JSON.parse(String(raw ?? ''));
  } catch {
    throw new AppError(400, 'invalid_request', 'Request body is not valid JSON.');
  }
}

export async function recordEvents(app: FastifyInstance, events: EngagementEvent[]) {
  const summary = await app.services.email.engagement.record(events);
  return { received: events.length, counted: summary.counted, duplicates: summary.duplicates };
}
