// Probe limits' shared store in the application database, for deployments without Redis (see
// shared-limits.ts): rows of `probe_leases` (slots held, tickets in line, instances alive) and
// `probe_buckets`. Each operation is one transaction that first takes the key's lock: a
// transaction-scoped advisory lock on PostgreSQL, the write lock SQLite's transactions begin with.
// Times are the instances' clocks: an expiry is several heartbeats long, far beyond their skew.
import { sql } from 'kysely';
import type { Db, DialectName } from '../db/database.ts';
import type { LeaseEntry, LeaseStore } from './shared-limits.ts';

const INSTANCES = '~instances';

export class DatabaseLeaseStore implements LeaseStore {
  readonly pollMs = 50;
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
  ) {}

  /** Runs `fn` in a transaction holding `key`'s lock, after expired rows of the key are dropped. */
  private locked<T>(key: string, fn: (trx: Db, now: number) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
      const now = Date.now();
      await trx.deleteFrom('probe_leases').where('key', '=', key).where('expires_at', '<', now).execute();
      return fn(trx, now);
    });
  }

  private async counts(trx: Db, key: string): Promise<{ held: number; waiting: number; lastTicket: number }> {
    const rows = await trx
      .selectFrom('probe_leases')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('ticket').as('last')])
      .where('key', '=', key)
      .groupBy('state')
      .execute();
    const of = (state: string) => rows.find((r) => r.state === state);
    return {
      held: Number(of('held')?.n ?? 0),
      waiting: Number(of('waiting')?.n ?? 0),
      lastTicket: Math.max(0, ...rows.map((r) => Number(r.last ?? 0))),
    };
  }

  enter(key: string, lease: string, limit: number, ttlMs: number, queue: boolean): Promise<boolean> {
    return this.locked(key, async (trx, now) => {
      const { held, waiting, lastTicket } = await this.counts(trx, key);
      if (waiting === 0 && held < limit) {
        await trx
          .insertInto('probe_leases')
          .values({ key, lease, state: 'held', ticket: 0, expires_at: now + ttlMs })
          .execute();
        return true;
      }
      if (queue)
        await trx
          .insertInto('probe_leases')
          .values({ key, lease, state: 'waiting', ticket: lastTicket + 1, expires_at: now + ttlMs })
          .execute();
      return false;
    });
  }

  grant(key: string, leases: string[], limit: number, ttlMs: number): Promise<string[]> {
    return this.locked(key, async (trx, now) => {
      const { held } = await this.counts(trx, key);
      if (held >= limit) return [];
      const first = await trx
        .selectFrom('probe_leases')
        .select('lease')
        .where('key', '=', key)
        .where('state', '=', 'waiting')
        .orderBy('ticket')
        .limit(limit - held)
        .execute();
      const mine = new Set(leases);
      const granted = first.map((r) => r.lease).filter((lease) => mine.has(lease));
      if (granted.length)
        await trx
          .updateTable('probe_leases')
          .set({ state: 'held', expires_at: now + ttlMs })
          .where('key', '=', key)
          .where('lease', 'in', granted)
          .execute();
      return granted;
    });
  }

  /** A plain delete: the freed slot goes to whichever waiter asks next (this store pushes nothing). */
  async leave(key: string, lease: string): Promise<string[]> {
    await this.db.deleteFrom('probe_leases').where('key', '=', key).where('lease', '=', lease).execute();
    return [];
  }

  async renew(entries: LeaseEntry[], ttlMs: number): Promise<Set<string>> {
    const now = Date.now();
    const leases = entries.map((e) => e.lease);
    const present = new Set<string>();
    for (let i = 0; i < leases.length; i += 500) {
      const chunk = leases.slice(i, i + 500);
      await this.db
        .updateTable('probe_leases')
        .set({ expires_at: now + ttlMs })
        .where('lease', 'in', chunk)
        .execute();
      for (const row of await this.db.selectFrom('probe_leases').select('lease').where('lease', 'in', chunk).execute())
        present.add(row.lease);
    }
    return new Set(leases.filter((lease) => !present.has(lease)));
  }

  async restore(entries: LeaseEntry[], ttlMs: number): Promise<void> {
    for (const entry of entries) {
      await this.locked(entry.key, async (trx, now) => {
        const ticket = entry.waiting ? (await this.counts(trx, entry.key)).lastTicket + 1 : 0;
        await trx
          .insertInto('probe_leases')
          .values({ key: entry.key, lease: entry.lease, state: entry.waiting ? 'waiting' : 'held', ticket, expires_at: now + ttlMs })
          .onConflict((oc) => oc.columns(['key', 'lease']).doUpdateSet({ expires_at: now + ttlMs }))
          .execute();
      });
    }
  }

  take(key: string, units: number, capacity: number, perMs: number): Promise<number> {
    return this.locked(`bucket|${key}`, async (trx, now) => {
      const row = await trx.selectFrom('probe_buckets').select(['tokens', 'at']).where('key', '=', key).executeTakeFirst();
      let tokens = row ? Number(row.tokens) : capacity;
      tokens = Math.min(capacity, tokens + Math.max(0, now - (row ? Number(row.at) : now)) * perMs);
      const wait = tokens >= units ? 0 : Math.ceil((units - tokens) / perMs);
      if (wait === 0) tokens -= units;
      await trx
        .insertInto('probe_buckets')
        .values({ key, tokens, at: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ tokens, at: now }))
        .execute();
      return wait;
    });
  }

  beat(instance: string, ttlMs: number): Promise<string[]> {
    return this.locked(INSTANCES, async (trx, now) => {
      await trx
        .insertInto('probe_leases')
        .values({ key: INSTANCES, lease: instance, state: 'alive', ticket: 0, expires_at: now + ttlMs })
        .onConflict((oc) => oc.columns(['key', 'lease']).doUpdateSet({ expires_at: now + ttlMs }))
        .execute();
      // Expired slots and tickets of keys nobody asks about any more are swept here too, and once a
      // minute the buckets idle long enough to be full again (a missing bucket starts full).
      await trx.deleteFrom('probe_leases').where('expires_at', '<', now).execute();
      if (now - this.lastSweep > 60_000) {
        this.lastSweep = now;
        await trx
          .deleteFrom('probe_buckets')
          .where('at', '<', now - 120_000)
          .execute();
      }
      const rows = await trx.selectFrom('probe_leases').select('lease').where('key', '=', INSTANCES).execute();
      return rows.map((row) => row.lease);
    });
  }
}
