// Writes of the jobs domain: listings, their search facets, per-day facet counts and (SQLite) the
// description full-text index. A rewritten or expired listing's index changes in the transaction of
// its batch; a new listing's index entry is staged there and merged later (staged-index.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { bulkInsert, type PgType } from '../db/bulk.ts';
import { dialectOf, type Db, type DialectName } from '../db/database.ts';
import { inTransaction } from '../db/transaction.ts';
import type { FacetSource, NormalizedListing } from './listing.ts';
import { hasAttrDayCounts, hasDayCounts, indexEntryOf, type IndexEntry } from './index-keys.ts';
import { ftsKeyMinute, ftsKeySql, MAX_FTS_JOB_ID } from './fts-query.ts';
import { insertMany, listMatch, listParam, run } from './bulk-sql.ts';
import { hasStagedEntries, mergeStagedIndex, type MergeOptions } from './staged-index.ts';
import type { JobRow } from './tables.ts';
import { chunkForParameters } from '../db/chunks.ts';
import { listingTermsBinary, tsvectorArrayParam } from './tsvector-binary.ts';
import { listingTechnologies } from './technologies.ts';
import { DAY_MS } from './day.ts';
import { countedFacet, CountedTerms, countedTermsOf, countedTermsStored, type CountedSet } from './counted-terms.ts';

/**
 * Rows of job_live: [job id, remote, published, attrs, countries]. On SQLite the table is keyed by
 * the full-text key (ftsKeySql), so full-text matches, which come in key order, find their live
 * rows in order instead of at random.
 */
export async function insertLive(db: Kysely<any>, dialect: DialectName, rows: unknown[][]): Promise<void> {
  if (dialect === 'sqlite') {
    await insertMany(
      db,
      dialect,
      'insert into job_live (search_key, job_id, has_remote, published_at, attrs, countries)',
      rows.map(([id, remote, published, attrs, countries]) => [remote, published, id, id, remote, published, attrs, countries]),
      '',
      `(${ftsKeySql('?', '?', '?')}, ?, ?, ?, ?, ?)`,
    );
  } else {
    await insertMany(db, dialect, 'insert into job_live (job_id, has_remote, published_at, attrs, countries)', rows);
  }
}

/** The order of full-text keys, compared in parts (the keys themselves exceed 2^53). */
function ftsKeyOrder(a: IndexedListing, b: IndexedListing): number {
  return a.hasRemote - b.hasRemote || ftsKeyMinute(a.publishedAt) - ftsKeyMinute(b.publishedAt) || a.jobId - b.jobId;
}

/** Full-text keys of listings as one JSON parameter, read back in SQL by FTS_KEYS_OF_JSON. */
function ftsKeysJson(listings: IndexedListing[]): string {
  return JSON.stringify(listings.map((l) => [l.hasRemote, l.publishedAt, l.jobId]));
}
const FTS_KEYS_OF_JSON = `select ${ftsKeySql('value ->> 0', 'value ->> 1', 'value ->> 2')} from json_each(?)`;

/** A staged index entry's columns (staged-index.ts), in the order stage() builds them. */
const STAGED_COLUMNS: Record<string, PgType> = {
  job_id: 'int8',
  has_remote: 'int4',
  published_at: 'int8',
  attrs: 'int8',
  countries: 'text',
  facets: 'text',
};

/** The jobs columns a listing's content sets, in the order of columnValues, with their PostgreSQL types (bulkInsert). */
const CONTENT_COLUMNS: Record<string, PgType> = {
  company_id: 'int8',
  company_name: 'text',
  title: 'text',
  location: 'text',
  has_remote: 'int4',
  published_at: 'int8',
  experience_level: 'text',
  type_ids: 'text',
  city_ids: 'text',
  country_codes: 'text',
  region_ids: 'text',
  clearance_required: 'int4',
  language: 'text',
  salary_min: 'float8',
  salary_max: 'float8',
  salary_currency: 'text',
  description: 'text',
  application_url: 'text',
  content_hash: 'text',
  last_seen_at: 'int8',
};
const CONTENT_NAMES = Object.keys(CONTENT_COLUMNS);
/** A new listing's row: its content, then its identity and first sighting (the order of the values upsertBatch builds). */
const NEW_ROW_COLUMNS: Record<string, PgType> = {
  ...CONTENT_COLUMNS,
  source: 'text',
  board: 'text',
  source_id: 'text',
  expired: 'int4',
  first_seen_at: 'int8',
};

