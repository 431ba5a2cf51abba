import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../database.ts';
import { insertMany } from '../../jobs/bulk-sql.ts';
import { pairFacets } from '../../jobs/index-keys.ts';
import { ftsKeySql } from '../../jobs/fts-query.ts';
import { indexedRow, insertLive } from '../../jobs/repository.ts';

// Search index v2 (docs/jobs.md, "Search design"): every index row and every job_live row carries
// the listing's attribute bits and country codes, title words also index their unordered pairs,
// and (SQLite) full-text rowids become keys in search order (remote, published minute, id).
// Existing databases are rebuilt from the jobs table: job_live and the pair rows listing by
// listing, the old index rows copied in key order beside their listing's attributes, the
// full-text index re-read from the live listings' descriptions.
const BATCH = 2_000;

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  const postgres = dialect === 'postgres';
  await db.schema.dropTable('job_live').execute();
  await createLive(db, true);
  const v2 = db.schema
    .createTable('job_facets_v2')
    .addColumn('facet', 'text', (c) => c.notNull())
    .addColumn('has_remote', 'integer', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('job_id', 'bigint', (c) => c.notNull())
    .addColumn('attrs', 'bigint', (c) => c.notNull())
    .addColumn('countries', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_facets_v2_pk', ['facet', 'has_remote', 'published_at', 'job_id']);
  await (postgres ? v2 : v2.modifyEnd(sql`without rowid`)).execute();

  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('jobs')
      .select([
        'id',
        'has_remote',
        'published_at',
        'type_ids',
        'city_ids',
        'country_codes',
        'region_ids',
        'experience_level',
        'title',
        'company_name',
        'company_id',
      ])
      .where('expired', '=', 0)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (!rows.length) break;
    after = Number(rows[rows.length - 1].id);
    await db.transaction().execute(async (trx) => {
      const live: unknown[][] = [];
      const pairs: unknown[][] = [];
      for (const row of rows) {
        const l = indexedRow(row);
        live.push([l.jobId, l.hasRemote, l.publishedAt, l.entry.attrs, l.entry.countries]);
        for (const facet of pairFacets(row.title))
          pairs.push([facet, l.hasRemote, l.publishedAt, l.jobId, l.entry.attrs, l.entry.countries]);
      }
      await insertLive(trx, dialect, live);
      await insertMany(
        trx,
        dialect,
        'insert into job_facets_v2 (facet, has_remote, published_at, job_id, attrs, countries)',
        pairs,
        'on conflict do nothing',
      );
    });
  }

  // The old rows in key order, so the new clustered table is appended to, not split at random.
  if (!postgres) await sql`create index job_live_job_id_tmp on job_live (job_id)`.execute(db);
  await sql`insert into job_facets_v2 (facet, has_remote, published_at, job_id, attrs, countries)
    select f.facet, f.has_remote, f.published_at, f.job_id, l.attrs, l.countries
    from job_facets f join job_live l on l.job_id = f.job_id
    order by f.facet, f.has_remote, f.published_at, f.job_id`.execute(db);
  if (!postgres) await sql`drop index job_live_job_id_tmp`.execute(db);
  await db.schema.dropTable('job_facets').execute();
  await sql`alter table job_facets_v2 rename to job_facets`.execute(db);
  if (postgres) await sql`alter table job_facets rename constraint job_facets_v2_pk to job_facets_pk`.execute(db);
  else await rebuildText(db, ftsKeySql('has_remote', 'published_at', 'id'));
}

/** job_live; v2 adds the attributes and, on SQLite, keys it by the full-text key (see insertLive). */
async function createLive(db: Kysely<any>, v2: boolean): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  let table = db.schema.createTable('job_live');
  table =
    v2 && !postgres
      ? table.addColumn('search_key', 'integer', (c) => c.primaryKey()).addColumn('job_id', 'integer', (c) => c.notNull())
      : table.addColumn('job_id', postgres ? 'bigint' : 'integer', (c) => c.primaryKey());
  table = table.addColumn('has_remote', 'integer', (c) => c.notNull()).addColumn('published_at', 'bigint', (c) => c.notNull());
  if (v2) table = table.addColumn('attrs', 'bigint', (c) => c.notNull()).addColumn('countries', 'text', (c) => c.notNull());
  await table.execute();
}

/** SQLite: the full-text index of the live listings, with rowids given by an SQL expression over jobs. */
async function rebuildText(db: Kysely<any>, rowid: string): Promise<void> {
  await sql`drop table jobs_fts`.execute(db);
  await sql`create virtual table jobs_fts using fts5(description, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`.execute(
    db,
  );
  await sql`insert into jobs_fts (rowid, description) select ${sql.raw(rowid)}, description from jobs where expired = 0 order by 1`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'sqlite') await rebuildText(db, 'id');
  await sql`delete from job_facets where facet like 'p:%'`.execute(db);
  for (const column of ['attrs', 'countries']) await sql`alter table job_facets drop column ${sql.ref(column)}`.execute(db);
  await db.schema.dropTable('job_live').execute();
  await createLive(db, false);
  await sql`insert into job_live (job_id, has_remote, published_at) select id, has_remote, published_at from jobs where expired = 0`.execute(
    db,
  );
}
