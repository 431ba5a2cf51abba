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

export interface AuditTables {
  audit_log: AuditLogTable;
}
