import { hash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/database.ts';
import { recordGrant } from '../billing/ledger.ts';

const KEY_PREFIX = 'lb_';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Shown in listings so an operator can tell keys apart without the secret. */
const DISPLAY_PREFIX_LENGTH = 10;

export interface CreatedKey {
  id: number;
  name: string;
  /** The secret. Returned once, never stored. */
  key: string;
  prefix: string;
  credits: number;
  created_at: number;
}

export interface KeySummary {
  id: number;
  name: string;
  prefix: string;
  balance: number;
  created_at: number;
  revoked_at: number | null;
  rate_limits?: string | null;
}

export interface AuthenticatedKey {
  id: number;
  name: string;
  /** Per-operation requests per minute that replace the defaults for this key. */
  rateLimits?: Record<string, number>;
}

/** 32 characters of base62 from a CSPRNG: about 190 bits. Rejection sampling keeps it unbiased. */
function randomToken(length = 32): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function hashKey(key: string): string {
  // One-shot: on every authenticated request, and a third of the cost of createHash().update().digest().
  return hash('sha256', key, 'hex');
}

export interface KeyServiceOptions {
  /**
   * How long a successful authentication is remembered in this process (ms). Revoking through
   * this process takes effect at once; through another instance, within this time. 0 disables it.
   */
  authCacheTtlMs?: number;
}

const AUTH_CACHE_MAX = 10_000;

export class KeyService {
  /** Recent successful authentications by key hash (undefined when the cache is off). */
  private readonly authCache: LRUCache<string, AuthenticatedKey> | undefined;

  constructor(
    private readonly db: Db,
    options: KeyServiceOptions = {},
  ) {
    const ttl = options.authCacheTtlMs ?? 0;
    this.authCache = ttl > 0 ? new LRUCache({ max: AUTH_CACHE_MAX, ttl }) : undefined;
  }

  private forgetKey(id: number): void {
    for (const [hashed, key] of this.authCache?.entries() ?? []) if (key.id === id) this.authCache!.delete(hashed);
  }

  /** Creates a key with optional starting credits (millicredits), in one transaction. */
  async create(name: string, initialUnits = 0, now = Date.now()): Promise<CreatedKey> {
    const cleanName = name.trim();
    if (!cleanName) throw new Error('a key needs a name');
    const key = `${KEY_PREFIX}${randomToken()}`;
    const prefix = key.slice(0, DISPLAY_PREFIX_LENGTH);
    const id = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('api_keys')
        .values({ name: cleanName, prefix, key_hash: hashKey(key), balance: 0, created_at: now, revoked_at: null, rate_limits: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (initialUnits > 0) await recordGrant(trx, row.id, initialUnits, 'initial credits', now);
      return row.id;
    });
    return { id, name: cleanName, key, prefix, credits: initialUnits, created_at: now };
  }

  async list(): Promise<KeySummary[]> {
    return this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'prefix', 'balance', 'created_at', 'revoked_at', 'rate_limits'])
      .orderBy('id')
      .execute();
  }

  async get(id: number): Promise<KeySummary | undefined> {
    return this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'prefix', 'balance', 'created_at', 'revoked_at'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The key `id` as an authenticated caller, or null when it does not exist or is revoked (console calls: docs/console.md, Explore). */
  async activeById(id: number): Promise<AuthenticatedKey | null> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'revoked_at', 'rate_limits'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || row.revoked_at !== null) return null;
    const key: AuthenticatedKey = { id: row.id, name: row.name };
    if (row.rate_limits) key.rateLimits = JSON.parse(row.rate_limits) as Record<string, number>;
    return key;
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Sets (or with null, removes) a key's own per-minute limit for one operation. */
  async setRateLimit(id: number, operation: string, perMinute: number | null): Promise<Record<string, number>> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('api_keys').select('rate_limits').where('id', '=', id).executeTakeFirst();
      if (!row) throw new Error(`no key with id ${id}`);
      const limits = row.rate_limits ? (JSON.parse(row.rate_limits) as Record<string, number>) : {};
      if (perMinute === null) delete limits[operation];
      else limits[operation] = perMinute;
      const stored = Object.keys(limits).length ? JSON.stringify(limits) : null;
      await trx.updateTable('api_keys').set({ rate_limits: stored }).where('id', '=', id).execute();
      this.forgetKey(id);
      return limits;
    });
  }

  /**
   * The secret that signs the key's bulk-job webhooks: made on first use, replaced when `rotate`.
   * Null when there is no such key.
   */
  async webhookSecret(id: number, options: { rotate?: boolean } = {}): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('api_keys').select('webhook_secret').where('id', '=', id).executeTakeFirst();
      if (!row) return null;
      if (row.webhook_secret && !options.rotate) return row.webhook_secret;
      const secret = `whsec_${randomBytes(24).toString('hex')}`;
      await trx.updateTable('api_keys').set({ webhook_secret: secret }).where('id', '=', id).execute();
      return secret;
    });
  }

  /** Returns false when there is no such active key. */
  async revoke(id: number, now = Date.now()): Promise<boolean> {
    this.forgetKey(id);
    const res = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** A recent successful authentication of this key, without touching the database. */
  cachedAuthentication(presented: string): AuthenticatedKey | undefined {
    return this.authCache?.get(hashKey(presented));
  }

  /** The active key a client presented, or null for an unknown or revoked one. */
  async authenticate(presented: string): Promise<AuthenticatedKey | null> {
    if (!presented.startsWith(KEY_PREFIX) || presented.length > 128) return null;
    const hashed = hashKey(presented);
    const cached = this.authCache?.get(hashed);
    if (cached) return cached;
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'revoked_at', 'rate_limits'])
      .where('key_hash', '=', hashed)
      .executeTakeFirst();
    if (!row || row.revoked_at !== null) {
      this.authCache?.delete(hashed);
      return null;
    }
    const key: AuthenticatedKey = { id: row.id, name: row.name };
    if (row.rate_limits) key.rateLimits = JSON.parse(row.rate_limits) as Record<string, number>;
    this.authCache?.set(hashed, key);
    return key;
  }
}
