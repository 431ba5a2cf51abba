import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

// PostgreSQL: description terms whose matches are counted per day (src/jobs/counted-terms.ts). A
// search of one common term counts its window's matches from job_facet_days and
// job_facet_attr_days (facet `d:<term>`) instead of visiting every match. The set starts empty
// and only grows: a term joins it when searches for it are costly, its counts filled in from
// job_terms as it joins. SQLite counts from its own full-text index and has no such set.
//
// And job_terms gets an index of publication times: such a search visits only the matches of the
// window's two partial days and of the stretch that holds its page, found by GIN (their weeks'
// keys) and this index together (a BitmapAnd), where the week's key alone gave every match of the
// week. It is on `published_at + 0`, which only those statements ask for: on the plain column the
// planner also used it for searches over whole windows, reading half the table's rows (6.6 s for a
// common phrase at a million listings instead of 29 ms). Built here on every partition (under a
// second at a million listings); later partitions get it when attached.
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create table job_counted_terms (term text primary key, counted_at bigint not null)`.execute(db);
  await sql`create index job_terms_published on job_terms ((published_at + 0))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop index job_terms_published`.execute(db);
  await sql`drop table job_counted_terms`.execute(db);
  await sql`delete from job_facet_days where facet like 'd:%'`.execute(db);
  await sql`delete from job_facet_attr_days where facet like 'd:%'`.execute(db);
}
