import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../operations/errors.ts';
import { verifySendgrid } from '../../../email/webhooks/verify.ts';
import { sendgridEvents } from '../../../email/webhooks/events.ts';
import { parseJson, rawBodies, recordEvents, requireOperatorToken } from './webhooks-common.ts';

/** POST /webhooks/sendgrid: SendGrid Event Webhook (signed when EMAIL_SENDGRID_VERIFICATION_KEY is set). */
export default async function sendgridWebhook(app: FastifyInstance): Promise<void> {
  rawBodies(app);
  app.post('/webhooks/sendgrid', { schema: { hide: true } }, async (request) => {
    requireOperatorToken(app, request);
    const key = app.services.email.config.sendgridVerificationKey;
    if (key) {
      const signature = request.headers['x-twilio-email-event-webhook-signature'];
      const timestamp = request.headers['x-twilio-email-event-webhook-timestamp'];
      if (
        !verifySendgrid(
          String(request.body ?? ''),
          typeof signature === 'string' ? signature : undefined,
          typeof timestamp === 'string' ? timestamp : undefined,
          key,
        )
      ) {
        throw new AppError(403, 'invalid_signature', 'SendGrid signature does not verify.');
      }
    }
    return recordEvents(app, sendgridEvents(parseJson(request.body)));
  });
}
