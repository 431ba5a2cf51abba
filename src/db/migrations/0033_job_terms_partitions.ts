import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

// PostgreSQL: job_terms partitioned by listing id, a million ids a partition (docs/jobs.md,
// "Ingest on PostgreSQL"). New listings take new ids, so an import writes into the newest
// partition only, and the cost of adding its terms to a GIN index stays that of an index of at most
// a million listings however large the store grows (one GIN over the whole store made each import
// touch more of its pages as it grew). A search reads every partition's index; its work is still
// the matches of its window.
//
// The table as it is becomes the first partition (ids 0 up to the next whole million past the
// largest), attached without copying a row: its primary key, foreign key and GIN index are taken as
// the partitioned table's. The application adds the following partitions as ids approach them
// (src/jobs/terms-partitions.ts), each created apart and then attached, which stops no search.

/** Listing ids a partition covers (the application's TERMS_PARTITION_IDS, frozen here). */
const IDS_PER_PARTITION = 1_000_000;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const { rows } = await sql<{ top: string | number }>`select coalesce(max(job_id), 0) as top from job_terms`.execute(db);
  const end = (Math.floor(Number(rows[0].top) / IDS_PER_PARTITION) + 1) * IDS_PER_PARTITION;
  await sql`alter table job_terms rename to job_terms_p0`.execute(db);
  await sql`alter index job_terms_pkey rename to job_terms_p0_pkey`.execute(db);
  await sql`alter index job_terms_terms rename to job_terms_p0_terms`.execute(db);
  await sql`alter table job_terms_p0 rename constraint job_terms_job_id_fkey to job_terms_p0_job_id_fkey`.execute(db);
  await sql`create table job_terms (
    job_id bigint not null,
    has_remote integer not null,
    published_at bigint not null,
    attrs bigint not null,
    countries text not null,
    terms tsvector not null,
    constraint job_terms_pkey primary key (job_id),
    constraint job_terms_job_id_fkey foreign key (job_id) references jobs (id) on delete cascade
  ) partition by range (job_id)`.execute(db);
  await sql`create index job_terms_terms on job_terms using gin (terms)`.execute(db);
  // A valid check of the range spares the attach its scan of the rows.
  await sql`alter table job_terms_p0 add constraint job_terms_p0_range check (job_id >= 0 and job_id < ${sql.lit(end)})`.execute(db);
  await sql`alter table job_terms attach partition job_terms_p0 for values from (0) to (${sql.lit(end)})`.execute(db);
  await sql`alter table job_terms_p0 drop constraint job_terms_p0_range`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create table job_terms_plain (
    job_id bigint primary key references jobs (id) on delete cascade,
    has_remote integer not null,
    published_at bigint not null,
    attrs bigint not null,
    countries text not null,
    terms tsvector not null
  ) with (toast_tuple_target = 128)`.execute(db);
  await sql`insert into job_terms_plain select job_id, has_remote, published_at, attrs, countries, terms from job_terms order by job_id`.execute(
    db,
  );
  await sql`drop table job_terms`.execute(db);
  await sql`alter table job_terms_plain rename to job_terms`.execute(db);
  await sql`alter table job_terms rename constraint job_terms_plain_pkey to job_terms_pkey`.execute(db);
  await sql`alter table job_terms rename constraint job_terms_plain_job_id_fkey to job_terms_job_id_fkey`.execute(db);
  await sql`create index job_terms_terms on job_terms using gin (terms)`.execute(db);
  await sql`analyze job_terms`.execute(db);
}
