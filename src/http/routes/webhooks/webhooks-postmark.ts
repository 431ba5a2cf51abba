import type { FastifyInstance } from 'fastify';
import { postmarkEvents } from '../../../email/webhooks/events.ts';
import { parseJson, rawBodies, recordEvents, requireOperatorToken } from './webhooks-common.ts';

/** POST /webhooks/postmark: Postmark Delivery and Bounce webhooks (Postmark does not sign; the token authenticates). */
export default async function postmarkWebhook(app: FastifyInstance): Promise<void> {
  rawBodies(app);
  app.post('/webhooks/postmark', { schema: { hide: true } }, async (request) => {
    requireOperatorToken(app, request);
    return recordEvents(app, postmarkEvents(parseJson(request.body)));
  });
}
