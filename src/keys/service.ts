import { createHash, randomBytes } from 'node:crypto';
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
}

export interface AuthenticatedKey {
  id: number;
  name: string;
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
  return createHash('sha256').update(key).digest('hex');
}

export class KeyService {
  constructor(private readonly db: Db) {}

  /** Creates a key with optional starting credits (millicredits), in one transaction. */
  async create(name: string, initialUnits = 0, now = Date.now()): Promise<CreatedKey> {
    const cleanName = name.trim();
    if (!cleanName) throw new Error('a key needs a name');
    const key = `${KEY_PREFIX}${randomToken()}`;
    const prefix = key.slice(0, DISPLAY_PREFIX_LENGTH);
    const id = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('api_keys')
        .values({ name: cleanName, prefix, key_hash: hashKey(key), balance: 0, created_at: now, revoked_at: null })
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
      .select(['id', 'name', 'prefix', 'balance', 'created_at', 'revoked_at'])
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

  async count(): Promise<number> {
    const row = await this.db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Returns false when there is no such active key. */
  async revoke(id: number, now = Date.now()): Promise<boolean> {
    const res = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** The active key a client presented, or null for an unknown or revoked one. */
  async authenticate(presented: string): Promise<AuthenticatedKey | null> {
    if (!presented.startsWith(KEY_PREFIX) || presented.length > 128) return null;
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'revoked_at'])
      .where('key_hash', '=', hashKey(presented))
      .executeTakeFirst();
    if (!row || row.revoked_at !== null) return null;
    return { id: row.id, name: row.name };
  }
}
