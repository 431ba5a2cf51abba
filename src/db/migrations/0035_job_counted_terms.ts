import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

// PostgreSQL: description terms whose matches are counted per day (src/jobs/counted-terms.ts). A
// search of one common term counts its window's matches from job_facet_days and
// job_facet_attr_days (facet `d:<term>`) instead of visiting every match. The set starts empty
// and only grows: a term joins it when searches for it are costly, its counts filled in from
// job_terms as it joins. SQLite counts from its own full-text index and has no such set.
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create table job_counted_terms (term text primary key, counted_at bigint not null)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop table job_counted_terms`.execute(db);
  await sql`delete from job_facet_days where facet like 'd:%'`.execute(db);
  await sql`delete from job_facet_attr_days where facet like 'd:%'`.execute(db);
}
