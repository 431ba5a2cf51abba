// The operators' audit log: every change made through the admin API or the console, with who made
// it and when. Written after the change answered; rows are never updated or deleted.
import type { Db } from '../db/database.ts';

export interface AuditEntry {
  actor: string;
  ip?: string | null;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown> | null;
}

export interface AuditRow {
  id: number;
  at: string;
  actor: string;
  ip: string | null;
  action: string;
  target: string | null;
  detail: Record<string, unknown> | null;
}

export class AuditLog {
  constructor(private readonly db: Db) {}

  async record(entry: AuditEntry, now = Date.now()): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({
        at: now,
        actor: entry.actor,
        ip: entry.ip ?? null,
        action: entry.action,
        target: entry.target ?? null,
        detail: entry.detail ? JSON.stringify(entry.detail) : null,
      })
      .execute();
  }

  /** Newest first; `before` pages on (an id from the previous page). */
  async list(options: { limit?: number; before?: number } = {}): Promise<AuditRow[]> {
    let query = this.db
      .selectFrom('audit_log')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(Math.min(options.limit ?? 100, 500));
    if (options.before) query = query.where('id', '<', options.before);
    const rows = await query.execute();
    return rows.map((row) => ({
      id: Number(row.id),
      at: new Date(Number(row.at)).toISOString(),
      actor: row.actor,
      ip: row.ip,
      action: row.action,
      target: row.target,
      detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null,
    }));
  }
}
