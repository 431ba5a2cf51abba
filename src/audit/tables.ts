import type { Generated } from 'kysely';

export interface AuditLogTable {
  id: Generated<number>;
  /** Epoch milliseconds. */
  at: number;
  actor: string;
  ip: string | null;
  action: string;
  target: string | null;
  detail: string | null;
}

/** A key's charges of one UTC day and operation, kept by a trigger on credit_ledger (migration 0018). */
export interface CreditUsageDailyTable {
  key_id: number;
  /** Days since 1970-01-01, UTC. */
  day: number;
  /** '' for a charge without an operation. */
  operation: string;
  calls: number;
  units: number;
}

/** A key's spend cap (migration 0018). */
export interface KeySpendCapTable {
  key_id: number;
  period: 'day' | 'month';
  cap_units: number;
  alert_units: number | null;
}

export interface AuditTables {
  audit_log: AuditLogTable;
  credit_usage_daily: CreditUsageDailyTable;
  key_spend_caps: KeySpendCapTable;
}
