// Storage of companies: the API's reads, and batched upserts (one transaction per batch, a handful
// of statements per batch rather than per row, so a million-row import stays fast). Which company a
// report is lives in matching.ts, which value a fact takes in fact-merge.ts, and the list facts'
// tables in child-tables.ts; this module puts them together.
import { sql, type Transaction } from 'kysely';
import { dialectOf, sqliteConnectionOf, type Db } from '../db/database.ts';
import { beginBulkWrites } from '../db/bulk-writes.ts';
import { PreparedQuery } from '../db/prepared-query.ts';
import type { Database } from '../db/schema.ts';
import type { CompanyRow, CompanyTable } from './tables.ts';
import type { CompanyFacts, PreparedArticle, PreparedCompany } from './input.ts';
import { bulkInsert, bulkUpdate, selectByKeys, type PgType } from '../db/bulk.ts';
import { ALL_SET_FACTS, FACT_COLUMNS, mergeFacts, parseSources, sourceRank } from './fact-merge.ts';
import { groupByCompany, idsByNormalizedDomains, type Group } from './matching.ts';
import { ARTICLES, chunkKeys, oneOf, uniqueRows, writeChildRows, writeChildTables } from './child-tables.ts';

type Tx = Transaction<Database> | Db;

export interface UpsertResult {
  /** 0 when the item was not stored (see `error`). */
  id: number;
  created: boolean;
  /** Why this item was not stored (for example a new company without a name); the rest of the batch was. */
  error?: string;
  /** False when the company existed and nothing it reported was new. */
  changed: boolean;
}

const INT_COLUMNS = new Set(['industry_id', 'employee_count', 'founded_year', 'followers']);
const FLOAT_COLUMNS = new Set(['revenue', 'total_funding']);
const COMPANY_COLUMNS: Record<string, PgType> = {
  ...Object.fromEntries(FACT_COLUMNS.map((c) => [c, INT_COLUMNS.has(c) ? 'int4' : FLOAT_COLUMNS.has(c) ? 'float8' : 'text'])),
  field_sources: 'text',
  created_at: 'int8',
  updated_at: 'int8',
};

export class CompanyRepository {
  private readonly pg: boolean;
  private readonly byDomainQuery: PreparedQuery<CompanyRow>;
  private readonly byNameKeyQuery: PreparedQuery<CompanyRow & { matched_name: string; matched_kind: string }>;

  constructor(readonly db: Db) {
    this.pg = dialectOf(db) === 'postgres';
    // The hot lookups, built once. Parameters: [domain].
    this.byDomainQuery = new PreparedQuery(
      db,
      db.selectFrom('company_domains as d').innerJoin('companies as c', 'c.id', 'd.company_id').selectAll('c').where('d.domain', '=', ''),
      1,
    );
    // Display names are matched on companies.normalized_name, other names and aliases in
    // company_names: one statement for both. Parameters: [key, key, limit].
    this.byNameKeyQuery = new PreparedQuery(
      db,
      db
        .selectFrom('companies as c')
        .selectAll('c')
        .select([sql<string>`c.name`.as('matched_name'), sql<string>`'display'`.as('matched_kind')])
        .where('c.normalized_name', '=', '')
        .unionAll(
          db
            .selectFrom('company_names as n')
            .innerJoin('companies as c', 'c.id', 'n.company_id')
            .selectAll('c')
            .select(['n.name as matched_name', 'n.kind as matched_kind'])
            .where('n.normalized_name', '=', ''),
        )
        .limit(1),
      3,
    );
  }

  // ---------- lookups ----------

