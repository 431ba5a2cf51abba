import type { Selectable } from 'kysely';
import type { CreditLedgerTable } from '../db/platform-tables.ts';
import type { Db } from '../db/database.ts';
import { PreparedQuery } from '../db/prepared-query.ts';
import { recordCharge, recordGrant } from './ledger.ts';
import { InsufficientCreditsError } from './errors.ts';
import { completeIdempotentResponse, type StoredResponse } from './idempotency.ts';

export interface SettleInput {
  keyId: number;
  operation: string;
  /** Millicredits; 0 records nothing. */
  cost: number;
  requestId: string;
  /** When the request carries an Idempotency-Key: the response to store, built from the new balance. */
  idempotency?: { idemKey: string; owner?: string; render: (balance: number) => StoredResponse };
  now?: number;
}

/** One ledger row of a key, as `usage` lists it. */
export type UsageRow = Omit<Selectable<CreditLedgerTable>, 'key_id'>;

export class BillingService {
  /** The balance read is on the hot path of /credits: built once, only its parameter changes. */
  private readonly balanceQuery: PreparedQuery<{ balance: number }>;
  /** Balance reads asked for and not yet made, by key id (see balance). */
  private readonly pendingReads = new Map<number, Promise<number>>();

  constructor(private readonly db: Db) {
    this.balanceQuery = new PreparedQuery(db, db.selectFrom('api_keys').select('balance').where('id', '=', 0), 1);
  }

  /**
   * The key's balance as the database holds it. Callers in one task of the event loop (the
   * handlers of one handler pass, see src/http/plugins/handler-pass.ts) share one read per key,
   * made when that task ends: after every one of them asked and before any of them is answered, so
   * each gets the balance at a moment within its own request, exactly as a read of its own would.
   * A caller after that read gets the next one.
   */
  balance(keyId: number): Promise<number> {
    let read = this.pendingReads.get(keyId);
    if (!read) {
      read = Promise.resolve().then(() => {
        // From here on a caller gets the next read: this one may not include its request.
        this.pendingReads.delete(keyId);
        return this.readBalance(keyId);
      });
      this.pendingReads.set(keyId, read);
    }
    return read;
  }

  private async readBalance(keyId: number): Promise<number> {
    const rows = await this.balanceQuery.rows([keyId]);
    if (!rows[0]) throw new Error(`no API key with id ${keyId}`);
    return rows[0].balance;
  }

  async grant(keyId: number, units: number, note: string | null = null): Promise<number> {
    return this.db.transaction().execute((trx) => recordGrant(trx, keyId, units, note));
  }

  /**
   * Charges `cost` and stores the idempotent response in one transaction, so a served result is
   * always paid for and a retry never pays twice. Throws InsufficientCreditsError (nothing charged,
   * nothing stored) when the balance cannot cover the cost. Returns the balance after the charge.
   */
  async settle(input: SettleInput): Promise<number> {
    const now = input.now ?? Date.now();
    return this.db.transaction().execute(async (trx) => {
      let balance: number;
      if (input.cost > 0) {
        const charged = await recordCharge(
          trx,
          { keyId: input.keyId, units: input.cost, operation: input.operation, requestId: input.requestId },
          now,
        );
        if (charged === null) {
          const current = await trx.selectFrom('api_keys').select('balance').where('id', '=', input.keyId).executeTakeFirst();
          throw new InsufficientCreditsError(input.cost, current?.balance ?? 0);
        }
        balance = charged;
      } else {
        const row = await trx.selectFrom('api_keys').select('balance').where('id', '=', input.keyId).executeTakeFirstOrThrow();
        balance = row.balance;
      }
      if (input.idempotency) {
        // Throws LeaseLostError when a retry took the key over meanwhile: the charge is rolled back with it.
        const { idemKey, owner, render } = input.idempotency;
        await completeIdempotentResponse(trx, input.keyId, idemKey, render(balance), now, owner);
      }
      return balance;
    });
  }

  /** The ledger of a key, newest first. */
  async usage(keyId: number, limit = 100): Promise<UsageRow[]> {
    return this.db
      .selectFrom('credit_ledger')
      .select(['id', 'kind', 'amount', 'operation', 'request_id', 'note', 'created_at'])
      .where('key_id', '=', keyId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Grants minus charges, recomputed from the ledger (the balance column must always equal it). */
  async ledgerBalance(keyId: number): Promise<number> {
    const rows = await this.db
      .selectFrom('credit_ledger')
      .select(['kind', (eb) => eb.fn.sum<number>('amount').as('total')])
      .where('key_id', '=', keyId)
      .groupBy('kind')
      .execute();
    let total = 0;
    for (const r of rows) total += (r.kind === 'grant' ? 1 : -1) * Number(r.total);
    return total;
  }
}
