import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

// Idempotency-Key handling (IETF httpapi idempotency-key draft): a retry with the same key and
// body within 24 hours replays the stored response; another body is refused; a retry while the
// first request still runs is refused.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * An in-flight record is leased for this long and renewed every LEASE_RENEWAL_MS by the request that
 * holds it; once the lease lapses (that request's instance died) a retry may take the record over.
 */
export const IN_FLIGHT_LEASE_MS = 5_000;
export const LEASE_RENEWAL_MS = 1_500;

/** The lease was taken over by a retry: this request may no longer store a response or charge for it. */
export class LeaseLostError extends Error {
  constructor() {
    super('The Idempotency-Key record was taken over by a retry of this request.');
  }
}

/** A token naming the request that holds a record (a fencing token: a take-over replaces it). */
export function newOwnerToken(): string {
  return randomBytes(12).toString('base64url');
}

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export type BeginOutcome = { kind: 'new' } | { kind: 'replay'; response: StoredResponse } | { kind: 'mismatch' } | { kind: 'in_flight' };

/** Stable JSON: object keys sorted, so the same body written twice has one fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

/** A record claimed by a request that has just started. */
function inFlightRecord(fingerprint: string, now: number, owner: string) {
  return {
    fingerprint,
    owner,
    state: 'in_flight' as const,
    status_code: null,
    headers: null,
    body: null,
    created_at: now,
    locked_until: now + IN_FLIGHT_LEASE_MS,
    expires_at: now + IDEMPOTENCY_TTL_MS,
  };
}

export class IdempotencyStore {
  constructor(private readonly db: Db) {}

  /** Claims the key for a new request named by `owner`, or says why not. */
  async begin(keyId: number, idemKey: string, fingerprint: string, now = Date.now(), owner = newOwnerToken()): Promise<BeginOutcome> {
    const inserted = await this.db
      .insertInto('idempotency_records')
      .values({ key_id: keyId, idem_key: idemKey, ...inFlightRecord(fingerprint, now, owner) })
      .onConflict((oc) => oc.columns(['key_id', 'idem_key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'new' };

    const existing = await this.db
      .selectFrom('idempotency_records')
      .selectAll()
      .where('key_id', '=', keyId)
      .where('idem_key', '=', idemKey)
      .executeTakeFirst();
    if (!existing) return this.begin(keyId, idemKey, fingerprint, now, owner); // deleted meanwhile: try again

    const expired = existing.expires_at <= now;
    const abandoned = existing.state === 'in_flight' && existing.locked_until <= now;
    if (expired || (abandoned && existing.fingerprint === fingerprint)) {
      // Take the record over; the conditions make sure only one retry wins.
      const taken = await this.db
        .updateTable('idempotency_records')
        .set(inFlightRecord(fingerprint, now, owner))
        .where('key_id', '=', keyId)
        .where('idem_key', '=', idemKey)
        .where('created_at', '=', existing.created_at)
        .where('locked_until', '=', existing.locked_until)
        .where('state', '=', existing.state)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) return { kind: 'new' };
      return this.begin(keyId, idemKey, fingerprint, now, owner);
    }
    if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (existing.state === 'in_flight') return { kind: 'in_flight' };
    return {
      kind: 'replay',
      response: {
        statusCode: existing.status_code ?? 200,
        headers: existing.headers ? (JSON.parse(existing.headers) as Record<string, string>) : {},
        body: existing.body ?? '',
      },
    };
  }

  /** Extends the lease of a record `owner` still holds; false when a retry has taken it over. */
  async renew(keyId: number, idemKey: string, owner: string, now = Date.now()): Promise<boolean> {
    const res = await this.db
      .updateTable('idempotency_records')
      .set({ locked_until: now + IN_FLIGHT_LEASE_MS })
      .where('key_id', '=', keyId)
      .where('idem_key', '=', idemKey)
      .where('state', '=', 'in_flight')
      .where('owner', '=', owner)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /**
   * Stores a response that was not charged (the charged ones are stored by BillingService.settle).
   * With `owner`, only while that request still holds the record (LeaseLostError otherwise).
   */
  async complete(keyId: number, idemKey: string, response: StoredResponse, now = Date.now(), owner?: string): Promise<void> {
    await completeIdempotentResponse(this.db, keyId, idemKey, response, now, owner);
  }

  /** Forgets an in-flight request that ended in a way a retry should redo (5xx, 402, 429…). */
  async release(keyId: number, idemKey: string, owner?: string): Promise<void> {
    let query = this.db
      .deleteFrom('idempotency_records')
      .where('key_id', '=', keyId)
      .where('idem_key', '=', idemKey)
      .where('state', '=', 'in_flight');
    if (owner !== undefined) query = query.where('owner', '=', owner);
    await query.execute();
  }

  async purgeExpired(now = Date.now()): Promise<number> {
    const res = await this.db.deleteFrom('idempotency_records').where('expires_at', '<=', now).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}

export async function completeIdempotentResponse(
  db: Kysely<Database>,
  keyId: number,
  idemKey: string,
  response: StoredResponse,
  now: number,
  owner?: string,
): Promise<void> {
  let query = db
    .updateTable('idempotency_records')
    .set({
      state: 'done',
      owner: null,
      status_code: response.statusCode,
      headers: JSON.stringify(response.headers),
      body: response.body,
      expires_at: now + IDEMPOTENCY_TTL_MS,
    })
    .where('key_id', '=', keyId)
    .where('idem_key', '=', idemKey);
  // Fenced: a request whose record a retry took over must not store (nor, in settle's transaction, charge).
  if (owner !== undefined) query = query.where('state', '=', 'in_flight').where('owner', '=', owner);
  const res = await query.executeTakeFirst();
  if (owner !== undefined && Number(res.numUpdatedRows) !== 1) throw new LeaseLostError();
}
