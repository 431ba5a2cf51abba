import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../operations/errors.ts';
import { verifyMailgun } from '../../../email/webhooks/verify.ts';
import { mailgunEvents } from '../../../email/webhooks/events.ts';
import { parseJson, rawBodies, recordEvents, requireOperatorToken } from './webhooks-common.ts';

/** POST /webhooks/mailgun: Mailgun JSON webhooks (HMAC-signed when EMAIL_MAILGUN_SIGNING_KEY is set). */
export default async function mailgunWebhook(app: FastifyInstance): Promise<void> {
  rawBodies(app);
  app.post('/webhooks/mailgun', { schema: { hide: true } }, async (request) => {
    requireOperatorToken(app, request);
    const payload = parseJson(request.body);
    const key = app.services.email.config.mailgunSigningKey;
    const signature = typeof payload === 'object' && payload !== null ? (payload as { signature?: object }).signature : undefined;
    if (key && !verifyMailgun(signature, key)) throw new AppError(403, 'invalid_signature', 'Mailgun signature does not verify.');
    return recordEvents(app, mailgunEvents(payload));
  });
}
