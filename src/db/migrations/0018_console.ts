// The console's tables: the operators' audit log, and each key's charges per day (usage charts).
import { sql, type Kysely } from 'kysely';
import { createTableWithId, isPostgres } from './helpers.ts';

// What operators did through the admin API and the console: who, what, on what, when. Rows are
// only ever added. Read newest first (the primary key's order), so no other index is needed.
export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'audit_log')
    .addColumn('at', 'bigint', (c) => c.notNull())
    // "operator (console)" or "operator (admin token)", with the caller's address.
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    // The call, as "POST /admin/keys/:id/credits".
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    // JSON of what was asked (secrets left out) and the answer's status.
    .addColumn('detail', 'text')
    .execute();
  // Each key's charges per UTC day and operation, kept by a trigger in the transaction of every
  // charge: the usage chart and the spend caps read a few rows, whatever the ledger's size. Filled
  // from the ledger already written.
  await db.schema
    .createTable('credit_usage_daily')
    .addColumn('key_id', 'integer', (c) => c.notNull())
    // Days since 1970-01-01 (UTC).
    .addColumn('day', 'integer', (c) => c.notNull())
    // '' for a charge without an operation.
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('calls', 'bigint', (c) => c.notNull())
    .addColumn('units', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('credit_usage_daily_pk', ['key_id', 'day', 'operation'])
    .execute();
  await sql`insert into credit_usage_daily (key_id, day, operation, calls, units)
    select key_id, created_at / 86400000, coalesce(operation, ''), count(*), sum(amount)
    from credit_ledger where kind = 'charge' group by key_id, created_at / 86400000, coalesce(operation, '')`.execute(db);
  const upsert = sql`insert into credit_usage_daily (key_id, day, operation, calls, units)
    values (new.key_id, new.created_at / 86400000, coalesce(new.operation, ''), 1, new.amount)
    on conflict (key_id, day, operation) do update
    set calls = credit_usage_daily.calls + 1, units = credit_usage_daily.units + excluded.units`;
  if (isPostgres(db)) {
    await sql`create function credit_usage_daily_charge() returns trigger language plpgsql as $$
      begin ${upsert}; return null; end $$`.execute(db);
    await sql`create trigger credit_usage_daily_charge after insert on credit_ledger
      for each row when (new.kind = 'charge') execute function credit_usage_daily_charge()`.execute(db);
  } else {
    await sql`create trigger credit_usage_daily_charge after insert on credit_ledger
      when new.kind = 'charge' begin ${upsert}; end`.execute(db);
  }
  // Spend caps: at most cap_units per UTC day or month, checked in the transaction of each charge.
  // api_keys.spend_capped says whether a key has one, so the charge of a key without a cap reads
  // nothing more than before (the balance UPDATE returns it).
  await db.schema
    .alterTable('api_keys')
    .addColumn('spend_capped', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('key_spend_caps')
    .addColumn('key_id', 'integer', (c) => c.primaryKey())
    // 'day' or 'month' (UTC).
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('cap_units', 'bigint', (c) => c.notNull())
    // Spend in the period from which the console warns (null: no warning).
    .addColumn('alert_units', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('key_spend_caps').execute();
  await db.schema.alterTable('api_keys').dropColumn('spend_capped').execute();
  await sql`drop trigger credit_usage_daily_charge${isPostgres(db) ? sql` on credit_ledger` : sql``}`.execute(db);
  if (isPostgres(db)) await sql`drop function credit_usage_daily_charge()`.execute(db);
  await db.schema.dropTable('credit_usage_daily').execute();
  await db.schema.dropTable('audit_log').execute();
}
