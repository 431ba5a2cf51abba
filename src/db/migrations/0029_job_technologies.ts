import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

// Technographics (src/jobs/technographics.ts) read each technology a listing names from a table
// written with the listing, instead of matching the company's listing descriptions against the
// dictionary on every answer. One row per (listing, technology), keyed by the company and the
// listing's publication so that an answer reads one key range: its company's most recent listings.
// The rows are made by the application's matcher, which this migration cannot call (migrations are
// frozen): job_technologies_state says which dictionary the rows were made with, '' when they still
// have to be built (a store with listings), 'empty' when there was nothing to build. The server
// builds them in the background at start when they are not current (until then answers read the
// descriptions, as before).
export async function up(db: Kysely<any>): Promise<void> {
  const table = db.schema
    .createTable('job_technologies')
    .addColumn('company_id', 'bigint', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('job_id', 'bigint', (c) => c.notNull())
    .addColumn('technology', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_technologies_pk', ['company_id', 'published_at', 'job_id', 'technology']);
  // SQLite: the primary key is the table (no second b-tree of rowids).
  await (isPostgres(db) ? table : table.modifyEnd(sql`without rowid`)).execute();
  await db.schema
    .createTable('job_technologies_state')
    .addColumn('dictionary', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into job_technologies_state (dictionary) select case when exists (select 1 from jobs) then '' else 'empty' end`.execute(
    db,
  );
  // A company's most recent listings in order from the index alone (the answer's window); it serves
  // every lookup by company the old single-column index did.
  await db.schema.createIndex('jobs_company_published').on('jobs').columns(['company_id', 'published_at', 'id']).execute();
  await db.schema.dropIndex('jobs_company').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('jobs_company').on('jobs').column('company_id').execute();
  await db.schema.dropIndex('jobs_company_published').execute();
  await db.schema.dropTable('job_technologies_state').execute();
  await db.schema.dropTable('job_technologies').execute();
}
