// Kysely table types of the email domain. Conventions: see docs/architecture.md.
import type { Generated } from 'kysely';

/** Delivery evidence per address (webhooks and CSV imports). Soft bounces and blocks are not evidence. */
export interface EmailEngagementTable {
  /** Lower-case address with the ASCII domain. */
  address: string;
  domain: string;
  delivered: Generated<number>;
  hard_bounced: Generated<number>;
  first_at: number;
  last_at: number;
}

/** Each counted event once: (source, event_id) is unique, so a redelivered webhook changes nothing. */
export interface EmailEngagementEventTable {
  id: Generated<number>;
  /** ses, sendgrid, postmark, mailgun, csv. */
  source: string;
  event_id: string;
  address: string;
  /** delivered | hard_bounce */
  kind: string;
  occurred_at: number;
}

/** Greylisted addresses waiting for a second look, and the answer once it is known. */
export interface EmailRecheckTable {
  address: string;
  domain: string;
  /** pending | done */
  state: string;
  due_at: number;
  attempts: Generated<number>;
  /** A worker's lease (epoch ms), so several instances never re-check the same address at once. */
  claimed_until: Generated<number>;
  /** The EmailValidation found by the re-check (JSON), when done. */
  result_json: string | null;
  checked_at: number | null;
}

export interface EmailTables {
  email_engagement: EmailEngagementTable;
  email_engagement_events: EmailEngagementEventTable;
  email_rechecks: EmailRecheckTable;
}
