// Delivery events of four email service providers, in their own webhook formats, turned into
// engagement evidence. Only deliveries and hard bounces count; soft bounces, blocks, deferrals,
// drops and complaints are not evidence about whether a mailbox exists. Each format is a TypeBox
// schema of the fields we read (others may be there): an event that does not match is no evidence.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { EngagementEvent } from '../engagement.ts';

/** Providers write instants as epoch seconds, epoch milliseconds or ISO text. */
const Instant = Type.Optional(Type.Union([Type.Number(), Type.String()]));

const time = (value: number | string | undefined, fallback = Date.now()): number => {
  if (typeof value === 'number') return value < 1e12 ? Math.round(value * 1000) : value;
  const parsed = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(parsed) ? parsed : fallback;
};

/** A checker for `schema`, compiled once. */
function reader<T extends TSchema>(schema: T): (value: unknown) => value is Static<T> {
  const compiled = TypeCompiler.Compile(schema);
  return (value): value is Static<T> => compiled.Check(value);
}

const SesMessage = Type.Object({
  eventType: Type.Optional(Type.String()),
  notificationType: Type.Optional(Type.String()),
  mail: Type.Optional(Type.Object({ messageId: Type.Optional(Type.String()) })),
  delivery: Type.Optional(Type.Object({ timestamp: Instant, recipients: Type.Optional(Type.Array(Type.String())) })),
  bounce: Type.Optional(
    Type.Object({
      bounceType: Type.Optional(Type.String()),
      bounceSubType: Type.Optional(Type.String()),
      timestamp: Instant,
      bouncedRecipients: Type.Optional(Type.Array(Type.Object({ emailAddress: Type.String() }))),
    }),
  ),
});
const isSesMessage = reader(SesMessage);

/** Amazon SES event or notification (the `Message` of an SNS notification, parsed). */
export function sesEvents(message: unknown): EngagementEvent[] {
  if (!isSesMessage(message)) return [];
  const type = message.eventType ?? message.notificationType;
  const messageId = message.mail?.messageId ?? '';
  if (type === 'Delivery' && message.delivery) {
    const at = time(message.delivery.timestamp);
    return (message.delivery.recipients ?? []).map((address) => ({
      source: 'ses',
      eventId: `${messageId}:delivery:${address}`,
      address,
      kind: 'delivered',
      occurredAt: at,
    }));
  }
  const bounce = message.bounce;
  if (type === 'Bounce' && bounce?.bounceType === 'Permanent') {
    // "Suppressed" means SES refused to send to a listed address: no new evidence from the mailbox.
    if (bounce.bounceSubType === 'Suppressed' || bounce.bounceSubType === 'OnAccountSuppressionList') return [];
    const at = time(bounce.timestamp);
    return (bounce.bouncedRecipients ?? []).map((r) => ({
      source: 'ses',
      eventId: `${messageId}:bounce:${r.emailAddress}`,
      address: r.emailAddress,
      kind: 'hard_bounce',
      occurredAt: at,
    }));
  }
  return [];
}

const SendgridEvent = Type.Object({
  email: Type.String(),
  event: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
  sg_event_id: Type.Optional(Type.Unknown()),
  timestamp: Instant,
});
const isSendgridEvent = reader(SendgridEvent);

/** SendGrid Event Webhook: an array of events. */
export function sendgridEvents(batch: unknown): EngagementEvent[] {
  if (!Array.isArray(batch)) return [];
  const events: EngagementEvent[] = [];
  for (const e of batch) {
    if (!isSendgridEvent(e)) continue;
    const eventId = typeof e.sg_event_id === 'string' ? e.sg_event_id : undefined;
    const at = time(e.timestamp);
    if (e.event === 'delivered') events.push({ source: 'sendgrid', eventId, address: e.email, kind: 'delivered', occurredAt: at });
    // A "bounce" event with type "blocked" is a block (about the sender), not a missing mailbox.
    else if (e.event === 'bounce' && e.type !== 'blocked')
      events.push({ source: 'sendgrid', eventId, address: e.email, kind: 'hard_bounce', occurredAt: at });
  }
  return events;
}

const PostmarkDelivery = Type.Object({
  RecordType: Type.Literal('Delivery'),
  Recipient: Type.String(),
  MessageID: Type.Optional(Type.Unknown()),
  DeliveredAt: Instant,
});
const PostmarkBounce = Type.Object({
  RecordType: Type.Literal('Bounce'),
  Type: Type.Optional(Type.String()),
  Email: Type.String(),
  ID: Type.Optional(Type.Unknown()),
  BouncedAt: Instant,
});
const isPostmarkDelivery = reader(PostmarkDelivery);
const isPostmarkBounce = reader(PostmarkBounce);

/** Postmark Delivery and Bounce webhooks. */
export function postmarkEvents(payload: unknown): EngagementEvent[] {
  if (isPostmarkDelivery(payload)) {
    return [
      {
        source: 'postmark',
        eventId: `delivery:${String(payload.MessageID)}:${payload.Recipient}`,
        address: payload.Recipient,
        kind: 'delivered',
        occurredAt: time(payload.DeliveredAt),
      },
    ];
  }
  if (isPostmarkBounce(payload) && payload.Type === 'HardBounce') {
    return [
      {
        source: 'postmark',
        eventId: `bounce:${String(payload.ID)}`,
        address: payload.Email,
        kind: 'hard_bounce',
        occurredAt: time(payload.BouncedAt),
      },
    ];
  }
  return [];
}

const MailgunPayload = Type.Object({
  'event-data': Type.Object({
    recipient: Type.String(),
    event: Type.Optional(Type.String()),
    severity: Type.Optional(Type.String()),
    reason: Type.Optional(Type.Unknown()),
    id: Type.Optional(Type.Unknown()),
    timestamp: Instant,
  }),
});
const isMailgunPayload = reader(MailgunPayload);

/** Mailgun webhooks (JSON with `signature` and `event-data`). */
export function mailgunEvents(payload: unknown): EngagementEvent[] {
  if (!isMailgunPayload(payload)) return [];
  const data = payload['event-data'];
  const eventId = typeof data.id === 'string' ? data.id : undefined;
  const at = time(data.timestamp);
  if (data.event === 'delivered') return [{ source: 'mailgun', eventId, address: data.recipient, kind: 'delivered', occurredAt: at }];
  // Permanent failures include Mailgun's own suppressions ("suppress-bounce"…), which are not new evidence.
  const reason = typeof data.reason === 'string' ? data.reason : '';
  if (data.event === 'failed' && data.severity === 'permanent' && !reason.startsWith('suppress')) {
    return [{ source: 'mailgun', eventId, address: data.recipient, kind: 'hard_bounce', occurredAt: at }];
  }
  return [];
}
