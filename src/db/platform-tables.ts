import type { Generated } from 'kysely';

// Instants are epoch milliseconds (INTEGER in SQLite, BIGINT in PostgreSQL).
// Credits are integer millicredits (1 credit = 1000 units): never floating point.

export interface ApiKeyTable {
  id: Generated<number>;
  name: string;
  /** First characters of the key, safe to show in listings. */
  prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  key_hash: string;
  /** Current balance in millicredits; always equals grants minus charges in credit_ledger. */
  balance: number;
  created_at: number;
  revoked_at: number | null;
  /** JSON object of per-operation requests-per-minute granted to this key above the defaults, or null. */
  rate_limits: string | null;
  /** Signs the completion webhooks of the key's bulk jobs (HMAC-SHA256); made on first use. */
  webhook_secret: string | null;
  /** 1 when the key has a spend cap (key_spend_caps), checked in each charge's transaction. */
  spend_capped: Generated<number>;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  key_id: number;
  /** 'grant' adds credits, 'charge' spends them. Rows are never updated or deleted. */
  kind: 'grant' | 'charge';
  /** Positive millicredits. */
  amount: number;
  operation: string | null;
  request_id: string | null;
  note: string | null;
  created_at: number;
}

export interface IdempotencyTable {
  key_id: number;
  idem_key: string;
  fingerprint: string;
  state: 'in_flight' | 'done';
  status_code: number | null;
  headers: string | null;
  body: string | null;
  created_at: number;
  /** An in-flight record whose lease ends before now is abandoned (its request crashed) and may be taken over. */
  locked_until: number;
  /** Token of the request holding the in-flight record; null once done (and on records from before 0010). */
  owner: string | null;
  expires_at: number;
}

export interface LookupTable {
  id: number;
  name: string;
}

export interface JobCountryTable {
  id: string;
  name: string;
  region_id: number;
}

export interface PlatformTables {
  api_keys: ApiKeyTable;
  credit_ledger: CreditLedgerTable;
  idempotency_records: IdempotencyTable;
  job_types: LookupTable;
  job_regions: LookupTable;
  job_countries: JobCountryTable;
  job_company_types: LookupTable;
  job_industries: LookupTable;
}
