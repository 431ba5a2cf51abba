// Greylisted addresses are asked again later (greylisting servers accept a retry after a few
// minutes). The queue and its answers live in the database, so any instance can do the work and
// every instance can serve the answer.
import type { Db } from '../db/database.ts';
import { PreparedQuery } from '../db/prepared-query.ts';
import type { EmailValidation } from '../contract/email.ts';

const LEASE_MS = 60_000;
export const MAX_RECHECK_ATTEMPTS = 3;

export interface DueRecheck {
  address: string;
  attempts: number;
}

export class RecheckStore {
  // Asked on every validation not served from memory. Parameters: [address, 'done'].
  private readonly resultQuery;

  constructor(private readonly db: Db) {
    this.resultQuery = new PreparedQuery(
      db,
      db.selectFrom('email_rechecks').select(['result_json', 'checked_at']).where('address', '=', '').where('state', '=', 'done'),
      2,
    );
  }

  /** Queues `address` for a re-check at `dueAt` (keeps an earlier pending due time). */
  async schedule(address: string, domain: string, dueAt: number): Promise<void> {
    await this.db
      .insertInto('email_rechecks')
      .values({ address, domain, state: 'pending', due_at: dueAt, attempts: 0, claimed_until: 0, result_json: null, checked_at: null })
      .onConflict((oc) =>
        oc.column('address').doUpdateSet({ state: 'pending', due_at: dueAt, result_json: null, checked_at: null, attempts: 0 }),
      )
      .execute();
  }

  /** Claims up to `limit` due addresses for this worker (a lease other workers respect). */
  async claimDue(now: number, limit: number): Promise<DueRecheck[]> {
    const candidates = await this.db
      .selectFrom('email_rechecks')
      .select(['address', 'attempts', 'claimed_until'])
      .where('state', '=', 'pending')
      .where('due_at', '<=', now)
      .where('claimed_until', '<', now)
      .orderBy('due_at')
      .limit(limit)
      .execute();
    const claimed: DueRecheck[] = [];
    for (const c of candidates) {
      // Compare-and-set on the lease: only one instance wins each address.
      const result = await this.db
        .updateTable('email_rechecks')
        .set({ claimed_until: now + LEASE_MS })
        .where('address', '=', c.address)
        .where('claimed_until', '=', c.claimed_until)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) claimed.push({ address: c.address, attempts: c.attempts });
    }
    return claimed;
  }

  async complete(address: string, validation: EmailValidation, checkedAt: number): Promise<void> {
    await this.db
      .updateTable('email_rechecks')
      .set({ state: 'done', result_json: JSON.stringify(validation), checked_at: checkedAt, claimed_until: 0 })
      .where('address', '=', address)
      .execute();
  }

  async retryLater(address: string, attempts: number, dueAt: number): Promise<void> {
    await this.db.updateTable('email_rechecks').set({ attempts, due_at: dueAt, claimed_until: 0 }).where('address', '=', address).execute();
  }

  /** The stored answer of a finished re-check, with when it was found. */
  async result(address: string): Promise<{ validation: EmailValidation; checkedAt: number } | null> {
    const [row] = await this.resultQuery.rows([address, 'done']);
    if (!row?.result_json || row.checked_at === null) return null;
    return { validation: JSON.parse(row.result_json) as EmailValidation, checkedAt: row.checked_at };
  }

  async state(address: string): Promise<{ state: string; attempts: number; due_at: number } | null> {
    return (
      (await this.db
        .selectFrom('email_rechecks')
        .select(['state', 'attempts', 'due_at'])
        .where('address', '=', address)
        .executeTakeFirst()) ?? null
    );
  }
}
