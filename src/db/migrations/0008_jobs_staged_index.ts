import type { Kysely } from 'kysely';
import { dialectOf } from '../database.ts';

// Staged index entries (docs/jobs.md, "Bulk imports"): an import appends each new listing's index
// entry here, in the listing's own transaction, and merges them into job_facets, job_live, the
// full-text index and the day counts in key order when it ends. A million random inserts into a
// large B-tree dirty a page each; a sorted merge appends. `seq` orders the stage, so a merge takes
// exactly the entries that existed when it started.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
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
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_facets_staged').execute();
}
