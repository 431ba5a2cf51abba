import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

// Staged index entries (docs/jobs.md, "Bulk imports"): an import appends each new listing's index
// entry here, in the listing's own transaction, and merges them into job_facets, job_live, the
// full-text index and the day counts in key order when it ends. A million random inserts into a
// large B-tree dirty a page each; a sorted merge appends. `seq` orders the stage, so a merge takes
// exactly the entries that existed when it started.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable('job_facets_staged')
    .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) => c.primaryKey())
    .addColumn('job_id', 'bigint', (c) => c.notNull())
    .addColumn('has_remote', 'integer', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('attrs', 'bigint', (c) => c.notNull())
    .addColumn('countries', 'text', (c) => c.notNull())
    // The listing's facets, a JSON list of strings.
    .addColumn('facets', 'text', (c) => c.notNull())
    .execute();
  // FTS5 keeps a transaction's new terms in a hash and writes a segment whenever it fills: at the
  // default 1 MB a merge of 20,000 descriptions wrote dozens of small segments and spent most of
  // its time merging them again; 16 MB cuts the full-text part of a merge by more than half.
  if (!postgres) await sql`insert into jobs_fts (jobs_fts, rank) values ('hashsize', 16777216)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) await sql`insert into jobs_fts (jobs_fts, rank) values ('hashsize', 1048576)`.execute(db);
  await db.schema.dropTable('job_facets_staged').execute();
}
