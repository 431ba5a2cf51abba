import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

// PostgreSQL: jobs.description_tsv goes. The generated column held every listing's description as
// a positional tsvector (about 900 bytes of a 1.7 kB row on the benchmark's text: half the jobs
// heap), computed by the server on every write, and since job_terms (0022, 0031) it served one
// thing only: confirming a phrase of four words or more on the few listings that hold all its
// triples. Those few now have their description cut at search time (src/jobs/search.ts).
//
// Dropping a column only marks it dropped: rows already stored keep its bytes until they are
// rewritten (`VACUUM FULL jobs` gives the space back at once, with the table locked meanwhile).
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table jobs drop column if exists description_tsv`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table jobs add column description_tsv tsvector generated always as (to_tsvector('simple', left(description, 100000))) stored`.execute(
    db,
  );
}