  async getById(id: number): Promise<CompanyRow | null> {
    return (await this.db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  /** Companies whose professional-network URL (lower case, without scheme) is one of `forms` (index companies_prof_url_lower). */
  async findByProfUrlForms(forms: string[]): Promise<CompanyRow[]> {
    if (!forms.length) return [];
    return this.db
      .selectFrom('companies')
      .selectAll()
      .where(sql<string>`lower(prof_url)`, 'in', forms)
      .orderBy('id')
      .limit(2)
      .execute();
  }

  /** Companies with a domain, in id order after `afterId` (a page of them). */
  async withDomains(afterId: number, limit: number): Promise<{ id: number; name: string; domain: string }[]> {
    const rows = await this.db
      .selectFrom('companies')
      .select(['id', 'name', 'domain'])
      .where('domain', 'is not', null)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: Number(r.id), name: r.name, domain: r.domain! }));
  }

  /** Companies with a domain, the most employees first (unknown counts last), then the newest: whose jobs matter most. */
  async biggestWithDomains(limit: number): Promise<{ id: number; name: string; domain: string }[]> {
    const rows = await this.db
      .selectFrom('companies')
      .select(['id', 'name', 'domain'])
      .where('domain', 'is not', null)
      .orderBy(sql`case when employee_count is null then 1 else 0 end`)
      .orderBy('employee_count', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: Number(r.id), name: r.name, domain: r.domain! }));
  }

  /** Company ids of many normalized domains in a few statements (importers resolving a batch). */
  async idsByNormalizedDomains(domains: string[]): Promise<Map<string, number>> {
    return idsByNormalizedDomains(this.db, this.pg, domains);
  }

  /** The company owning a normalized domain (primary or secondary). */
  async findByNormalizedDomain(domain: string): Promise<CompanyRow | null> {
    return (await this.byDomainQuery.rows([domain]))[0] ?? null;
  }

  /** Companies whose name or an alias has this matching key, with the names that matched. */
  async findByNameKey(key: string, limit = 20): Promise<{ company: CompanyRow; names: { name: string; kind: string }[] }[]> {
    const rows = await this.byNameKeyQuery.rows([key, key, limit * 2]);
    const byId = new Map<number, { company: CompanyRow; names: { name: string; kind: string }[] }>();
    for (const r of rows) {
      const { matched_name, matched_kind, ...company } = r;
      const entry = byId.get(Number(company.id)) ?? { company: company, names: [] };
      entry.names.push({ name: matched_name, kind: matched_kind === 'display' ? 'name' : matched_kind });
      byId.set(Number(company.id), entry);
    }
    return [...byId.values()].sort((a, b) => a.company.id - b.company.id).slice(0, limit);
  }

  async findByExternalId(kind: string, value: string): Promise<CompanyRow | null> {
    const row = await this.db
      .selectFrom('company_external_ids as x')
      .innerJoin('companies as c', 'c.id', 'x.company_id')
      .selectAll('c')
      .where('x.kind', '=', kind)
      .where('x.value', '=', value)
      .executeTakeFirst();
    return row ?? null;
  }

  async domainsOf(companyId: number) {
    return this.db
      .selectFrom('company_domains')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('is_primary', 'desc')
      .orderBy('domain')
      .execute();
  }
  async namesOf(companyId: number) {
    return this.db.selectFrom('company_names').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
  }
  async fundingRoundsOf(companyId: number) {
    return this.db.selectFrom('company_funding_rounds').selectAll().where('company_id', '=', companyId).execute();
  }
  async leadersOf(companyId: number) {
    return this.db.selectFrom('company_leaders').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
  }
  async competitorsOf(companyId: number) {
    return this.db.selectFrom('company_competitors').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
  }
  async acquisitionsOf(companyId: number) {
    return this.db.selectFrom('company_acquisitions').selectAll().where('company_id', '=', companyId).execute();
  }
  async relationsOf(companyId: number) {
    return this.db.selectFrom('company_relations').selectAll().where('company_id', '=', companyId).execute();
  }
  async articlesOf(companyId: number, limit = 50) {
    return this.db
      .selectFrom('company_articles')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
  async highlightsOf(companyId: number) {
    return this.db.selectFrom('company_highlights').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
  }

  // ---------- writes ----------

  /**
   * Stores a batch of companies reported by one source, in one transaction. Each item is matched to
   * an existing company by external id, then by any of its domains, then (only when it brings
   * neither) by an unambiguous name in the same country; otherwise it is created. Items of the batch
   * that share a key are folded together. Returns one result per item, in order.
   */
  async upsertMany(items: PreparedCompany[], source: string, seenAt = Date.now()): Promise<UpsertResult[]> {
    if (items.length === 0) return [];
    return this.db.transaction().execute((trx) => this.upsertInTransaction(trx, items, source, seenAt));
  }

  private async upsertInTransaction(trx: Tx, items: PreparedCompany[], source: string, seenAt: number): Promise<UpsertResult[]> {
    const { groups, failed } = await groupByCompany(trx, this.pg, items);
    const results: UpsertResult[] = new Array(items.length);
    for (const [i, error] of failed) results[i] = { id: 0, created: false, changed: false, error };
    const rank = sourceRank(source);

    // Existing companies: fold each item's facts in, write the rows that changed.
    const existing = groups.filter((g) => g.id !== undefined);
    const rows = new Map<number, CompanyRow>();
    const existingIds = existing.map((g) => g.id!);
    const probed = selectByKeys<CompanyRow>(trx, 'select * from companies where id in (?KEYS)', [], existingIds);
    for (const r of probed ?? []) rows.set(r.id, r);
    for (const ids of probed ? [] : chunkKeys(existingIds)) {
      if (!ids.length) continue;
      for (const r of await trx
        .selectFrom('companies')
        .selectAll()
        .where((eb) => oneOf(this.pg, eb, 'id', ids, 'int8'))
        .execute())
        rows.set(r.id, r);
    }
    const changedIds = new Set<number>();
    // Primary domains this batch gives out that no company held when it looked: each must become
    // the company's own company_domains row (which keeps primary domains unique).
    const claimedPrimaries = new Map<number, string>();
    const updates = new Map<string, Record<string, unknown>[]>();
    for (const g of existing) {
      const row = rows.get(g.id!);
      if (!row) throw new Error(`company ${g.id} vanished during an import`);
      const sources = parseSources(row);
      const changes: Partial<Omit<CompanyTable, 'id'>> = {};
      const previousName = { name: row.name, normalized_name: row.normalized_name };
      for (const item of g.items) mergeFacts(row, sources, changes, item.facts, source, rank);
      if (row.normalized_name !== previousName.normalized_name) {
        // The old display name stays findable, as a name of the company.
        g.items[0].names.push({ ...previousName, kind: 'name' });
      }
      if (row.domain === null) {
        // Becomes the primary domain only when no other company holds it.
        for (const d of g.items.flatMap((i) => i.domains)) {
          const holder = await trx.selectFrom('company_domains').select('company_id').where('domain', '=', d).executeTakeFirst();
          if (holder && Number(holder.company_id) !== row.id) continue;
          changes.domain = row.domain = d;
          if (!holder) claimedPrimaries.set(row.id, d);
          break;
        }
      }
      sources[source] = { seen_at: seenAt, fields: sources[source]?.fields ?? [] };
      const changed = Object.keys(changes);
      if (changed.length) changedIds.add(row.id);
      // Rows that change the same columns are updated together (an unchanged indexed column is
      // left out, so its index is not touched).
      const set = { ...changes, field_sources: JSON.stringify(sources), ...(changed.length ? { updated_at: seenAt } : {}) };
      const signature = Object.keys(set).sort().join(',');
      let list = updates.get(signature);
      if (!list) updates.set(signature, (list = []));
      list.push({ id: row.id, ...set });
    }
    for (const [signature, list] of updates) {
      const columns = Object.fromEntries(signature.split(',').map((c) => [c, COMPANY_COLUMNS[c]]));
      await bulkUpdate(trx, { table: 'companies', key: ['id', 'int8'], columns, rows: list });
    }

    // New companies. Their field_sources is one text for the whole batch: the reporting source owns
    // every fact of a new row, which is every fact set in it (`"fields": "*"`, see parseSources).
    const created = groups.filter((g) => g.id === undefined);
    const createdSources = JSON.stringify({ [source]: { seen_at: seenAt, fields: ALL_SET_FACTS } });
    const newFacts = created.map((g): CompanyFacts =>
      g.items.length === 1 ? g.items[0].facts : Object.assign({}, ...g.items.map((i) => i.facts)),
    );
    const newDomains = created.map((g) => g.items.find((i) => i.domains.length > 0)?.domains[0] ?? null);
    // Only the fact columns some new row sets are written (the others are null): a source reports a
    // third of them, and binding a null costs about what binding a value does.
    const reported = new Set<string>(['name', 'normalized_name', 'domain']);
    for (const facts of newFacts) {
      if (!facts.name) throw new Error('a new company needs a name');
      for (const k in facts) reported.add(k);
    }
    const newColumns = [...FACT_COLUMNS.filter((c) => reported.has(c)), 'field_sources', 'created_at', 'updated_at'];
    const newValues = newFacts.map((facts, n) => {
      const values = newColumns.map((c) => (facts as Record<string, unknown>)[c] ?? null);
      values[newColumns.indexOf('domain')] = newDomains[n];
      values[values.length - 3] = createdSources;
      values[values.length - 2] = values[values.length - 1] = seenAt;
      return values;
    });
    const withDomain = created.flatMap((_, n) => (newDomains[n] !== null ? [n] : []));
    const inserted = await bulkInsert<{ id: number; domain: string }>(trx, {
      table: 'companies',
      columns: Object.fromEntries(newColumns.map((c) => [c, COMPANY_COLUMNS[c]])),
      values: withDomain.map((n) => newValues[n]),
      returning: ['id', 'domain'],
    });
    const idByDomain = new Map(inserted.map((r) => [r.domain, Number(r.id)]));
    // Companies without a domain (a registry's, a job board's) have nothing to find their ids by
    // but the order. On SQLite inside a transaction bulkInsert runs one statement per row, in order,
    // and returns one row each: the ids come back in the rows' order, without a Kysely insert built
    // per row (which cost more than the insert). PostgreSQL's many-row insert promises no order.
    const withoutDomain = created.flatMap((_, n) => (newDomains[n] === null ? [n] : []));
    if (withoutDomain.length && !this.pg && trx.isTransaction && sqliteConnectionOf(trx)) {
      const ids = await bulkInsert<{ id: number }>(trx, {
        table: 'companies',
        columns: Object.fromEntries(newColumns.map((c) => [c, COMPANY_COLUMNS[c]])),
        values: withoutDomain.map((n) => newValues[n]),
        returning: ['id'],
      });
      if (ids.length !== withoutDomain.length) throw new Error(`${withoutDomain.length} companies written, ${ids.length} ids returned`);
      withoutDomain.forEach((n, i) => (created[n].id = Number(ids[i].id)));
    }
    for (let n = 0; n < created.length; n++) {
      const domain = newDomains[n];
      if (domain !== null) created[n].id = idByDomain.get(domain);
      else if (created[n].id === undefined) {
        const row = Object.fromEntries(newColumns.map((c, i) => [c, newValues[n][i]])) as Omit<CompanyTable, 'id'>;
        created[n].id = Number((await trx.insertInto('companies').values(row).returning('id').executeTakeFirstOrThrow()).id);
      }
    }
    const primaryOf = new Map<number, string | null>();
    const displayKeyOf = new Map<number, string>();
    for (const g of existing) {
      primaryOf.set(g.id!, rows.get(g.id!)!.domain);
      displayKeyOf.set(g.id!, rows.get(g.id!)!.normalized_name);
    }
    created.forEach((g, n) => {
      primaryOf.set(g.id!, newDomains[n]);
      displayKeyOf.set(g.id!, newFacts[n].normalized_name!);
      if (newDomains[n] !== null) claimedPrimaries.set(g.id!, newDomains[n]);
    });

    const childChanges = await this.writeChildren(
      trx,
      groups,
      source,
      seenAt,
      new Set(existing.map((g) => g.id!)),
      primaryOf,
      displayKeyOf,
      claimedPrimaries,
    );
    const createdSet = new Set(created);
    for (const g of groups) {
      const isNew = createdSet.has(g);
      // In a new company, the first report created it and later ones in the batch updated it.
      g.indexes.forEach((i, n) => {
        results[i] = { id: g.id!, created: isNew && n === 0, changed: isNew || changedIds.has(g.id!) || childChanges.has(g.id!) };
      });
    }
    return results;
  }

  /** Upserts every list fact; returns the ids of existing companies that got a new one. */
  private async writeChildren(
    trx: Tx,
    groups: Group[],
    source: string,
    seenAt: number,
    existingIds: Set<number>,
    primaryOf: Map<number, string | null>,
    displayKeyOf: Map<number, string>,
    claimedPrimaries: Map<number, string>,
  ): Promise<Set<number>> {
    const changed = new Set<number>();
    const all: { id: number; item: PreparedCompany }[] = [];
    for (const g of groups) for (const item of g.items) all.push({ id: g.id!, item });

    // Where two companies of the batch report one domain, the one it is the primary domain of keeps
    // it (otherwise the last report's). Rows: [domain, company_id, is_primary, source, seen_at].
    const domains = new Map<string, [string, number, number, string, number]>();
    for (const { id, item } of all) {
      for (const domain of item.domains) {
        const isPrimary = primaryOf.get(id) === domain ? 1 : 0;
        if (isPrimary || !domains.get(domain)?.[2]) domains.set(domain, [domain, id, isPrimary, source, seenAt]);
      }
    }
    const newDomains = await bulkInsert<{ domain: string; company_id: number }>(trx, {
      table: 'company_domains',
      columns: { domain: 'text', company_id: 'int8', is_primary: 'int4', source: 'text', seen_at: 'int8' },
      values: [...domains.values()],
      onConflict: 'on conflict ("domain") do nothing',
      returning: ['domain', 'company_id'],
    });
    const ownerOf = new Map<string, number>();
    for (const d of newDomains) {
      ownerOf.set(d.domain, Number(d.company_id));
      if (existingIds.has(Number(d.company_id))) changed.add(Number(d.company_id));
    }
    for (const [id, domain] of claimedPrimaries) {
      // Taken meanwhile (another import committed it first): the batch is retried row by row.
      if (ownerOf.get(domain) !== id) throw new Error(`domain ${domain} was taken by another company during this import`);
    }

    await writeChildTables(trx, this.pg, all, { source, seenAt, displayKeyOf }, existingIds, changed);
    return changed;
  }

  /** Upserts news items and press releases of known companies (outside an import batch). */
  async upsertArticles(articles: (PreparedArticle & { company_id: number })[], source: string, seenAt: number): Promise<void> {
    const rows = uniqueRows(
      ARTICLES,
      articles.map((a) => ({ ...a, source, seen_at: seenAt })),
    );
    await writeChildRows(this.db, this.pg, ARTICLES, rows, new Set(), new Set());
  }

  /**
   * Before a large import, on SQLite: a page cache large enough to hold the hot index pages (the
   * default 2 MiB makes every random index insert a page read once the tables grow), and WAL
   * checkpoints spaced out (beginBulkWrites: one batch dirties thousands of random index pages,
   * which the default interval copied again after every commit). Returns the step that ends it.
   */
  async prepareForBulkImport(cacheMiB = 256): Promise<() => Promise<void>> {
    if (dialectOf(this.db) === 'sqlite') await sql.raw(`pragma cache_size = -${Math.round(cacheMiB * 1024)}`).execute(this.db);
    return beginBulkWrites(this.db);
  }

  /** Number of companies stored. */
  async count(): Promise<number> {
    const r = await this.db
      .selectFrom('companies')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
