import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { createTableWithId, isPostgres } from './helpers.ts';

// The companies domain: see src/companies/tables.ts for what each column holds.
// Few secondary indexes on purpose: every one costs a B-tree insert per imported row. Lists of a
// company's domains, names and ids are read rarely (by company) and never deleted one by one.
export async function up(db: Kysely<any>): Promise<void> {
  // SQLite: tables keyed by text store rows in their primary-key B-tree (one tree, not two).
  const withoutRowid = <T extends CreateTableBuilder<any, any>>(t: T): T => (!isPostgres(db) ? (t.modifyEnd(sql`without rowid`) as T) : t);

  await createTableWithId(db, 'companies')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('normalized_name', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.unique())
    .addColumn('website', 'text')
    .addColumn('short_name', 'text')
    .addColumn('description', 'text')
    .addColumn('industry', 'text')
    .addColumn('industry_id', 'integer', (c) => c.references('job_industries.id'))
    .addColumn('size_label', 'text')
    .addColumn('employee_count', 'integer')
    .addColumn('employee_growth', 'text')
    .addColumn('founded_year', 'integer')
    .addColumn('company_type', 'text')
    .addColumn('status', 'text')
    .addColumn('ownership', 'text')
    .addColumn('phone', 'text')
    .addColumn('followers', 'integer')
    .addColumn('revenue', 'double precision')
    .addColumn('total_funding', 'double precision')
    .addColumn('technology_stack', 'text')
    .addColumn('sectors', 'text')
    .addColumn('location_name', 'text')
    .addColumn('locality', 'text')
    .addColumn('region', 'text')
    .addColumn('metro', 'text')
    .addColumn('country', 'text')
    .addColumn('country_code', 'text')
    .addColumn('continent', 'text')
    .addColumn('street_address', 'text')
    .addColumn('address_line_2', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('geo', 'text')
    .addColumn('prof_url', 'text')
    .addColumn('prof_id', 'text')
    .addColumn('social_a_url', 'text')
    .addColumn('social_b_url', 'text')
    .addColumn('social_b_handle', 'text')
    .addColumn('code_host_url', 'text')
    .addColumn('field_sources', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('companies_normalized_name').on('companies').column('normalized_name').execute();
  await db.schema.createIndex('companies_industry_id').on('companies').column('industry_id').execute();

  const companyId = (c: any) => c.notNull().references('companies.id').onDelete('cascade');

  await db.schema
    .createTable('company_domains')
    .addColumn('domain', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'bigint', companyId)
    .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .$call(withoutRowid)
    .execute();

  await createTableWithId(db, 'company_names')
    .addColumn('company_id', 'bigint', companyId)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('normalized_name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  // Serves name lookups (by key) and the upsert conflict target (key, company).
  await db.schema.createIndex('company_names_key').on('company_names').columns(['normalized_name', 'company_id']).unique().execute();

  await db.schema
    .createTable('company_external_ids')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('company_id', 'bigint', companyId)
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('company_external_ids_pk', ['kind', 'value'])
    .$call(withoutRowid)
    .execute();

  await createTableWithId(db, 'company_funding_rounds')
    .addColumn('company_id', 'bigint', companyId)
    .addColumn('round', 'text')
    .addColumn('announced_at', 'bigint')
    .addColumn('amount', 'double precision')
    .addColumn('currency', 'text')
    .addColumn('investors', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_ref', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('company_funding_rounds_ref')
    .on('company_funding_rounds')
    .columns(['company_id', 'source', 'source_ref'])
    .unique()
    .execute();

  await createTableWithId(db, 'company_leaders')
    .addColumn('company_id', 'bigint', companyId)
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('designation', 'text')
    .addColumn('prof_url', 'text')
    .addColumn('social_b_url', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('company_leaders_role').on('company_leaders').columns(['company_id', 'role']).unique().execute();

  await createTableWithId(db, 'company_competitors')
    .addColumn('company_id', 'bigint', companyId)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('normalized_name', 'text', (c) => c.notNull())
    .addColumn('revenue', 'text')
    .addColumn('employees', 'text')
    .addColumn('total_funding', 'text')
    .addColumn('headquarters', 'text')
    .addColumn('founded_at', 'bigint')
    .addColumn('ownership', 'text')
    .addColumn('website', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('company_competitors_name')
    .on('company_competitors')
    .columns(['company_id', 'normalized_name'])
    .unique()
    .execute();

  await createTableWithId(db, 'company_acquisitions')
    .addColumn('company_id', 'bigint', companyId)
    .addColumn('company_name', 'text', (c) => c.notNull())
    .addColumn('normalized_name', 'text', (c) => c.notNull())
    .addColumn('acquired_at', 'bigint')
    .addColumn('description', 'text')
    .addColumn('source_url', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('company_acquisitions_name')
    .on('company_acquisitions')
    .columns(['company_id', 'normalized_name'])
    .unique()
    .execute();

  await createTableWithId(db, 'company_articles')
    .addColumn('company_id', 'bigint', companyId)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('publisher', 'text')
    .addColumn('published_at', 'bigint')
    .addColumn('url', 'text')
    .addColumn('item_key', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('company_articles_key').on('company_articles').columns(['company_id', 'kind', 'item_key']).unique().execute();

  await createTableWithId(db, 'company_highlights')
    .addColumn('company_id', 'bigint', companyId)
    .addColumn('type', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('publisher', 'text')
    .addColumn('highlighted_at', 'bigint')
    .addColumn('src', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('company_highlights_text').on('company_highlights').columns(['company_id', 'text']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'company_highlights',
    'company_articles',
    'company_acquisitions',
    'company_competitors',
    'company_leaders',
    'company_funding_rounds',
    'company_external_ids',
    'company_names',
    'company_domains',
    'companies',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
