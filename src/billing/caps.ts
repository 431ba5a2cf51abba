// Spend caps (docs/console.md, "Spend caps"): a key may spend at most a number of credits per UTC
// day or month. A charge that would pass the cap is refused inside the charge's own transaction
// (SpendCapReachedError: nothing is charged, the caller's transaction rolls back); an alert
// threshold below the cap marks the key in the console once the period's spend reaches it.
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { SpendCapReachedError } from './errors.ts';

const DAY_MS = 86_400_000;

export type CapPeriod = 'day' | 'month';

export interface SpendCap {
  period: CapPeriod;
  capUnits: number;
  alertUnits: number | null;
}

/** The first UTC day (days since 1970-01-01) of the period holding `now`. */
export function periodStartDay(period: CapPeriod, now: number): number {
  if (period === 'day') return Math.floor(now / DAY_MS);
  const date = new Date(now);
  return Math.floor(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / DAY_MS);
}

/** Charges of the key since the period's first day (the per-day sums kept with every charge). */
async function spentSince(trx: Kysely<Database>, keyId: number, day: number): Promise<number> {
  const row = await trx
    .selectFrom('credit_usage_daily')
    .select((eb) => eb.fn.sum<number | string | null>('units').as('units'))
    .where('key_id', '=', keyId)
    .where('day', '>=', day)
    .executeTakeFirst();
  return Number(row?.units ?? 0);
}

/** Throws SpendCapReachedError when `units` more would pass the key's cap. Called by recordCharge. */
export async function enforceSpendCap(trx: Kysely<Database>, keyId: number, units: number, now: number): Promise<void> {
  const cap = await trx.selectFrom('key_spend_caps').select(['period', 'cap_units']).where('key_id', '=', keyId).executeTakeFirst();
  if (!cap) return;
  const spent = await spentSince(trx, keyId, periodStartDay(cap.period, now));
  if (spent + units > Number(cap.cap_units)) throw new SpendCapReachedError(cap.period, Number(cap.cap_units), spent, units);
}

/** The key's cap with what it spent in the current period, or null. */
export async function spendCapOf(db: Db, keyId: number, now = Date.now()): Promise<(SpendCap & { spentUnits: number }) | null> {
  const cap = await db.selectFrom('key_spend_caps').selectAll().where('key_id', '=', keyId).executeTakeFirst();
  if (!cap) return null;
  return {
    period: cap.period,
    capUnits: Number(cap.cap_units),
    alertUnits: cap.alert_units == null ? null : Number(cap.alert_units),
    spentUnits: await spentSince(db, keyId, periodStartDay(cap.period, now)),
  };
}

/** Sets (or with null removes) the key's cap. */
export async function setSpendCap(db: Db, keyId: number, cap: SpendCap | null): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('key_spend_caps').where('key_id', '=', keyId).execute();
    if (cap) {
      await trx
        .insertInto('key_spend_caps')
        .values({ key_id: keyId, period: cap.period, cap_units: cap.capUnits, alert_units: cap.alertUnits })
        .execute();
    }
    await trx
      .updateTable('api_keys')
      .set({ spend_capped: cap ? 1 : 0 })
      .where('id', '=', keyId)
      .execute();
  });
}
