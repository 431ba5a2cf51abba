import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { enforceSpendCap } from './caps.ts';

/** Adds a grant to a key's balance and the ledger, inside the caller's transaction. */
export async function recordGrant(
  trx: Kysely<Database>,
  keyId: number,
  units: number,
  note: string | null,
  now = Date.now(),
): Promise<number> {
  if (!Number.isSafeInteger(units) || units <= 0) throw new Error('a grant must be a positive whole number of units');
  const row = await trx
    .updateTable('api_keys')
    .set((eb) => ({ balance: eb('balance', '+', units) }))
    .where('id', '=', keyId)
    .returning('balance')
    .executeTakeFirst();
  if (!row) throw new Error(`no API key with id ${keyId}`);
  await trx
    .insertInto('credit_ledger')
    .values({ key_id: keyId, kind: 'grant', amount: units, operation: null, request_id: null, note, created_at: now })
    .execute();
  return row.balance;
}

/**
 * Spends `units` from a key's balance and writes the ledger row, inside the caller's transaction;
 * the new balance, or null (nothing written) when the balance cannot cover it. The condition in
 * the UPDATE makes check-and-spend one atomic step on both dialects.
 */
export async function recordCharge(
  trx: Kysely<Database>,
  charge: { keyId: number; units: number; operation: string; requestId: string; note?: string | null },
  now = Date.now(),
): Promise<number | null> {
  if (!Number.isSafeInteger(charge.units) || charge.units <= 0) throw new Error('a charge must be a positive whole number of units');
  const row = await trx
    .updateTable('api_keys')
    .set((eb) => ({ balance: eb('balance', '-', charge.units) }))
    .where('id', '=', charge.keyId)
    .where('balance', '>=', charge.units)
    .returning(['balance', 'spend_capped'])
    .executeTakeFirst();
  if (!row) return null;
  // After the UPDATE: the key's row is locked, so charges of a capped key are counted one at a time.
  if (Number(row.spend_capped) === 1) await enforceSpendCap(trx, charge.keyId, charge.units, now);
  await trx
    .insertInto('credit_ledger')
    .values({
      key_id: charge.keyId,
      kind: 'charge',
      amount: charge.units,
      operation: charge.operation,
      request_id: charge.requestId,
      note: charge.note ?? null,
      created_at: now,
    })
    .execute();
  return row.balance;
}
