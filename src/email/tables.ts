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

/** `paused`: by its owner (product jobs only); `paused_insufficient_credits`: by its key's balance or spend cap. */
export type BulkJobStatus = 'queued' | 'running' | 'paused' | 'paused_insufficient_credits' | 'done' | 'cancelled' | 'failed';

/** A bulk validation job of a key (docs/email.md, "Bulk lists"). */
export interface EmailBulkJobTable {
  id: string;
  key_id: number;
  status: BulkJobStatus;
  /** Distinct addresses in the list. */
  total: number;
  /** Entries of the list that repeat an earlier address (case-insensitively): validated and charged once. */
  duplicates: number;
  /** Entries of the list with no address in them (a blank cell, a value that is not text): not validated. */
  refused: number;
  /** Results charged and served so far. */
  processed: number;
  /** JSON object: results so far per email_status. */
  counts: string;
  /** Millicredits charged so far. */
  credits_consumed: number;
  /** JSON list of the list's other columns, kept with each address and returned with its result. */
  columns: string;
  webhook_url: string | null;
  /** Where the results are read, as the client reached us (sent in the completion webhook). */
  results_url: string | null;
  /** Why the job failed (its runs' retries ran out), else null. */
  failure: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

/** One distinct address of a bulk job, in list order. */
export interface EmailBulkItemTable {
  job_id: string;
  seq: number;
  email: string;
  /** JSON object: first_name, last_name and the list's other columns. */
  input: string;
  /** JSON of the validation once known; served only once `charged`. */
  result: string | null;
  /** A greylisted address is asked again from this instant (epoch ms). */
  retry_at: number | null;
  /** Millicredits the result costs (the single-address price). */
  cost: number | null;
  charged: number;
}

/** An outbound identity refused as a sender, not used for `scope` until `until_at` (epoch ms). */
export interface EmailOutboundQuarantineTable {
  identity: string;
  /** '*' for every mail server, else the provider or MX host that refused it. */
  scope: string;
  since_at: number;
  until_at: number;
  /** The refusing reply, as "code enhanced text". */
  reply: string;
}

/** A connection slot held, a ticket in line for one, or an instance alive (shared probe limits without Redis). */
export interface ProbeLeaseTable {
  key: string;
  lease: string;
  /** held | waiting | alive */
  state: string;
  ticket: number;
  /** Epoch ms; renewed by its instance's heartbeat. */
  expires_at: number;
}

/** A token bucket of a per-minute probe budget. */
export interface ProbeBucketTable {
  key: string;
  tokens: number;
  /** When `tokens` was worked out (epoch ms). */
  at: number;
}

export interface EmailTables {
  probe_leases: ProbeLeaseTable;
  probe_buckets: ProbeBucketTable;
  email_bulk_jobs: EmailBulkJobTable;
  email_bulk_items: EmailBulkItemTable;
  email_engagement: EmailEngagementTable;
  email_engagement_events: EmailEngagementEventTable;
  email_rechecks: EmailRecheckTable;
  email_outbound_quarantines: EmailOutboundQuarantineTable;
}