function columnValues({ listing: l, companyId }: BatchItem, now: number): unknown[] {
  return [
    companyId,
    l.companyName,
    l.title,
    l.location,
    l.hasRemote ? 1 : 0,
    l.publishedAt,
    l.experienceLevel,
    JSON.stringify(l.typeIds),
    JSON.stringify(l.cityIds),
    JSON.stringify(l.countryCodes),
    JSON.stringify(l.regionIds),
    l.clearanceRequired ? 1 : 0,
    l.language,
    l.salaryMin,
    l.salaryMax,
    l.salaryCurrency,
    l.description,
    l.applicationUrl,
    l.contentHash,
    now,
  ];
}

export interface BatchItem {
  listing: NormalizedListing;
  companyId: number | null;
}

export interface BatchResult {
  created: number;
  updated: number;
  unchanged: number;
}

type Trx = Kysely<Database>;

/** One listing's place in the search index. */
interface IndexedListing {
  jobId: number;
  hasRemote: number;
  publishedAt: number;
  entry: IndexEntry;
  /** PostgreSQL: the counted description terms it holds (counted-terms.ts), counted where its facets are. */
  counted?: string[];
}

type IndexedColumns = Pick<
  JobRow,
  | 'id'
  | 'has_remote'
  | 'published_at'
  | 'type_ids'
  | 'city_ids'
  | 'country_codes'
  | 'region_ids'
  | 'experience_level'
  | 'title'
  | 'company_name'
  | 'company_id'
>;

function facetSourceOfRow(row: IndexedColumns): FacetSource {
  return {
    typeIds: JSON.parse(row.type_ids),
    cityIds: JSON.parse(row.city_ids),
    countryCodes: JSON.parse(row.country_codes),
    regionIds: JSON.parse(row.region_ids),
    experienceLevel: row.experience_level,
    title: row.title,
    companyName: row.company_name,
    companyId: row.company_id === null ? null : Number(row.company_id),
  };
}

export function indexedRow(row: IndexedColumns): IndexedListing {
  return {
    jobId: Number(row.id),
    hasRemote: row.has_remote,
    publishedAt: Number(row.published_at),
    entry: indexEntryOf(facetSourceOfRow(row)),
  };
}

/** A stored listing's place in the index (its facets name its company by `companyId`). */
function indexedListing({ listing: l, companyId }: BatchItem, jobId: number): IndexedListing {
  const source: FacetSource = {
    typeIds: l.typeIds,
    cityIds: l.cityIds,
    countryCodes: l.countryCodes,
    regionIds: l.regionIds,
    experienceLevel: l.experienceLevel,
    title: l.title,
    companyName: l.companyName,
    companyId,
  };
  return { jobId, hasRemote: l.hasRemote ? 1 : 0, publishedAt: l.publishedAt, entry: indexEntryOf(source) };
}

/** Accumulates +1/-1 per (facet, remote, day), and on PostgreSQL per attributes too, and writes the sums once per batch. */
class DayCounts {
  private readonly deltas = new Map<string, number>();
  private readonly attrDeltas = new Map<string, number>();

  add(listings: IndexedListing[], sign: 1 | -1): void {
    for (const l of listings) {
      const day = Math.floor(l.publishedAt / DAY_MS);
      const counted = l.counted?.map(countedFacet) ?? [];
      for (const facet of counted.length ? [...l.entry.facets, ...counted] : l.entry.facets) {
        if (!hasDayCounts(facet)) continue;
        const id = `${facet}\u0000${l.hasRemote}\u0000${day}`;
        this.deltas.set(id, (this.deltas.get(id) ?? 0) + sign);
        if (!hasAttrDayCounts(facet)) continue;
        const attrId = `${id}\u0000${l.entry.attrs}\u0000${l.entry.countries}`;
        this.attrDeltas.set(attrId, (this.attrDeltas.get(attrId) ?? 0) + sign);
      }
    }
  }

