import { sql, type Kysely } from 'kysely';
import { createTableWithId, isPostgres } from './helpers.ts';

// The jobs domain: see src/jobs/tables.ts and docs/jobs.md (search design).
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await createTableWithId(db, 'jobs')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('board', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'bigint', (c) => c.references('companies.id').onDelete('set null'))
    .addColumn('company_name', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('has_remote', 'integer', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('experience_level', 'text', (c) => c.notNull())
    .addColumn('type_ids', 'text', (c) => c.notNull())
    .addColumn('city_ids', 'text', (c) => c.notNull())
    .addColumn('country_codes', 'text', (c) => c.notNull())
    .addColumn('region_ids', 'text', (c) => c.notNull())
    .addColumn('clearance_required', 'integer', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('salary_min', 'double precision')
    .addColumn('salary_max', 'double precision')
    .addColumn('salary_currency', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('application_url', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('expired', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expired_at', 'bigint')
    .execute();
  await db.schema.createIndex('jobs_source_identity').on('jobs').columns(['source', 'board', 'source_id']).unique().execute();
  await db.schema.createIndex('jobs_company').on('jobs').column('company_id').execute();

  const facets = db.schema
    .createTable('job_facets')
    .addColumn('facet', 'text', (c) => c.notNull())
    .addColumn('has_remote', 'integer', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('job_id', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_facets_pk', ['facet', 'has_remote', 'published_at', 'job_id']);
  // SQLite: the table is its own index (clustered), no second copy of every key.
  await (postgres ? facets : facets.modifyEnd(sql`without rowid`)).execute();

  // Live listings only, in a few bytes each: full-text matches are filtered through this small
  // table instead of reading the wide jobs rows.
  await db.schema
    .createTable('job_live')
    .addColumn('job_id', postgres ? 'bigint' : 'integer', (c) => c.primaryKey())
    .addColumn('has_remote', 'integer', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('job_facet_days')
    .addColumn('facet', 'text', (c) => c.notNull())
    .addColumn('has_remote', 'integer', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_facet_days_pk', ['facet', 'has_remote', 'day'])
    .execute();

  if (postgres) {
    await sql`alter table jobs add column description_tsv tsvector generated always as (to_tsvector('simple', left(description, 100000))) stored`.execute(
      db,
    );
    await sql`create index jobs_description_tsv on jobs using gin (description_tsv)`.execute(db);
  } else {
    // Contentless: the text lives in jobs.description; the index holds only live listings (rowid = jobs.id).
    await sql`create virtual table jobs_fts using fts5(description, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) await sql`drop table if exists jobs_fts`.execute(db);
  for (const table of ['job_facet_days', 'job_live', 'job_facets', 'jobs']) await db.schema.dropTable(table).ifExists().execute();
}
