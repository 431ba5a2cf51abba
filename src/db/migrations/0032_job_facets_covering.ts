import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

// PostgreSQL: facet ranges counted and filtered from the index alone (docs/jobs.md, "Search
// design"). job_facets is a heap beside its primary-key B-tree there (SQLite's table is the
// clustered key itself), and every row's attribute bits and countries were only in the heap: a
// query with a title word, a country and a level read one heap row per index entry of its driving
// range (68,000 for "engineer" over 14 days at a million listings). The key now carries them as
// INCLUDE columns, so such a count is an index-only scan; the primary key is the same key.
//
// Index-only scans skip the heap only on pages the visibility map marks all-visible, and the rows
// a query's window reads are the newest, those of the last imports. Autovacuum's default waits for
// inserts of a fifth of the table (2.4 million rows at a million listings) before it sets those
// marks; on job_facets it now runs after 20,000 (about 1,700 listings). The import vacuums after
// its merge as well (JobRepository.mergeStagedIndex).
//
// Both dialects: title words (w:) and pairs (p:) get per-day counts in job_facet_days, as the broad
// facets have, so a title query alone is counted from the days of its window plus the two partial
// days at its ends, and a query of several facets picks its driving range by exact sizes. Counted
// here from the merged index rows; rows of a listing still staged are left to its merge, which
// counts them when it removes the listing from the stage.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`insert into job_facet_days (facet, has_remote, day, n)
    select facet, has_remote, published_at / 86400000, count(*) from job_facets
    where (facet like 'w:%' or facet like 'p:%') and job_id not in (select job_id from job_facets_staged)
    group by facet, has_remote, published_at / 86400000
    on conflict (facet, has_remote, day) do update set n = job_facet_days.n + excluded.n`.execute(db);
  if (!isPostgres(db)) return;
  await sql`create unique index job_facets_covering on job_facets (facet, has_remote, published_at, job_id) include (attrs, countries)`.execute(
    db,
  );
  await sql`alter table job_facets drop constraint job_facets_pk, add constraint job_facets_pk primary key using index job_facets_covering`.execute(
    db,
  );
  await sql`alter table job_facets set (autovacuum_vacuum_insert_threshold = 20000, autovacuum_vacuum_insert_scale_factor = 0)`.execute(db);
  // Per-day counts per attribute bits and countries, for countries, regions, types, levels and
  // title words: a query such as "engineer" in the US, senior, full-time over 14 days sums the
  // (attributes, countries) groups of its driver's whole days (5,661 at a million listings, where
  // the range has 61,224 rows; the groups grow far slower than the rows) and counts only the two
  // partial days row by row.
  await sql`create table job_facet_attr_days (
    facet text not null,
    has_remote integer not null,
    day integer not null,
    attrs bigint not null,
    countries text not null,
    n integer not null,
    constraint job_facet_attr_days_pk primary key (facet, has_remote, day, attrs, countries)
  )`.execute(db);
  await sql`insert into job_facet_attr_days (facet, has_remote, day, attrs, countries, n)
    select facet, has_remote, published_at / 86400000, attrs, countries, count(*) from job_facets
    where substr(facet, 1, 2) in ('c:', 'r:', 't:', 'x:', 'w:') and job_id not in (select job_id from job_facets_staged)
    group by facet, has_remote, published_at / 86400000, attrs, countries
    order by 1, 2, 3, 4, 5`.execute(db);
  await sql`analyze job_facet_attr_days`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from job_facet_days where facet like 'w:%' or facet like 'p:%'`.execute(db);
  if (!isPostgres(db)) return;
  await sql`drop table job_facet_attr_days`.execute(db);
  await sql`alter table job_facets reset (autovacuum_vacuum_insert_threshold, autovacuum_vacuum_insert_scale_factor)`.execute(db);
  await sql`create unique index job_facets_key on job_facets (facet, has_remote, published_at, job_id)`.execute(db);
  await sql`alter table job_facets drop constraint job_facets_pk, add constraint job_facets_pk primary key using index job_facets_key`.execute(
    db,
  );
}