  async flush(trx: Trx): Promise<void> {
    const rows = [...this.deltas]
      .filter(([, n]) => n !== 0)
      .map(([id, n]) => {
        const [facet, remote, day] = id.split('\u0000');
        return [facet, Number(remote), Number(day), n];
      });
    await bulkInsert(trx, {
      table: 'job_facet_days',
      columns: { facet: 'text', has_remote: 'int4', day: 'int4', n: 'int4' },
      values: rows,
      onConflict: 'on conflict (facet, has_remote, day) do update set n = job_facet_days.n + excluded.n',
    });
    if (dialectOf(trx) === 'postgres') {
      const attrRows = [...this.attrDeltas]
        .filter(([, n]) => n !== 0)
        .map(([id, n]) => {
          const [facet, remote, day, attrs, countries] = id.split('\u0000');
          return [facet, Number(remote), Number(day), Number(attrs), countries, n] as [string, number, number, number, string, number];
        })
        // In key order, so that new groups of a facet's day land together (migration 0036).
        .sort(
          (x, y) =>
            (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0) ||
            x[1] - y[1] ||
            x[2] - y[2] ||
            x[3] - y[3] ||
            (x[4] < y[4] ? -1 : x[4] > y[4] ? 1 : 0),
        );
      await bulkInsert(trx, {
        table: 'job_facet_attr_days',
        columns: { facet: 'text', has_remote: 'int4', day: 'int4', attrs: 'int8', countries: 'text', n: 'int4' },
        values: attrRows,
        onConflict: 'on conflict (facet, has_remote, day, attrs, countries) do update set n = job_facet_attr_days.n + excluded.n',
      });
    }
    this.deltas.clear();
    this.attrDeltas.clear();
  }
}

/**
 * A batch's changes to job_technologies (technographics.ts): a rewritten listing's old rows go (its
 * company and publication may have changed), its new ones and a new listing's come in. Every listing
 * with a company has its rows, expired or not: technographics read both.
 */
class TechnologyRows {
  private readonly gone: unknown[][] = [];
  private readonly rows: unknown[][] = [];

  remove(old: { id: number; company_id: number | null; published_at: number }): void {
    if (old.company_id !== null) this.gone.push([Number(old.company_id), Number(old.published_at), old.id]);
  }

  add({ listing, companyId }: BatchItem, jobId: number): void {
    if (companyId === null) return;
    // A listing normalized by an older version (kept in a queue) may come without them.
    const names = listing.technologies ?? listingTechnologies(listing.title, listing.description);
    for (const name of names) this.rows.push([companyId, listing.publishedAt, jobId, name]);
  }

  async flush(trx: Trx): Promise<void> {
    for (const key of this.gone)
      await run(trx, 'delete from job_technologies where company_id = ? and published_at = ? and job_id = ?', key);
    // A build running beside the import may have written a new listing's rows already.
    await bulkInsert(trx, {
      table: 'job_technologies',
      columns: { company_id: 'int8', published_at: 'int8', job_id: 'int8', technology: 'text' },
      values: this.rows,
      onConflict: 'on conflict do nothing',
    });
  }
}

export class JobRepository {
  readonly dialect: DialectName;
  private readonly countedTerms = new CountedTerms();

  constructor(private readonly db: Db) {
    this.dialect = dialectOf(db);
  }

  /** Index rows and live row of new or rewritten listings, and their day counts. */
  private async addToIndex(trx: Trx, listings: IndexedListing[], days: DayCounts): Promise<void> {
    const rows: unknown[][] = [];
    for (const l of listings)
      for (const facet of l.entry.facets) rows.push([facet, l.hasRemote, l.publishedAt, l.jobId, l.entry.attrs, l.entry.countries]);
    await insertMany(
      trx,
      this.dialect,
      'insert into job_facets (facet, has_remote, published_at, job_id, attrs, countries)',
      rows,
      'on conflict do nothing',
    );
    await insertLive(
      trx,
      this.dialect,
      listings.map((l) => [l.jobId, l.hasRemote, l.publishedAt, l.entry.attrs, l.entry.countries]),
    );
    days.add(listings, 1);
  }

