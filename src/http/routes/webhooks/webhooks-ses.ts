import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../operations/errors.ts';
import { isSnsMessage, SnsVerifier } from '../../../email/webhooks/verify.ts';
import { sesEvents } from '../../../email/webhooks/events.ts';
import { parseJson, rawBodies, recordEvents, requireOperatorToken } from './webhooks-common.ts';

/** POST /webhooks/ses: Amazon SES delivery and bounce events through an SNS HTTPS subscription. */
export default async function sesWebhook(app: FastifyInstance): Promise<void> {
  rawBodies(app);
  app.post('/webhooks/ses', { schema: { hide: true } }, async (request) => {
    requireOperatorToken(app, request);
    const message = parseJson(request.body);
    if (!isSnsMessage(message) || !(await app.services.email.sns.verify(message)))
      throw new AppError(403, 'invalid_signature', 'SNS signature does not verify.');
    if (message.Type === 'SubscriptionConfirmation') {
      if (!SnsVerifier.isConfirmationUrl(message.SubscribeURL))
        throw new AppError(400, 'invalid_request', 'SubscribeURL is not an Amazon SNS address.');
      await app.services.email.fetchText(message.SubscribeURL);
      return { confirmed: true };
    }
    if (message.Type !== 'Notification') return { received: 0, counted: 0, duplicates: 0 };
    return recordEvents(app, sesEvents(parseJson(message.Message ?? '')));
  });
}
