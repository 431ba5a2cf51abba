// Delivery evidence per address, from ESP webhooks and CSV imports. Only two kinds count:
// a delivery (the receiving server took the message for this mailbox) and a hard bounce (it said
// the mailbox does not exist). Soft bounces, blocks and deferrals say nothing about the address.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { PreparedQuery } from '../db/prepared-query.ts';
import { parseAddress } from './syntax.ts';

export type EngagementKind = 'delivered' | 'hard_bounce';

export interface EngagementEvent {
  source: string;
  /** The provider's id of the event; absent: derived from its content. */
  eventId?: string;
  address: string;
  kind: EngagementKind;
  occurredAt: number;
}

export interface EngagementCounts {
  delivered: number;
  hardBounced: number;
}

export interface RecordSummary {
  counted: number;
  duplicates: number;
  invalidAddresses: number;
}

/** Hard-bounce rate must stay under this for valid_catch_all (docs/email.md). */
export const MAX_HARD_BOUNCE_RATE = 0.05;

export function normalizeEngagementAddress(address: string): { address: string; domain: string } | null {
  const parsed = parseAddress(address);
  return parsed ? { address: parsed.address.toLowerCase(), domain: parsed.domain } : null;
}

export class EngagementStore {
  // Asked for every catch-all answer. Parameters: [address].
  private readonly countsQuery;

  constructor(private readonly db: Db) {
    this.countsQuery = new PreparedQuery(
      db,
      db.selectFrom('email_engagement').select(['delivered', 'hard_bounced']).where('address', '=', ''),
      1,
    );
  }

  /** Records events in one transaction; an event already recorded (same source and id) is skipped. */
  async record(events: EngagementEvent[]): Promise<RecordSummary> {
    const summary: RecordSummary = { counted: 0, duplicates: 0, invalidAddresses: 0 };
    if (events.length === 0) return summary;
    await this.db.transaction().execute(async (trx) => {
      for (const event of events) {
        const normalized = normalizeEngagementAddress(event.address);
        if (!normalized) {
          summary.invalidAddresses += 1;
          continue;
        }
        const eventId =
          event.eventId ??
          createHash('sha256').update(`${normalized.address}|${event.kind}|${event.occurredAt}`).digest('hex').slice(0, 32);
        const inserted = await trx
          .insertInto('email_engagement_events')
          .values({ source: event.source, event_id: eventId, address: normalized.address, kind: event.kind, occurred_at: event.occurredAt })
          .onConflict((oc) => oc.columns(['source', 'event_id']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
          summary.duplicates += 1;
          continue;
        }
        const delivered = event.kind === 'delivered' ? 1 : 0;
        const hard = event.kind === 'hard_bounce' ? 1 : 0;
        await trx
          .insertInto('email_engagement')
          .values({
            address: normalized.address,
            domain: normalized.domain,
            delivered,
            hard_bounced: hard,
            first_at: event.occurredAt,
            last_at: event.occurredAt,
          })
          .onConflict((oc) =>
            oc.column('address').doUpdateSet((eb) => ({
              delivered: eb('email_engagement.delivered', '+', delivered),
              hard_bounced: eb('email_engagement.hard_bounced', '+', hard),
              first_at: sql<number>`case when email_engagement.first_at < ${event.occurredAt} then email_engagement.first_at else ${event.occurredAt} end`,
              last_at: sql<number>`case when email_engagement.last_at > ${event.occurredAt} then email_engagement.last_at else ${event.occurredAt} end`,
            })),
          )
          .execute();
        summary.counted += 1;
      }
    });
    return summary;
  }

  async counts(address: string): Promise<EngagementCounts> {
    const [row] = await this.countsQuery.rows([address.toLowerCase()]);
    return { delivered: row?.delivered ?? 0, hardBounced: row?.hard_bounced ?? 0 };
  }
}

/** Enough deliveries and a hard-bounce rate under 5%: the address is real even on a catch-all domain. */
export function isEngagedAddress(counts: EngagementCounts, minDeliveries: number): boolean {
  if (counts.delivered < minDeliveries) return false;
  return counts.hardBounced / (counts.delivered + counts.hardBounced) < MAX_HARD_BOUNCE_RATE;
}
