// Writes of the jobs domain: listings, their search facets, per-day facet counts and (SQLite) the
// description full-text index, kept in step in one transaction per batch.
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { dialectOf, type Db, type DialectName } from '../db/database.ts';
import { facetsOf, type FacetSource, type NormalizedListing } from './listing.ts';
import { insertMany, listMatch, listParam, run } from './bulk-sql.ts';
import type { JobRow } from './tables.ts';

export const DAY_MS = 86_400_000;

export interface BatchItem {
  listing: NormalizedListing;
  companyId: number | null;
}

export interface BatchResult {
  created: number;
  updated: number;
  unchanged: number;
}

type Trx = Transaction<Database>;

interface FacetKey {
  facet: string;
  has_remote: number;
  published_at: number;
  job_id: number;
}

type IndexedColumns = Pick<JobRow, 'id' | 'has_remote' | 'published_at' | 'type_ids' | 'city_ids' | 'country_codes' | 'region_ids' | 'experience_level' | 'title' | 'company_name' | 'company_id'>;

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

function facetKeys(source: FacetSource, jobId: number, hasRemote: number, publishedAt: number): FacetKey[] {
  return facetsOf(source).map((facet) => ({ facet, has_remote: hasRemote, published_at: publishedAt, job_id: jobId }));
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Facets whose ranges can hold a large share of all listings: only these keep per-day counts.
 * Title words, cities and companies are narrow enough to count row by row.
 */
export function hasDayCounts(facet: string): boolean {
  return facet === 'all' || facet.startsWith('c:') || facet.startsWith('r:') || facet.startsWith('t:') || facet.startsWith('x:');
}

/** Accumulates +1/-1 per (facet, remote, day) and writes the sums once per batch. */
class DayCounts {
  private readonly deltas = new Map<string, number>();

  add(keys: FacetKey[], sign: 1 | -1): void {
    for (const k of keys) {
      if (!hasDayCounts(k.facet)) continue;
      const id = `${k.facet}\u0000${k.has_remote}\u0000${Math.floor(k.published_at / DAY_MS)}`;
      this.deltas.set(id, (this.deltas.get(id) ?? 0) + sign);
    }
  }

  async flush(trx: Trx, dialect: DialectName): Promise<void> {
    const rows = [...this.deltas]
      .filter(([, n]) => n !== 0)
      .map(([id, n]) => {
        const [facet, remote, day] = id.split('\u0000');
        return [facet, Number(remote), Number(day), n];
      });
    await insertMany(trx, dialect, 'insert into job_facet_days (facet, has_remote, day, n)', rows, 'on conflict (facet, has_remote, day) do update set n = job_facet_days.n + excluded.n');
    this.deltas.clear();
  }
}

export class JobRepository {
  readonly dialect: DialectName;

  constructor(private readonly db: Db) {
    this.dialect = dialectOf(db);
  }

  private async addFacets(trx: Trx, keys: FacetKey[]): Promise<void> {
    const rows = keys.map((k) => [k.facet, k.has_remote, k.published_at, k.job_id]);
    await insertMany(trx, this.dialect, 'insert into job_facets (facet, has_remote, published_at, job_id)', rows, 'on conflict do nothing');
  }

  private async removeFacets(trx: Trx, keys: FacetKey[]): Promise<void> {
    for (const chunk of chunks(keys, 500)) {
      await trx
        .deleteFrom('job_facets')
        .where((eb) =>
          eb.or(chunk.map((k) => eb.and([eb('facet', '=', k.facet), eb('has_remote', '=', k.has_remote), eb('published_at', '=', k.published_at), eb('job_id', '=', k.job_id)]))),
        )
        .execute();
    }
  }

  private async addText(trx: Trx, rows: { id: number; description: string }[]): Promise<void> {
    if (this.dialect !== 'sqlite') return; // PostgreSQL: jobs.description_tsv is a generated column.
    await insertMany(trx, this.dialect, 'insert into jobs_fts (rowid, description)', rows.map((r) => [r.id, r.description]));
  }

  private async removeText(trx: Trx, ids: number[]): Promise<void> {
    if (this.dialect !== 'sqlite' || !ids.length) return;
    await run(trx, 'delete from jobs_fts where rowid in (select value from json_each(?))', [JSON.stringify(ids)]);
  }

  /** Creates new listings, rewrites changed or revived ones, touches unchanged ones. One (source, board). */
  async upsertBatch(items: BatchItem[], now: number): Promise<BatchResult> {
    const result: BatchResult = { created: 0, updated: 0, unchanged: 0 };
    if (!items.length) return result;
    const { source, board } = items[0].listing;
    // The last occurrence of a source id within a batch wins.
    const byId = new Map(items.map((item) => [item.listing.sourceId, item]));
    const unique = [...byId.values()];
    await this.db.transaction().execute(async (trx) => {
      const existing = new Map<string, IndexedColumns & { source_id: string; content_hash: string; expired: number }>();
      const p = this.dialect === 'postgres' ? ['$1', '$2', '$3'] : ['?', '?', '?'];
      const rows = await run<IndexedColumns & { source_id: string; content_hash: string; expired: number }>(
        trx,
        `select id, source_id, content_hash, expired, has_remote, published_at, type_ids, city_ids, country_codes, region_ids, experience_level, title, company_name, company_id
           from jobs where source = ${p[0]} and board = ${p[1]} and ${listMatch(this.dialect, 'source_id', p[2], 'text')}`,
        [source, board, listParam(this.dialect, unique.map((i) => i.listing.sourceId))],
      );
      for (const row of rows) existing.set(row.source_id, { ...row, id: Number(row.id), published_at: Number(row.published_at) });
      const days = new DayCounts();
      const fresh: BatchItem[] = [];
      const touched: number[] = [];
      const newFacets: FacetKey[] = [];
      const oldFacets: FacetKey[] = [];
      const texts: { id: number; description: string }[] = [];
      const live: [number, number, number][] = [];
      const liveRewrittenIds: number[] = [];

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
        if (!old.expired) {
          oldFacets.push(...facetKeys(facetSourceOfRow(old), old.id, old.has_remote, old.published_at));
          liveRewrittenIds.push(old.id);
        }
        const l = item.listing;
        await trx.updateTable('jobs').set({ ...this.columns(item, now), expired: 0, expired_at: null }).where('id', '=', old.id).execute();
        newFacets.push(...facetKeys({ ...l, companyId: item.companyId }, old.id, l.hasRemote ? 1 : 0, l.publishedAt));
        texts.push({ id: old.id, description: l.description });
        live.push([old.id, l.hasRemote ? 1 : 0, l.publishedAt]);
      }

      if (fresh.length) {
        const chunk = fresh;
        const records = chunk.map((item) => ({ ...this.columns(item, now), source, board, source_id: item.listing.sourceId, expired: 0, first_seen_at: now }));
        const names = Object.keys(records[0]);
        const inserted = await insertMany<{ id: number; source_id: string }>(
          trx, this.dialect, `insert into jobs (${names.join(', ')})`, records.map((r) => names.map((n) => r[n as keyof typeof r])), 'returning id, source_id',
        );
        const idOf = new Map(inserted.map((r) => [r.source_id, Number(r.id)]));
        for (const item of chunk) {
          const id = idOf.get(item.listing.sourceId)!;
          const l = item.listing;
          newFacets.push(...facetKeys({ ...l, companyId: item.companyId }, id, l.hasRemote ? 1 : 0, l.publishedAt));
          texts.push({ id, description: l.description });
          live.push([id, l.hasRemote ? 1 : 0, l.publishedAt]);
        }
        result.created += chunk.length;
      }

      if (touched.length) {
        const q = this.dialect === 'postgres' ? ['$1', '$2'] : ['?', '?'];
        await run(trx, `update jobs set last_seen_at = ${q[0]} where ${listMatch(this.dialect, 'id', q[1], 'bigint')}`, [now, listParam(this.dialect, touched)]);
      }
      await this.removeFacets(trx, oldFacets);
      days.add(oldFacets, -1);
      await this.removeText(trx, liveRewrittenIds);
      await this.addFacets(trx, newFacets);
      days.add(newFacets, 1);
      await this.addText(trx, texts);
      await insertMany(trx, this.dialect, 'insert into job_live (job_id, has_remote, published_at)', live,
        'on conflict (job_id) do update set has_remote = excluded.has_remote, published_at = excluded.published_at');
      await days.flush(trx, this.dialect);
    });
    return result;
  }

  private columns(item: BatchItem, now: number) {
    const l = item.listing;
    return {
      company_id: item.companyId,
      company_name: l.companyName,
      title: l.title,
      location: l.location,
      has_remote: l.hasRemote ? 1 : 0,
      published_at: l.publishedAt,
      experience_level: l.experienceLevel,
      type_ids: JSON.stringify(l.typeIds),
      city_ids: JSON.stringify(l.cityIds),
      country_codes: JSON.stringify(l.countryCodes),
      region_ids: JSON.stringify(l.regionIds),
      clearance_required: l.clearanceRequired ? 1 : 0,
      language: l.language,
      salary_min: l.salaryMin,
      salary_max: l.salaryMax,
      salary_currency: l.salaryCurrency,
      description: l.description,
      application_url: l.applicationUrl,
      content_hash: l.contentHash,
      last_seen_at: now,
    };
  }

  /** Marks the board's live listings not seen since `seenSince` as expired; returns how many. */
  async expireUnseen(source: string, board: string, seenSince: number, now: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const gone = await trx
        .selectFrom('jobs')
        .select(['id', 'has_remote', 'published_at', 'type_ids', 'city_ids', 'country_codes', 'region_ids', 'experience_level', 'title', 'company_name', 'company_id'])
        .where('source', '=', source)
        .where('board', '=', board)
        .where('expired', '=', 0)
        .where('last_seen_at', '<', seenSince)
        .execute();
      if (!gone.length) return 0;
      const keys = gone.flatMap((row) => facetKeys(facetSourceOfRow(row), Number(row.id), row.has_remote, Number(row.published_at)));
      const ids = gone.map((r) => Number(r.id));
      for (const chunk of chunks(ids, 900)) await trx.updateTable('jobs').set({ expired: 1, expired_at: now }).where('id', 'in', chunk).execute();
      await this.removeFacets(trx, keys);
      await this.removeText(trx, ids);
      await run(trx, `delete from job_live where ${listMatch(this.dialect, 'job_id', this.dialect === 'postgres' ? '$1' : '?', 'bigint')}`, [listParam(this.dialect, ids)]);
      const days = new DayCounts();
      days.add(keys, -1);
      await days.flush(trx, this.dialect);
      return gone.length;
    });
  }
}