  /**
   * Removes listings' index rows (one statement each: their rows share remote, time and id) and live
   * rows. Staged rows are merged first: a listing being removed may be among them.
   */
  private async removeFromIndex(trx: Trx, listings: IndexedListing[], days: DayCounts, counted: CountedSet): Promise<void> {
    if (listings.length && (await hasStagedEntries(trx))) await mergeStagedIndex(trx);
    // Counted terms are taken back as their job_terms rows hold them, before those rows go.
    const stored = await countedTermsStored(
      trx,
      listings.map((l) => l.jobId),
      counted,
    );
    for (const l of listings) l.counted = stored.get(l.jobId);
    const p = this.dialect === 'postgres' ? ['$1', '$2', '$3', '$4'] : ['?', '?', '?', '?'];
    const text = `delete from job_facets where ${listMatch(this.dialect, 'facet', p[0], 'text')} and has_remote = ${p[1]} and published_at = ${p[2]} and job_id = ${p[3]}`;
    for (const l of listings) await run(trx, text, [listParam(this.dialect, l.entry.facets), l.hasRemote, l.publishedAt, l.jobId]);
    days.add(listings, -1);
    if (!listings.length) return;
    if (this.dialect === 'sqlite') {
      // job_live and the full-text index share the key (SQLite).
      const keys = ftsKeysJson(listings);
      await run(trx, `delete from job_live where search_key in (${FTS_KEYS_OF_JSON})`, [keys]);
      await run(trx, `delete from jobs_fts where rowid in (${FTS_KEYS_OF_JSON})`, [keys]);
    } else {
      const ids = listParam(
        this.dialect,
        listings.map((l) => l.jobId),
      );
      await run(trx, `delete from job_live where ${listMatch(this.dialect, 'job_id', p[0], 'bigint')}`, [ids]);
      // A rewritten listing gets its new terms in the same transaction (addText); an expired one has none.
      await run(trx, `delete from job_terms where ${listMatch(this.dialect, 'job_id', p[0], 'bigint')}`, [ids]);
    }
  }

  /** Appends new listings' index entries to the stage (staged-index.ts); a merge makes them searchable. */
  private async stage(trx: Trx, listings: IndexedListing[]): Promise<void> {
    const rows = listings.map((l) => [
      l.jobId,
      l.hasRemote,
      l.publishedAt,
      l.entry.attrs,
      l.entry.countries,
      // Counted terms ride as `d:` facets: the merge counts them and writes no facet row for them.
      JSON.stringify(l.counted?.length ? [...l.entry.facets, ...l.counted.map(countedFacet)] : l.entry.facets),
    ]);
    await bulkInsert(trx, { table: 'job_facets_staged', columns: STAGED_COLUMNS, values: rows });
  }

  /**
   * SQLite full-text rows, keyed by (remote, published minute, id): see ftsKeySql. Written in key
   * order: FTS5 flushes its pending segment whenever a rowid is not larger than the last one.
   */
  private async addText(trx: Trx, rows: { listing: IndexedListing; description: string; termsBinary?: string }[]): Promise<void> {
    if (this.dialect !== 'sqlite') return this.writeTerms(trx, rows);
    const sorted = [...rows].sort((x, y) => ftsKeyOrder(x.listing, y.listing));
    const values = sorted.map(({ listing: l, description }) => {
      if (l.jobId > MAX_FTS_JOB_ID) throw new Error(`listing id ${l.jobId} exceeds the full-text key's ${MAX_FTS_JOB_ID}`);
      return [l.hasRemote, l.publishedAt, l.jobId, description];
    });
    await insertMany(trx, this.dialect, 'insert into jobs_fts (rowid, description)', values, '', `(${ftsKeySql('?', '?', '?')}, ?)`);
  }

