// Delivery events of four email service providers, in their own webhook formats, turned into
// engagement evidence. Only deliveries and hard bounces count; soft bounces, blocks, deferrals,
// drops and complaints are not evidence about whether a mailbox exists.
import type { EngagementEvent } from '../engagement.ts';

type Json = Record<string, any>;

const time = (value: unknown, fallback = Date.now()): number => {
  if (typeof value === 'number') return value < 1e12 ? Math.round(value * 1000) : value;
  const parsed = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(parsed) ? parsed : fallback;
};

/** Amazon SES event or notification (the `Message` of an SNS notification, parsed). */
export function sesEvents(message: Json): EngagementEvent[] {
  const type = message.eventType ?? message.notificationType;
  const messageId = String(message.mail?.messageId ?? '');
  if (type === 'Delivery') {
    const at = time(message.delivery?.timestamp);
    return (message.delivery?.recipients ?? []).map((address: string) => ({
      source: 'ses',
      eventId: `${messageId}:delivery:${address}`,
      address,
      kind: 'delivered',
      occurredAt: at,
    }));
  }
  if (type === 'Bounce' && message.bounce?.bounceType === 'Permanent') {
    // "Suppressed" means SES refused to send to a listed address: no new evidence from the mailbox.
    if (message.bounce.bounceSubType === 'Suppressed' || message.bounce.bounceSubType === 'OnAccountSuppressionList') return [];
    const at = time(message.bounce.timestamp);
    return (message.bounce.bouncedRecipients ?? []).map((r: Json) => ({
      source: 'ses',
      eventId: `${messageId}:bounce:${r.emailAddress}`,
      address: String(r.emailAddress),
      kind: 'hard_bounce',
      occurredAt: at,
    }));
  }
  return [];
}

/** SendGrid Event Webhook: an array of events. */
export function sendgridEvents(batch: unknown): EngagementEvent[] {
  if (!Array.isArray(batch)) return [];
  const events: EngagementEvent[] = [];
  for (const e of batch as Json[]) {
    if (typeof e?.email !== 'string') continue;
    const eventId = typeof e.sg_event_id === 'string' ? e.sg_event_id : undefined;
    const at = time(e.timestamp);
    if (e.event === 'delivered') events.push({ source: 'sendgrid', eventId, address: e.email, kind: 'delivered', occurredAt: at });
    // A "bounce" event with type "blocked" is a block (about the sender), not a missing mailbox.
    else if (e.event === 'bounce' && e.type !== 'blocked')
      events.push({ source: 'sendgrid', eventId, address: e.email, kind: 'hard_bounce', occurredAt: at });
  }
  return events;
}

/** Postmark Delivery and Bounce webhooks. */
export function postmarkEvents(payload: Json): EngagementEvent[] {
  if (payload?.RecordType === 'Delivery' && typeof payload.Recipient === 'string') {
    return [
      {
        source: 'postmark',
        eventId: `delivery:${payload.MessageID}:${payload.Recipient}`,
        address: payload.Recipient,
        kind: 'delivered',
        occurredAt: time(payload.DeliveredAt),
      },
    ];
  }
  if (payload?.RecordType === 'Bounce' && payload.Type === 'HardBounce' && typeof payload.Email === 'string') {
    return [
      {
        source: 'postmark',
        eventId: `bounce:${payload.ID}`,
        address: payload.Email,
        kind: 'hard_bounce',
        occurredAt: time(payload.BouncedAt),
      },
    ];
  }
  return [];
}

/** Mailgun webhooks (JSON with `signature` and `event-data`). */
export function mailgunEvents(payload: Json): EngagementEvent[] {
  const data = payload?.['event-data'];
  if (!data || typeof data.recipient !== 'string') return [];
  const eventId = typeof data.id === 'string' ? data.id : undefined;
  const at = time(data.timestamp);
  if (data.event === 'delivered') return [{ source: 'mailgun', eventId, address: data.recipient, kind: 'delivered', occurredAt: at }];
  // Permanent failures include Mailgun's own suppressions ("suppress-bounce"…), which are not new evidence.
  if (data.event === 'failed' && data.severity === 'permanent' && !String(data.reason ?? '').startsWith('suppress')) {
    return [{ source: 'mailgun', eventId, address: data.recipient, kind: 'hard_bounce', occurredAt: at }];
  }
  return [];
}
