import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

// PostgreSQL's phrase index (docs/jobs.md, "Search design"): each live listing's words and pairs
// of neighbouring words as a tsvector without positions, in a table of its own, so a phrase is found
// from the GIN index alone instead of re-reading every candidate's text. Searches no longer use the
// GIN index over jobs.description_tsv (the column stays, to confirm phrases of three words or more),
// so it is dropped rather than kept up to date on every write. SQLite's FTS5 index keeps positions
// and needs none of this.
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  // toast_tuple_target: a row that passes PostgreSQL's 2 kB threshold has its terms moved out of the
  // row (compressed) down to 128 bytes, keeping the heap that each match's visibility check reads
  // narrow. Shorter rows stay inline.
  await sql`create table job_terms (job_id bigint primary key references jobs (id) on delete cascade, terms tsvector not null) with (toast_tuple_target = 128)`.execute(
    db,
  );
  // The terms of listings already stored, cut as the application cuts them: accents stripped
  // (decomposed, marks dropped), lower case, split at anything not a letter or digit, words over
  // 100 characters dropped, each word and each pair of neighbours.
  await sql`create or replace function pg_temp.listing_terms(doc text) returns tsvector language sql immutable as $$
    select array_to_tsvector(coalesce(array(
      select distinct t from (
        select w, lead(w) over (order by n) as nx
        from unnest(regexp_split_to_array(lower(regexp_replace(normalize(left(doc, 100000), NFD), '[\\u0300-\\u036f]', '', 'g')), '[^[:alnum:]]+')) with ordinality as u(w, n)
      ) x, lateral (values (case when length(w) between 1 and 100 then w end),
                            (case when length(w) between 1 and 100 and length(nx) between 1 and 100 then w || ' ' || nx end)) v(t)
      where t is not null), '{}'))
  $$`.execute(db);
  await sql`insert into job_terms (job_id, terms) select id, pg_temp.listing_terms(description) from jobs where expired = 0 order by id`.execute(
    db,
  );
  await sql`drop function pg_temp.listing_terms(text)`.execute(db);
  await sql`create index job_terms_terms on job_terms using gin (terms)`.execute(db);
  await sql`analyze job_terms`.execute(db);
  await sql`drop index jobs_description_tsv`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create index jobs_description_tsv on jobs using gin (description_tsv)`.execute(db);
  await sql`drop table job_terms`.execute(db);
}