  /**
   * PostgreSQL: the listings' search terms (search-terms.ts), new or replacing what they had, with
   * the attributes a description query filters and orders by, so that it reads no other row.
   */
  private async writeTerms(trx: Trx, rows: { listing: IndexedListing; description: string; termsBinary?: string }[]): Promise<void> {
    if (!rows.length) return;
    const ls = rows.map((r) => r.listing);
    await run(
      trx,
      `insert into job_terms (job_id, has_remote, published_at, attrs, countries, terms)
      select * from unnest($1::bigint[], $2::int[], $3::bigint[], $4::bigint[], $5::text[], $6::tsvector[]) order by 1
      on conflict (job_id) do update set has_remote = excluded.has_remote, published_at = excluded.published_at,
        attrs = excluded.attrs, countries = excluded.countries, terms = excluded.terms`,
      [
        ls.map((l) => l.jobId),
        ls.map((l) => l.hasRemote),
        ls.map((l) => l.publishedAt),
        ls.map((l) => l.entry.attrs),
        ls.map((l) => l.entry.countries),
        tsvectorArrayParam(rows.map((r) => r.termsBinary ?? listingTermsBinary(r.description, r.listing.hasRemote, r.listing.publishedAt))),
      ],
    );
  }

  /**
   * Creates new listings, rewrites changed or revived ones, touches unchanged ones. One (source,
   * board). New listings' index rows are staged: they become searchable at mergeStagedIndex.
   */
  async upsertBatch(items: BatchItem[], now: number): Promise<BatchResult> {
    const result: BatchResult = { created: 0, updated: 0, unchanged: 0 };
    if (!items.length) return result;
    const { source, board } = items[0].listing;
    // The last occurrence of a source id within a batch wins.
    const byId = new Map(items.map((item) => [item.listing.sourceId, item]));
    const unique = [...byId.values()];
    await inTransaction(this.db, async (trx) => {
      const existing = new Map<string, IndexedColumns & { source_id: string; content_hash: string; expired: number }>();
      const p = this.dialect === 'postgres' ? ['$1', '$2', '$3'] : ['?', '?', '?'];
      const rows = await run<IndexedColumns & { source_id: string; content_hash: string; expired: number }>(
        trx,
        `select id, source_id, content_hash, expired, has_remote, published_at, type_ids, city_ids, country_codes, region_ids, experience_level, title, company_name, company_id
           from jobs where source = ${p[0]} and board = ${p[1]} and ${listMatch(this.dialect, 'source_id', p[2], 'text')}`,
        [
          source,
          board,
          listParam(
            this.dialect,
            unique.map((i) => i.listing.sourceId),
          ),
        ],
      );
      for (const row of rows) existing.set(row.source_id, { ...row, id: Number(row.id), published_at: Number(row.published_at) });
      // PostgreSQL: holds off a counted term's arrival until this batch ends (counted-terms.ts).
      const counted = this.dialect === 'postgres' ? await this.countedTerms.forWrite(trx) : CountedTerms.none;
      const days = new DayCounts();
      const fresh: BatchItem[] = [];
      const touched: number[] = [];
      const added: IndexedListing[] = [];
      const removed: IndexedListing[] = [];
      const staged: IndexedListing[] = [];
      const texts: { listing: IndexedListing; description: string; termsBinary?: string }[] = [];
      const technologies = new TechnologyRows();

      for (const item of unique) {
        const old = existing.get(item.listing.sourceId);
        if (!old) {
          fresh.push(item);
          continue;
        }
        const sameCompany = (old.company_id === null ? null : Number(old.company_id)) === item.companyId;
        if (old.content_hash === item.listing.contentHash && !old.expired && sameCompany) {
          touched.push(old.id);
          result.unchanged++;
          continue;
        }
        result.updated++;
        if (!old.expired) removed.push(indexedRow(old));
        technologies.remove(old);
        technologies.add(item, old.id);
        const l = item.listing;
        const values = columnValues(item, now);
        await trx
          .updateTable('jobs')
          .set({ ...Object.fromEntries(CONTENT_NAMES.map((c, i) => [c, values[i]])), expired: 0, expired_at: null })
          .where('id', '=', old.id)
          .execute();
        const listing = { ...indexedListing(item, old.id), counted: countedTermsOf(l.description, counted) };
        added.push(listing);
        texts.push({ listing, description: l.description, termsBinary: l.termsBinary });
      }

      if (fresh.length) {
        const rows = fresh.map((item) => [...columnValues(item, now), source, board, item.listing.sourceId, 0, now]);
        const inserted = await bulkInsert<{ id: number; source_id: string }>(trx, {
          table: 'jobs',
          columns: NEW_ROW_COLUMNS,
          values: rows,
          returning: ['id', 'source_id'],
        });
        const idOf = new Map(inserted.map((r) => [r.source_id, Number(r.id)]));
        for (const item of fresh) {
          const listing = {
            ...indexedListing(item, idOf.get(item.listing.sourceId)!),
            counted: countedTermsOf(item.listing.description, counted),
          };
          technologies.add(item, listing.jobId);
          staged.push(listing);
          // SQLite's full-text rows of new listings are written at the merge; PostgreSQL's terms now.
          if (this.dialect === 'postgres')
            texts.push({ listing, description: item.listing.description, termsBinary: item.listing.termsBinary });
        }
        result.created += fresh.length;
      }

      if (touched.length) {
        const q = this.dialect === 'postgres' ? ['$1', '$2'] : ['?', '?'];
        await run(trx, `update jobs set last_seen_at = ${q[0]} where ${listMatch(this.dialect, 'id', q[1], 'bigint')}`, [
          now,
          listParam(this.dialect, touched),
        ]);
      }
      await this.removeFromIndex(trx, removed, days, counted);
      await this.addToIndex(trx, added, days);
      await this.addText(trx, texts);
      await this.stage(trx, staged);
      await technologies.flush(trx);
      await days.flush(trx);
    });
    return result;
  }

