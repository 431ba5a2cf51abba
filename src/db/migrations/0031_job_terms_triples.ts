import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from './helpers.ts';

// PostgreSQL's phrase index gets word triples and time buckets (docs/jobs.md, "Search design").
// Each listing's terms are its words, pairs and now triples of neighbouring words
// (src/jobs/search-terms.ts), so a three-word phrase is one GIN term instead of the AND of its pairs
// confirmed on every candidate's text (190–560 ms at a million listings). And each key carries the
// listing's remote flag and publication week (termsBucket: `term~RWW`, R the flag, WW the epoch week
// modulo 100), so that a query's GIN lookup yields the matches of its window only. The table is
// rebuilt with the terms cut again from each listing's description, in SQL as the application cuts
// them, padded as 0026 pads them; down goes back to words and pairs without buckets. SQLite's FTS5
// keeps positions and its keys are already in window order: nothing to do.
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await rebuildTerms(
    db,
    3,
    sql`'~' || case when t.has_remote <> 0 then '1' else '0' end || lpad(((t.published_at / 604800000) % 100)::text, 2, '0')`,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await rebuildTerms(db, 2, sql`''`);
}

/** Rewrites job_terms with each listing's runs of 1 to `longest` neighbouring words, each followed by `bucket`. */
async function rebuildTerms(db: Kysely<any>, longest: 2 | 3, bucket: RawBuilder<unknown>): Promise<void> {
  await sql`create table job_terms_v3 (
    job_id bigint primary key references jobs (id) on delete cascade,
    has_remote integer not null,
    published_at bigint not null,
    attrs bigint not null,
    countries text not null,
    terms tsvector not null
  ) with (toast_tuple_target = 128)`.execute(db);
  // The cut of 0022 (accents stripped, lower case, split at anything not a letter or digit, words
  // over 100 characters dropped and breaking the runs around them), with triples when asked.
  await sql`create or replace function pg_temp.listing_terms(doc text, longest int, bucket text) returns tsvector language sql immutable as $$
    select array_to_tsvector(coalesce(array(
      select distinct t || bucket from (
        select w, lead(w) over (order by n) as n1, lead(w, 2) over (order by n) as n2
        from unnest(regexp_split_to_array(lower(regexp_replace(normalize(left(doc, 100000), NFD), '[\\u0300-\\u036f]', '', 'g')), '[^[:alnum:]]+')) with ordinality as u(w, n)
      ) x, lateral (values (case when length(w) between 1 and 100 then w end),
                            (case when length(w) between 1 and 100 and length(n1) between 1 and 100 then w || ' ' || n1 end),
                            (case when longest = 3 and length(w) between 1 and 100 and length(n1) between 1 and 100
                                  and length(n2) between 1 and 100 then w || ' ' || n1 || ' ' || n2 end)) v(t)
      where t is not null), '{}'))
  $$`.execute(db);
  // termsVector's padding, as frozen in 0026: between 512 and 2,100 bytes, positions 1–256 on as
  // many leading lexemes as reach 2,100 bytes, so that PostgreSQL moves the vector out of the row.
  await sql`create or replace function pg_temp.padded_terms(v tsvector) returns tsvector language sql immutable as $$
    select case when pg_column_size(v) between 512 and 2099 then (
      select string_agg(case when n <= ceil((2100 - pg_column_size(v)) / 515.0)
        then quote_literal(l) || ':' || (select string_agg(g::text, ',') from generate_series(1, 256) g)
        else quote_literal(l) end, ' ')
      from unnest(tsvector_to_array(v)) with ordinality as u(l, n))::tsvector
    else v end
  $$`.execute(db);
  // In id order, read along both primary keys: no sort. (The order of (remote, published) would
  // put a window's rows on fewer pages, but sorting the cut vectors spilled 4.5 GB of temporary
  // files at a million listings, and cutting in that order reads every description at random;
  // listings are mostly stored in the order they are published anyway.)
  await sql`insert into job_terms_v3 (job_id, has_remote, published_at, attrs, countries, terms)
    select t.job_id, t.has_remote, t.published_at, t.attrs, t.countries, pg_temp.padded_terms(pg_temp.listing_terms(j.description, ${longest}, ${bucket}))
    from job_terms t join jobs j on j.id = t.job_id
    order by t.job_id`.execute(db);
  await sql`drop function pg_temp.padded_terms(tsvector)`.execute(db);
  await sql`drop function pg_temp.listing_terms(text, int, text)`.execute(db);
  await sql`drop table job_terms`.execute(db);
  await sql`alter table job_terms_v3 rename to job_terms`.execute(db);
  await sql`alter table job_terms rename constraint job_terms_v3_pkey to job_terms_pkey`.execute(db);
  await sql`alter table job_terms rename constraint job_terms_v3_job_id_fkey to job_terms_job_id_fkey`.execute(db);
  await sql`create index job_terms_terms on job_terms using gin (terms)`.execute(db);
  await sql`analyze job_terms`.execute(db);
}
