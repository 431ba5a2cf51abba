import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.ts';

// Search index v2 (docs/jobs.md, "Search design"): every index row and every job_live row carries
// the listing's attribute bits and country codes, title words also index their unordered pairs,
// and (SQLite) full-text rowids become keys in search order (remote, published minute, id).
// Existing databases are rebuilt from the jobs table: job_live and the pair rows listing by
// listing, the old index rows copied in key order beside their listing's attributes, the
// full-text index re-read from the live listings' descriptions.
//
// Frozen: the index rules below are copies of the application's as they were when this migration
// was written (title words, attribute bits, full-text key), so that later changes to the live code
// cannot change what this migration writes.

/** Lower case, accents stripped, punctuation turned into spaces: the title word key. */
function textKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'the',
  'of',
  'for',
  'in',
  'at',
  'to',
  'with',
  'on',
  'or',
  'm',
  'w',
  'f',
  'd',
  'x',
  'all',
  'genders',
]);

function titleWords(title: string): string[] {
  return [
    ...new Set(
      textKey(title)
        .split(' ')
        .filter((w) => w && !STOP_WORDS.has(w) && w.length <= 40),
    ),
  ];
}

/** Every unordered pair of the title's words (facet `p:a b`). */
function pairFacets(title: string): string[] {
  const words = titleWords(title);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 1; j < words.length; j++) out.push(words[i] < words[j] ? `p:${words[i]} ${words[j]}` : `p:${words[j]} ${words[i]}`);
  }
  return out;
}

// Attribute bits: job types 1..20, regions 1..20, then the four experience levels.
const SLOTS = 20;
const LEVELS = ['entry', 'mid', 'senior', 'executive'];
const slotBit = (base: number, id: number) => (Number.isInteger(id) && id >= 1 && id <= SLOTS ? 2 ** (base + id - 1) : 0);

function attributesOf(typeIds: number[], regionIds: number[], level: string): number {
  const bits = new Set<number>();
  for (const id of typeIds) bits.add(slotBit(0, id));
  for (const id of regionIds) bits.add(slotBit(SLOTS, id));
  const levelIndex = LEVELS.indexOf(level);
  bits.add(levelIndex < 0 ? 0 : 2 ** (2 * SLOTS + levelIndex));
  let sum = 0;
  for (const b of bits) sum += b;
  return sum;
}

/** SQLite full-text key of (remote, published ms, id), each an SQL expression: remote, minute, id in 1+32+30 bits. */
const ftsKeySql = (remote: string, published: string, id: string) =>
  `((((${remote}) << 62) | (max(0, min((${published}) / 60000, ${2 ** 32 - 1})) << 30)) | (${id}))`;

/** Inserts rows (arrays of values) a few hundred per statement; `tuple` is a row's SQL with ? per value. */
async function insertRows(db: Kysely<any>, head: string, rows: unknown[][], tail = '', tuple?: string): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    const fragments = rows.slice(i, i + 200).map((row) => {
      if (!tuple) return sql`(${sql.join(row)})`;
      const pieces = tuple.split('?');
      return sql.join(
        pieces.map((text, k) => (k < row.length ? sql`${sql.raw(text)}${row[k]}` : sql.raw(text))),
        sql.raw(''),
      );
    });
    await sql`${sql.raw(head)} values ${sql.join(fragments)} ${sql.raw(tail)}`.execute(db);
  }
}

async function insertLive(db: Kysely<any>, postgres: boolean, rows: unknown[][]): Promise<void> {
  if (postgres) {
    await insertRows(db, 'insert into job_live (job_id, has_remote, published_at, attrs, countries)', rows);
  } else {
    // Keyed by the full-text key, so full-text matches find their live rows in order.
    await insertRows(
      db,
      'insert into job_live (search_key, job_id, has_remote, published_at, attrs, countries)',
      rows.map(([id, remote, published, attrs, countries]) => [remote, published, id, id, remote, published, attrs, countries]),
      '',
      `(${ftsKeySql('?', '?', '?')}, ?, ?, ?, ?, ?)`,
    );
  }
}

const BATCH = 2_000;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
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
    // On PostgreSQL the migrator already runs this migration in a transaction (and Kysely cannot nest one).
    const batch = async (trx: Kysely<any>) => {
      const live: unknown[][] = [];
      const pairs: unknown[][] = [];
      for (const row of rows) {
        const jobId = Number(row.id);
        const publishedAt = Number(row.published_at);
        const attrs = attributesOf(JSON.parse(row.type_ids), JSON.parse(row.region_ids), row.experience_level);
        const countries = (JSON.parse(row.country_codes) as string[]).join(',');
        live.push([jobId, row.has_remote, publishedAt, attrs, countries]);
        for (const facet of pairFacets(row.title)) pairs.push([facet, row.has_remote, publishedAt, jobId, attrs, countries]);
      }
      await insertLive(trx, postgres, live);
      await insertRows(
        trx,
        'insert into job_facets_v2 (facet, has_remote, published_at, job_id, attrs, countries)',
        pairs,
        'on conflict do nothing',
      );
    };
    await (db.isTransaction ? batch(db) : db.transaction().execute(batch));
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
  const postgres = isPostgres(db);
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
  if (!isPostgres(db)) await rebuildText(db, 'id');
  await sql`delete from job_facets where facet like 'p:%'`.execute(db);
  for (const column of ['attrs', 'countries']) await sql`alter table job_facets drop column ${sql.ref(column)}`.execute(db);
  await db.schema.dropTable('job_live').execute();
  await createLive(db, false);
  await sql`insert into job_live (job_id, has_remote, published_at) select id, has_remote, published_at from jobs where expired = 0`.execute(
    db,
  );
}