  /** Marks the board's live listings not seen since `seenSince` as expired; returns how many. */
  /** A board's live listings, and how many of them were not seen since `seenSince` (what expireUnseen would expire). */
  async countVanished(source: string, board: string, seenSince: number): Promise<{ live: number; vanished: number }> {
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => [
        eb.fn.countAll<number>().as('live'),
        eb.fn.sum<number>(eb.case().when('last_seen_at', '<', seenSince).then(1).else(0).end()).as('vanished'),
      ])
      .where('source', '=', source)
      .where('board', '=', board)
      .where('expired', '=', 0)
      .executeTakeFirstOrThrow();
    return { live: Number(row.live), vanished: Number(row.vanished ?? 0) };
  }

  async expireUnseen(source: string, board: string, seenSince: number, now: number): Promise<number> {
    return inTransaction(this.db, async (trx) => {
      const gone = await trx
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
        .where('source', '=', source)
        .where('board', '=', board)
        .where('expired', '=', 0)
        .where('last_seen_at', '<', seenSince)
        .execute();
      if (!gone.length) return 0;
      const counted = this.dialect === 'postgres' ? await this.countedTerms.forWrite(trx) : CountedTerms.none;
      const ids = gone.map((r) => Number(r.id));
      for (const part of chunkForParameters(ids, 1))
        await trx.updateTable('jobs').set({ expired: 1, expired_at: now }).where('id', 'in', part).execute();
      const days = new DayCounts();
      await this.removeFromIndex(trx, gone.map(indexedRow), days, counted);
      await days.flush(trx);
      return gone.length;
    });
  }

  /**
   * Makes staged listings searchable (staged-index.ts); returns how many it merged. On PostgreSQL
   * the merged index pages are then vacuumed, so that the visibility map marks them all-visible:
   * counts of facet ranges are index-only scans (migration 0032) and would otherwise read a heap
   * row per index entry on exactly the pages a search's window reads, the newest, until autovacuum
   * came by. Only pages changed since the last vacuum are visited; the heap is not truncated (that
   * would lock searches out for a moment).
   */
  async mergeStagedIndex(options?: MergeOptions): Promise<number> {
    const merged = await mergeStagedIndex(this.db, options);
    if (merged && this.dialect === 'postgres' && !this.db.isTransaction) await run(this.db, 'vacuum (truncate false) job_facets');
    return merged;
  }

  /**
   * Compacts the search structures after a large load: on SQLite, FTS5 merges its segments into
   * one (a phrase query then reads one position list per word instead of one per segment; about
   * 9 s at a million listings) and the planner statistics are refreshed; on PostgreSQL, ANALYZE.
   * Readers keep working meanwhile (WAL); other writers wait for it.
   */
  async optimizeSearchIndex(): Promise<void> {
    if (this.dialect === 'sqlite') {
      await run(this.db, "insert into jobs_fts (jobs_fts) values ('optimize')", []);
      await run(this.db, 'analyze', []);
    } else {
      await run(this.db, 'analyze jobs, job_facets, job_live, job_facet_days', []);
    }
  }
}
