import { sql, type Kysely } from 'kysely';
import { createTableWithId } from './helpers.ts';
import { JOB_COMPANY_TYPES_0001, JOB_COUNTRIES_0001, JOB_INDUSTRIES_0001, JOB_REGIONS_0001, JOB_TYPES_0001 } from './0001_lookups_data.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'api_keys')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('balance', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`balance >= 0`),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('rate_limits', 'text')
    .execute();

  await createTableWithId(db, 'credit_ledger')
    .addColumn('key_id', 'integer', (c) => c.notNull().references('api_keys.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('grant', 'charge')`))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('operation', 'text')
    .addColumn('request_id', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('credit_ledger_key_time').on('credit_ledger').columns(['key_id', 'created_at']).execute();

  await db.schema
    .createTable('idempotency_records')
    .addColumn('key_id', 'integer', (c) => c.notNull())
    .addColumn('idem_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('headers', 'text')
    .addColumn('body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pk', ['key_id', 'idem_key'])
    .execute();
  await db.schema.createIndex('idempotency_records_expiry').on('idempotency_records').column('expires_at').execute();

  for (const table of ['job_types', 'job_regions', 'job_company_types', 'job_industries']) {
    await db.schema
      .createTable(table)
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .execute();
  }
  await db.schema
    .createTable('job_countries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('region_id', 'integer', (c) => c.notNull().references('job_regions.id'))
    .execute();

  await db.insertInto('job_types').values(JOB_TYPES_0001).execute();
  await db.insertInto('job_regions').values(JOB_REGIONS_0001).execute();
  await db.insertInto('job_company_types').values(JOB_COMPANY_TYPES_0001).execute();
  await db.insertInto('job_industries').values(JOB_INDUSTRIES_0001).execute();
  await db.insertInto('job_countries').values(JOB_COUNTRIES_0001).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'job_countries',
    'job_industries',
    'job_company_types',
    'job_regions',
    'job_types',
    'idempotency_records',
    'credit_ledger',
    'api_keys',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
