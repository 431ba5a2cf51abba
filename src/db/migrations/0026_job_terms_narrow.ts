import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

// PostgreSQL's phrase index made cheap to read (docs/jobs.md, "Search design"). GIN keeps no
// columns, so every match of a description query reads its job_terms row: rows of 1–2 kB held in
// line made that one random page per match (13,000 of them for a common phrase at a million
// listings), then a job_live row for the filters and the order. Now each row carries the listing's
// remote flag, publication time, attribute bits and countries (as job_live does), and its terms
// are moved out of the row (src/jobs/search-terms.ts, termsVector: positions pad a vector of
// 512 bytes to 2 kB over the size PostgreSQL moves out of line), so rows are about 60 bytes, a
// hundred to a page: a match reads a page that the previous matches have most likely read.
// Listings stored before: the attributes come from job_live, or for listings not merged yet
// from their staged index entry; their terms are padded here as the application pads them.
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create table job_terms_v2 (
    job_id bigint primary key references jobs (id) on delete cascade,
    has_remote integer not null,
    published_at bigint not null,
    attrs bigint not null,
    countries text not null,
    terms tsvector not null
  ) with (toast_tuple_target = 128)`.execute(db);
  // termsVector's padding, frozen here: between 512 and 2,100 bytes, positions 1–256 on as many
  // leading lexemes as reach 2,100 bytes.
  await sql`create or replace function pg_temp.padded_terms(v tsvector) returns tsvector language sql immutable as $$
    select case when pg_column_size(v) between 512 and 2099 then (
      select string_agg(case when n <= ceil((2100 - pg_column_size(v)) / 515.0)
        then quote_literal(l) || ':' || (select string_agg(g::text, ',') from generate_series(1, 256) g)
        else quote_literal(l) end, ' ')
      from unnest(tsvector_to_array(v)) with ordinality as u(l, n))::tsvector
    else v end
  $$`.execute(db);
  await sql`insert into job_terms_v2 (job_id, has_remote, published_at, attrs, countries, terms)
    select t.job_id, coalesce(l.has_remote, s.has_remote), coalesce(l.published_at, s.published_at),
      coalesce(l.attrs, s.attrs), coalesce(l.countries, s.countries), pg_temp.padded_terms(t.terms)
    from job_terms t
    left join job_live l on l.job_id = t.job_id
    left join (select distinct on (job_id) job_id, has_remote, published_at, attrs, countries
               from job_facets_staged order by job_id, seq desc) s on s.job_id = t.job_id
    where l.job_id is not null or s.job_id is not null
    order by t.job_id`.execute(db);
  await sql`drop function pg_temp.padded_terms(tsvector)`.execute(db);
  await sql`drop table job_terms`.execute(db);
  await sql`alter table job_terms_v2 rename to job_terms`.execute(db);
  await sql`alter table job_terms rename constraint job_terms_v2_pkey to job_terms_pkey`.execute(db);
  await sql`alter table job_terms rename constraint job_terms_v2_job_id_fkey to job_terms_job_id_fkey`.execute(db);
  await sql`create index job_terms_terms on job_terms using gin (terms)`.execute(db);
  await sql`analyze job_terms`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create table job_terms_v1 (job_id bigint primary key references jobs (id) on delete cascade, terms tsvector not null) with (toast_tuple_target = 128)`.execute(
    db,
  );
  await sql`insert into job_terms_v1 (job_id, terms) select job_id, strip(terms) from job_terms order by job_id`.execute(db);
  await sql`drop table job_terms`.execute(db);
  await sql`alter table job_terms_v1 rename to job_terms`.execute(db);
  await sql`alter table job_terms rename constraint job_terms_v1_pkey to job_terms_pkey`.execute(db);
  await sql`alter table job_terms rename constraint job_terms_v1_job_id_fkey to job_terms_job_id_fkey`.execute(db);
  await sql`create index job_terms_terms on job_terms using gin (terms)`.execute(db);
}
