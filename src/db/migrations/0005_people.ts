import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.ts';

// The people domain: see src/people/tables.ts for what each column holds.
export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'people')
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('middle_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('name_prefix', 'text')
    .addColumn('name_suffix', 'text')
    .addColumn('nickname', 'text')
    .addColumn('profile_id', 'text', (c) => c.unique())
    .addColumn('profile_url', 'text')
    .addColumn('external_key', 'text', (c) => c.unique())
    .addColumn('field_sources', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  const personId = (c: any) => c.notNull().references('people.id').onDelete('cascade');
  const companyId = (c: any) => c.notNull().references('companies.id').onDelete('cascade');

  await createTableWithId(db, 'person_positions')
    .addColumn('person_id', 'bigint', personId)
    .addColumn('company_id', 'bigint', companyId)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_normalized', 'text', (c) => c.notNull())
    .addColumn('seniority_modifier', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_current', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .addColumn('position_key', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('person_positions_key').on('person_positions').columns(['person_id', 'position_key']).unique().execute();
  await db.schema.createIndex('person_positions_company').on('person_positions').column('company_id').execute();

  await db.schema
    .createTable('person_roles')
    .addColumn('position_id', 'bigint', (c) => c.notNull().references('person_positions.id').onDelete('cascade'))
    .addColumn('person_id', 'bigint', personId)
    .addColumn('company_id', 'bigint', companyId)
    .addColumn('role_key', 'text', (c) => c.notNull())
    .addColumn('fn', 'text', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('person_roles_pk', ['position_id', 'role_key'])
    .execute();
  // The role finder: (company, role key) for exact roles, (company, function) for function-only queries.
  await db.schema.createIndex('person_roles_company_role').on('person_roles').columns(['company_id', 'role_key']).execute();
  await db.schema.createIndex('person_roles_company_fn').on('person_roles').columns(['company_id', 'fn', 'rank']).execute();
  await db.schema.createIndex('person_roles_person').on('person_roles').column('person_id').execute();

  await createTableWithId(db, 'person_emails')
    .addColumn('person_id', 'bigint', personId)
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('obtained_by', 'text', (c) => c.notNull())
    .addColumn('status', 'text')
    .addColumn('verified_at', 'bigint')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('person_emails_person_email').on('person_emails').columns(['person_id', 'email']).unique().execute();
  await db.schema.createIndex('person_emails_email').on('person_emails').column('email').execute();
  await db.schema.createIndex('person_emails_domain').on('person_emails').column('domain').execute();

  await createTableWithId(db, 'person_phones')
    .addColumn('person_id', 'bigint', personId)
    .addColumn('e164', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('person_phones_person_e164').on('person_phones').columns(['person_id', 'e164']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['person_phones', 'person_emails', 'person_roles', 'person_positions', 'people']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
