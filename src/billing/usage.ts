// A key's spend per day and operation, for the console's usage chart: read from credit_usage_daily,
// the per-day sums a database trigger keeps in the transaction of every charge (migration 0018), so
// the chart of a key with millions of ledger rows reads at most a few hundred.
import type { Db } from '../db/database.ts';

const DAY_MS = 86_400_000;

export interface DailyUsage {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  operation: string;
  calls: number;
  /** Millicredits charged. */
  units: number;
}

/** Charges of the key over the last `days` UTC days (today included), per day and operation. */
export async function dailyUsage(db: Db, keyId: number, days: number, now = Date.now()): Promise<DailyUsage[]> {
  const since = Math.floor(now / DAY_MS) - (days - 1);
  const rows = await db
    .selectFrom('credit_usage_daily')
    .select(['day', 'operation', 'calls', 'units'])
    .where('key_id', '=', keyId)
    .where('day', '>=', since)
    .orderBy('day')
    .orderBy('operation')
    .execute();
  return rows.map((row) => ({
    day: new Date(Number(row.day) * DAY_MS).toISOString().slice(0, 10),
    operation: row.operation || 'other',
    calls: Number(row.calls),
    units: Number(row.units),
  }));
}
