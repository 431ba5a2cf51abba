// A key's spend per day and operation, for the console's usage chart: one aggregate query over the
// ledger (indexed by key), so a key with millions of rows is summed in the database, never read out.
import { sql } from 'kysely';
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
  const since = (Math.floor(now / DAY_MS) - (days - 1)) * DAY_MS;
  // A literal: a bound number is a REAL to SQLite, and the division would not truncate to the day.
  const day = sql.lit(DAY_MS);
  const { rows } = await sql<{ day: number | string; operation: string | null; calls: number | string; units: number | string }>`
    select created_at / ${day} as day, operation, count(*) as calls, sum(amount) as units
    from credit_ledger
    where key_id = ${keyId} and kind = 'charge' and created_at >= ${since}
    group by created_at / ${day}, operation
    order by 1, 2`.execute(db);
  return rows.map((row) => ({
    day: new Date(Math.floor(Number(row.day)) * DAY_MS).toISOString().slice(0, 10),
    operation: row.operation ?? 'other',
    calls: Number(row.calls),
    units: Number(row.units),
  }));
}
