// Storage of companies: batched upserts (one transaction per batch, a handful of statements per
// batch rather than per row, so a million-row import stays fast) and the lookups by key.
import { sql, type ExpressionBuilder, type Transaction } from 'kysely';
import { dialectOf, type Db } from '../db/database.ts';
import { beginBulkWrites } from '../db/bulk-writes.ts';
import { PreparedQuery } from '../db/prepared-query.ts';
import type { Database } from '../db/schema.ts';
import type { CompanyRow, CompanyTable } from './tables.ts';
import type { CompanyFacts, PreparedCompany } from './input.ts';
import { bulkInsert, bulkUpdate, selectByKeys, type PgType } from '../db/bulk.ts';

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

/** How much a source is trusted: a fact is replaced only by a source of equal or higher rank. */
const SOURCE_RANK: Record<string, number> = { jsonl: 3, pdl: 2, 'sec-formd': 2 };
export function sourceRank(source: string): number {
  return SOURCE_RANK[source.split(':')[0]] ?? 1;
}

/** field_sources JSON: source → when it was last seen and which facts it currently owns. */
type FieldSources = Record<string, { seen_at: number; fields: string[] }>;
/**
 * `fields` of a row's only source when it owns every fact set in the row: how new rows are stored
 * (a list of a dozen names was over half of a typical row), expanded by parseSources.
 */
const ALL_SET_FACTS = '*';

const FACT_COLUMNS = [
  'name',
  'normalized_name',
  'domain',
  'website',
  'short_name',
  'description',
  'industry',
  'industry_id',
  'size_label',
  'employee_count',
  'employee_growth',
  'founded_year',
  'company_type',
  'status',
  'ownership',
  'phone',
  'followers',
  'revenue',
  'total_funding',
  'technology_stack',
  'sectors',
  'location_name',
  'locality',
  'region',
  'metro',
  'country',
  'country_code',
  'continent',
  'street_address',
  'address_line_2',
  'postal_code',
  'geo',
  'prof_url',
  'prof_id',
  'social_a_url',
  'social_b_url',
  'social_b_handle',
  'code_host_url',
] as const satisfies readonly (keyof CompanyFacts)[];
const INT_COLUMNS = new Set(['industry_id', 'employee_count', 'founded_year', 'followers']);
const FLOAT_COLUMNS = new Set(['revenue', 'total_funding']);
const COMPANY_COLUMNS: Record<string, PgType> = {
  ...Object.fromEntries(FACT_COLUMNS.map((c) => [c, INT_COLUMNS.has(c) ? 'int4' : FLOAT_COLUMNS.has(c) ? 'float8' : 'text'])),
  field_sources: 'text',
  created_at: 'int8',
  updated_at: 'int8',
};
const excluded = (columns: string[]) => columns.map((c) => `"${c}" = excluded."${c}"`).join(', ');

// Facts that follow another one rather than being owned on their own.
const FOLLOWERS: Partial<Record<keyof CompanyFacts, keyof CompanyFacts>> = { normalized_name: 'name' };

/** Largest number of bound parameters per statement (SQLite allows 32766, PostgreSQL 65535). */
const MAX_PARAMS = 30000;
const chunk = <T>(rows: T[], columns: number): T[][] => {
  const size = Math.max(1, Math.floor(MAX_PARAMS / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
};
/** Lists of ids or keys for `in (…)`, one bound parameter each. */
const chunkKeys = <T>(keys: T[]): T[][] => chunk(keys, 1);
/**
 * `column` is one of `keys`: on PostgreSQL one array parameter (`= any($1)`: parsed and planned the
 * same whatever the count), on SQLite a list of parameters (chunked by the caller).
 */
const oneOf = (pg: boolean, eb: ExpressionBuilder<any, any>, column: string, keys: (string | number)[], pgType: 'text' | 'int8') =>
  pg ? eb(column, '=', sql`any(${keys}::${sql.raw(pgType)}[])`) : eb(column, 'in', keys);

const uniqueBy = <T>(rows: T[], key: (r: T) => string): T[] => (rows.length ? [...new Map(rows.map((r) => [key(r), r])).values()] : rows);

/**
 * The rows of one list fact of every item, with the item's company id (`row` may skip an entry by
 * returning undefined). A loop rather than flatMap: most lists are empty, and flatMap made an array
 * per item and list.
 */
function listRows<T, R>(
  all: { id: number; item: PreparedCompany }[],
  list: (item: PreparedCompany) => T[],
  row: (id: number, entry: T) => R | undefined,
): R[] {
  const out: R[] = [];
  for (const { id, item } of all) {
    const entries = list(item);
    for (let i = 0; i < entries.length; i++) {
      const r = row(id, entries[i]);
      if (r !== undefined) out.push(r);
    }
  }
  return out;
}

interface Namesake {
  id: number;
  country_code: string | null;
  domain: string | null;
}

interface Group {
  /** Existing company id, or undefined for a company this batch creates. */
  id?: number;
  items: PreparedCompany[];
  indexes: number[];
}

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

  /** Company ids of many normalized domains in a few statements (importers resolving a batch). */
  async idsByNormalizedDomains(domains: string[], db: Tx | Db = this.db): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    const keys = [...new Set(domains)];
    const probed = selectByKeys<{ domain: string; company_id: number }>(
      db,
      'select domain, company_id from company_domains where domain in (?KEYS)',
      [],
      keys,
    );
    for (const part of probed ? [] : chunkKeys(keys)) {
      if (!part.length) continue;
      const found = await db
        .selectFrom('company_domains')
        .select(['domain', 'company_id'])
        .where((eb) => oneOf(this.pg, eb, 'domain', part, 'text'))
        .execute();
      for (const f of found) ids.set(f.domain, Number(f.company_id));
    }
    for (const f of probed ?? []) ids.set(f.domain, Number(f.company_id));
    return ids;
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
    const { groups, failed } = await this.resolve(trx, items);
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
    for (let n = 0; n < created.length; n++) {
      const domain = newDomains[n];
      if (domain !== null) created[n].id = idByDomain.get(domain);
      else {
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

  /** Groups the batch by target company (existing id, or one new company per distinct key). */
  private async resolve(trx: Tx, items: PreparedCompany[]): Promise<{ groups: Group[]; failed: Map<number, string> }> {
    const byExternal = new Map<string, number>();
    const kinds = new Map<string, string[]>();
    for (const item of items) for (const x of item.externalIds) kinds.set(x.kind, [...(kinds.get(x.kind) ?? []), x.value]);
    for (const [kind, values] of kinds) {
      const keys = [...new Set(values)];
      const probed = selectByKeys<{ value: string; company_id: number }>(
        trx,
        'select value, company_id from company_external_ids where kind = ? and value in (?KEYS)',
        [kind],
        keys,
      );
      for (const part of probed ? [] : chunkKeys(keys)) {
        const found = await trx
          .selectFrom('company_external_ids')
          .select(['value', 'company_id'])
          .where('kind', '=', kind)
          .where((eb) => oneOf(this.pg, eb, 'value', part, 'text'))
          .execute();
        for (const f of found) byExternal.set(`${kind}\u0000${f.value}`, Number(f.company_id));
      }
      for (const f of probed ?? []) byExternal.set(`${kind}\u0000${f.value}`, Number(f.company_id));
    }
    const byDomain = await this.idsByNormalizedDomains(
      items.flatMap((i) => i.domains),
      trx,
    );

    // Namesakes of the reports that match nothing by id or domain (see the name rules below). A
    // report with domains can only complete a namesake that has no domain: its name key is looked
    // up in full only when a company without a domain, or another name of any company, has it.
    const nameOnlyKeys: string[] = [];
    const withDomainKeys: string[] = [];
    for (const i of items) {
      const key = i.facts.normalized_name;
      if (!key || i.externalIds.some((x) => byExternal.has(`${x.kind}\u0000${x.value}`)) || i.domains.some((d) => byDomain.has(d)))
        continue;
      (i.domains.length ? withDomainKeys : nameOnlyKeys).push(key);
    }
    const namesakes = await this.namesakes(trx, [...nameOnlyKeys, ...(await this.keysNamingDomainlessOrOther(trx, withDomainKeys))]);

    const claimed = new Map<number, string[]>();
    const groups: Group[] = [];
    const failed = new Map<number, string>();
    const existingGroups = new Map<number, Group>();
    const pending = new Map<string, Group>();
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      const keys = [...item.externalIds.map((x) => `x:${x.kind}\u0000${x.value}`), ...item.domains.map((d) => `d:${d}`)];
      let id: number | undefined;
      for (const x of item.externalIds) id ??= byExternal.get(`${x.kind}\u0000${x.value}`);
      for (const d of item.domains) id ??= byDomain.get(d);
      let group: Group | undefined;
      if (id === undefined) for (const k of keys) group ??= pending.get(k);
      const candidates = id === undefined && !group ? namesakes.get(item.facts.normalized_name ?? '') : undefined;
      if (id === undefined && !group && item.domains.length === 0) {
        // No known id and no domain: only a name. Same name and country within the batch is one
        // company; otherwise an unambiguous stored match, else a new company.
        const nameKey = `n:${item.facts.normalized_name ?? ''}\u0000${item.facts.country_code ?? ''}`;
        group = pending.get(nameKey);
        if (!group) {
          id = candidates ? await this.pickNamesake(trx, item, candidates, false) : undefined;
          if (id === undefined) keys.push(nameKey);
        }
      }
      // (Most reports of a large import have no namesake: no await, no statement for them.)
      if (id === undefined && !group && item.domains.length > 0 && candidates) {
        // New domains: they complete an unambiguous namesake that has no domain yet (a company a
        // job board or a news feed created by name), rather than creating a twin. A namesake
        // with another domain is another company.
        id = await this.pickNamesake(trx, item, candidates, true);
        // Only one set of domains may complete a namesake within a batch: another report of the
        // same name with other domains is another company.
        if (id !== undefined) {
          const claim = claimed.get(id);
          if (claim && !item.domains.some((d) => claim.includes(d))) id = undefined;
          else claimed.set(id, [...(claim ?? []), ...item.domains]);
        }
      }
      if (id !== undefined) {
        group = existingGroups.get(id);
        if (!group) {
          group = { id, items: [], indexes: [] };
          existingGroups.set(id, group);
          groups.push(group);
        }
      } else if (!group) {
        if (!item.facts.name) {
          failed.set(index, 'a new company needs a name (no stored company has its domain or id)');
          continue;
        }
        group = { items: [], indexes: [] };
        groups.push(group);
      }
      if (group.id === undefined) for (const k of keys) if (!pending.has(k)) pending.set(k, group);
      group.items.push(item);
      group.indexes.push(index);
    }
    return { groups, failed };
  }

  /** The keys that are the display name of a company without a domain, or another name of any company. */
  private async keysNamingDomainlessOrOther(trx: Tx, keys: string[]): Promise<string[]> {
    const unique = [...new Set(keys)];
    const found = new Set<string>();
    const domainless = selectByKeys<{ normalized_name: string }>(
      trx,
      'select normalized_name from companies where domain is null and normalized_name in (?KEYS)',
      [],
      unique,
    );
    if (domainless) {
      for (const r of domainless) found.add(r.normalized_name);
      for (const r of selectByKeys<{ normalized_name: string }>(
        trx,
        'select normalized_name from company_names where normalized_name in (?KEYS)',
        [],
        unique,
      )!)
        found.add(r.normalized_name);
      return [...found];
    }
    for (const part of chunkKeys(unique)) {
      if (!part.length) continue;
      const display = await trx
        .selectFrom('companies')
        .select('normalized_name')
        .where('domain', 'is', null)
        .where((eb) => oneOf(this.pg, eb, 'normalized_name', part, 'text'))
        .execute();
      const other = await trx
        .selectFrom('company_names')
        .select('normalized_name')
        .where((eb) => oneOf(this.pg, eb, 'normalized_name', part, 'text'))
        .execute();
      for (const r of [...display, ...other]) found.add(r.normalized_name);
    }
    return [...found];
  }

  /** Stored companies by name key (display names and other names), for a batch of keys at once. */
  private async namesakes(trx: Tx, keys: string[]): Promise<Map<string, Namesake[]>> {
    const out = new Map<string, Namesake[]>();
    const add = (rows: (Namesake & { normalized_name: string })[]) => {
      for (const r of rows) {
        const list = out.get(r.normalized_name) ?? [];
        if (!list.some((x) => x.id === Number(r.id))) list.push({ id: Number(r.id), country_code: r.country_code, domain: r.domain });
        out.set(r.normalized_name, list);
      }
    };
    const unique = [...new Set(keys)];
    const display = selectByKeys<Namesake & { normalized_name: string }>(
      trx,
      'select id, normalized_name, country_code, domain from companies where normalized_name in (?KEYS)',
      [],
      unique,
    );
    if (display) {
      add(display);
      add(
        selectByKeys(
          trx,
          'select c.id, n.normalized_name, c.country_code, c.domain from company_names n join companies c on c.id = n.company_id where n.normalized_name in (?KEYS)',
          [],
          unique,
        )!,
      );
      return out;
    }
    for (const part of chunkKeys(unique)) {
      if (!part.length) continue;
      add(
        await trx
          .selectFrom('companies')
          .select(['id', 'normalized_name', 'country_code', 'domain'])
          .where((eb) => oneOf(this.pg, eb, 'normalized_name', part, 'text'))
          .execute(),
      );
      add(
        await trx
          .selectFrom('company_names as n')
          .innerJoin('companies as c', 'c.id', 'n.company_id')
          .select(['c.id', 'n.normalized_name', 'c.country_code', 'c.domain'])
          .where((eb) => oneOf(this.pg, eb, 'n.normalized_name', part, 'text'))
          .execute(),
      );
    }
    return out;
  }

  /**
   * The existing company a report can safely be merged into by name: the only stored company with
   * its name key, not in another country, without another id of a kind the report carries, and —
   * when the report brings domains (`onlyWithoutDomain`) — without a domain of its own.
   */
  private async pickNamesake(
    trx: Tx,
    item: PreparedCompany,
    candidates: Namesake[] | undefined,
    onlyWithoutDomain: boolean,
  ): Promise<number | undefined> {
    if (!candidates || candidates.length !== 1) return undefined;
    const only = candidates[0];
    if (onlyWithoutDomain && only.domain !== null) return undefined;
    const country = item.facts.country_code;
    if (country && only.country_code && country !== only.country_code) return undefined;
    // A stored id of the same kind with another value means another company of the same name.
    for (const x of item.externalIds) {
      const other = await trx
        .selectFrom('company_external_ids')
        .select('value')
        .where('company_id', '=', only.id)
        .where('kind', '=', x.kind)
        .where('value', '!=', x.value)
        .executeTakeFirst();
      if (other) return undefined;
    }
    return only.id;
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

    // The display name's key is matched on companies.normalized_name: only other names go here.
    const names = uniqueBy(
      listRows(
        all,
        (item) => item.names,
        (id, n) =>
          n.normalized_name === displayKeyOf.get(id)
            ? undefined
            : { company_id: id, name: n.name, normalized_name: n.normalized_name, kind: n.kind, source, seen_at: seenAt },
      ),
      (r) => `${r.company_id}|${r.normalized_name}`,
    );
    await this.markNew(trx, 'company_names', names, ['normalized_name'], existingIds, changed);
    await bulkInsert(trx, {
      table: 'company_names',
      columns: { company_id: 'int8', name: 'text', normalized_name: 'text', kind: 'text', source: 'text', seen_at: 'int8' },
      rows: names,
      onConflict: 'on conflict ("normalized_name", "company_id") do update set "seen_at" = excluded."seen_at"',
    });

    const external = uniqueBy(
      listRows(
        all,
        (item) => item.externalIds,
        (id, x) => ({ kind: x.kind, value: x.value, company_id: id, seen_at: seenAt }),
      ),
      (r) => `${r.kind}\u0000${r.value}`,
    );
    const newExternal = await bulkInsert<{ company_id: number }>(trx, {
      table: 'company_external_ids',
      columns: { kind: 'text', value: 'text', company_id: 'int8', seen_at: 'int8' },
      rows: external,
      onConflict: 'on conflict ("kind", "value") do nothing',
      returning: ['company_id'],
    });
    for (const r of newExternal) if (existingIds.has(Number(r.company_id))) changed.add(Number(r.company_id));

    const rounds = uniqueBy(
      listRows(
        all,
        (item) => item.rounds,
        (id, r) => ({ company_id: id, ...r, investors: JSON.stringify(r.investors), source, seen_at: seenAt }),
      ),
      (r) => `${r.company_id}|${r.source_ref}`,
    );
    await this.markNew(trx, 'company_funding_rounds', rounds, ['source', 'source_ref'], existingIds, changed);
    await bulkInsert(trx, {
      table: 'company_funding_rounds',
      columns: {
        company_id: 'int8',
        round: 'text',
        announced_at: 'int8',
        amount: 'float8',
        currency: 'text',
        investors: 'text',
        source: 'text',
        source_ref: 'text',
        seen_at: 'int8',
      },
      rows: rounds,
      onConflict: `on conflict ("company_id", "source", "source_ref") do update set ${excluded(['round', 'announced_at', 'amount', 'currency', 'investors', 'seen_at'])}`,
    });

    const leaders = uniqueBy(
      listRows(
        all,
        (item) => item.leaders,
        (id, l) => ({ company_id: id, ...l, source, seen_at: seenAt }),
      ),
      (r) => `${r.company_id}|${r.role}`,
    );
    await this.markNew(trx, 'company_leaders', leaders, ['role'], existingIds, changed);
    await bulkInsert(trx, {
      table: 'company_leaders',
      columns: {
        company_id: 'int8',
        role: 'text',
        first_name: 'text',
        last_name: 'text',
        designation: 'text',
        prof_url: 'text',
        social_b_url: 'text',
        source: 'text',
        seen_at: 'int8',
      },
      rows: leaders,
      onConflict: `on conflict ("company_id", "role") do update set ${excluded(['first_name', 'last_name', 'designation', 'prof_url', 'social_b_url', 'source', 'seen_at'])}`,
    });

    const competitors = uniqueBy(
      listRows(
        all,
        (item) => item.competitors,
        (id, c) => ({ company_id: id, ...c, source, seen_at: seenAt }),
      ),
      (r) => `${r.company_id}|${r.normalized_name}`,
    );
    await this.markNew(trx, 'company_competitors', competitors, ['normalized_name'], existingIds, changed);
    await bulkInsert(trx, {
      table: 'company_competitors',
      columns: {
        company_id: 'int8',
        name: 'text',
        normalized_name: 'text',
        revenue: 'text',
        employees: 'text',
        total_funding: 'text',
        headquarters: 'text',
        founded_at: 'int8',
        ownership: 'text',
        website: 'text',
        source: 'text',
        seen_at: 'int8',
      },
      rows: competitors,
      onConflict: `on conflict ("company_id", "normalized_name") do update set ${excluded(['name', 'revenue', 'employees', 'total_funding', 'headquarters', 'founded_at', 'ownership', 'website', 'source', 'seen_at'])}`,
    });

    const acquisitions = uniqueBy(
      listRows(
        all,
        (item) => item.acquisitions,
        (id, a) => ({ company_id: id, ...a, source, seen_at: seenAt }),
      ),
      (r) => `${r.company_id}|${r.normalized_name}`,
    );
    await this.markNew(trx, 'company_acquisitions', acquisitions, ['normalized_name'], existingIds, changed);
    await bulkInsert(trx, {
      table: 'company_acquisitions',
      columns: {
        company_id: 'int8',
        company_name: 'text',
        normalized_name: 'text',
        acquired_at: 'int8',
        description: 'text',
        source_url: 'text',
        source: 'text',
        seen_at: 'int8',
      },
      rows: acquisitions,
      onConflict: `on conflict ("company_id", "normalized_name") do update set ${excluded(['company_name', 'acquired_at', 'description', 'source_url', 'source', 'seen_at'])}`,
    });

    const articles = listRows(
      all,
      (item) => item.articles,
      (id, a) => ({ company_id: id, ...a }),
    );
    for (const id of await this.upsertArticles(trx, articles, source, seenAt)) if (existingIds.has(id)) changed.add(id);

    const highlights = uniqueBy(
      listRows(
        all,
        (item) => item.highlights,
        (id, h) => ({ company_id: id, ...h, source, seen_at: seenAt }),
      ),
      (r) => `${r.company_id}|${r.text}`,
    );
    await this.markNew(trx, 'company_highlights', highlights, ['text'], existingIds, changed);
    await bulkInsert(trx, {
      table: 'company_highlights',
      columns: {
        company_id: 'int8',
        type: 'text',
        text: 'text',
        publisher: 'text',
        highlighted_at: 'int8',
        src: 'text',
        source: 'text',
        seen_at: 'int8',
      },
      rows: highlights,
      onConflict: `on conflict ("company_id", "text") do update set ${excluded(['type', 'publisher', 'highlighted_at', 'src', 'source', 'seen_at'])}`,
    });
    return changed;
  }

  /** Adds to `changed` the existing companies for which one of `rows` has a key not stored yet. */
  private async markNew(
    trx: Tx,
    table:
      | 'company_names'
      | 'company_funding_rounds'
      | 'company_leaders'
      | 'company_competitors'
      | 'company_acquisitions'
      | 'company_highlights',
    rows: { company_id: number }[],
    keyColumns: string[],
    existingIds: Set<number>,
    changed: Set<number>,
  ): Promise<void> {
    const relevant = rows.filter((r) => existingIds.has(r.company_id) && !changed.has(r.company_id));
    if (!relevant.length) return;
    const ids = [...new Set(relevant.map((r) => r.company_id))];
    const stored = new Set<string>();
    const probed = selectByKeys<Record<string, unknown>>(
      trx,
      `select company_id, ${keyColumns.map((k) => `"${k}"`).join(', ')} from ${table} where company_id in (?KEYS)`,
      [],
      ids,
    );
    for (const f of probed ?? []) stored.add([Number(f.company_id), ...keyColumns.map((k) => f[k])].join('\u0000'));
    for (const part of probed ? [] : chunkKeys(ids)) {
      const found = await (trx as Db)
        .selectFrom(table as 'company_names')
        .select(['company_id', ...(keyColumns as 'normalized_name'[])])
        .where((eb) => oneOf(this.pg, eb, 'company_id', part, 'int8'))
        .execute();
      for (const f of found) stored.add([Number(f.company_id), ...keyColumns.map((k) => (f as any)[k])].join('\u0000'));
    }
    for (const r of relevant) {
      if (!stored.has([r.company_id, ...keyColumns.map((k) => (r as any)[k])].join('\u0000'))) changed.add(r.company_id);
    }
  }

  /** Upserts news and press releases; returns the company ids that got an item they did not have. */
  async upsertArticles(
    trx: Tx,
    articles: {
      company_id: number;
      kind: string;
      title: string;
      publisher: string | null;
      published_at: number | null;
      url: string | null;
      item_key: string;
    }[],
    source: string,
    seenAt: number,
  ): Promise<Set<number>> {
    const rows = uniqueBy(
      articles.map((a) => ({ ...a, source, seen_at: seenAt })),
      (r) => `${r.company_id}|${r.kind}|${r.item_key}`,
    );
    const got = new Set<number>();
    if (!rows.length) return got;
    const before = new Set<string>();
    for (const ids of chunkKeys([...new Set(rows.map((r) => r.company_id))])) {
      const found = await trx
        .selectFrom('company_articles')
        .select(['company_id', 'kind', 'item_key'])
        .where((eb) => oneOf(this.pg, eb, 'company_id', ids, 'int8'))
        .execute();
      for (const f of found) before.add(`${Number(f.company_id)}|${f.kind}|${f.item_key}`);
    }
    for (const r of rows) if (!before.has(`${r.company_id}|${r.kind}|${r.item_key}`)) got.add(r.company_id);
    await bulkInsert(trx, {
      table: 'company_articles',
      columns: {
        company_id: 'int8',
        kind: 'text',
        title: 'text',
        publisher: 'text',
        published_at: 'int8',
        url: 'text',
        item_key: 'text',
        source: 'text',
        seen_at: 'int8',
      },
      rows,
      onConflict: `on conflict ("company_id", "kind", "item_key") do update set ${excluded(['title', 'publisher', 'published_at', 'url', 'seen_at'])}`,
    });
    return got;
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

/** The field_sources of a stored row, before anything in the row changes (see ALL_SET_FACTS). */
function parseSources(row: CompanyRow): FieldSources {
  let v: Record<string, { seen_at: number; fields: string[] | typeof ALL_SET_FACTS }>;
  try {
    v = JSON.parse(row.field_sources);
  } catch {
    return {};
  }
  if (!v || typeof v !== 'object') return {};
  for (const entry of Object.values(v)) {
    if (entry?.fields === ALL_SET_FACTS) entry.fields = FACT_COLUMNS.filter((c) => !(c in FOLLOWERS) && row[c] !== null);
  }
  return v as FieldSources;
}

/**
 * Folds one report's facts into a stored row: a fact changes when the stored value is missing, or
 * when the reporting source ranks at least as high as the one that set it (later imports win among
 * equals). The primary domain is never replaced here (other domains become secondary).
 */
function mergeFacts(
  row: CompanyRow,
  sources: FieldSources,
  changes: Partial<Omit<CompanyTable, 'id'>>,
  facts: CompanyFacts,
  source: string,
  rank: number,
): void {
  const owner = new Map<string, string>();
  for (const [s, v] of Object.entries(sources)) for (const f of v.fields) owner.set(f, s);
  const own = (field: string) => {
    const previous = owner.get(field);
    if (previous === source) return;
    if (previous) sources[previous].fields = sources[previous].fields.filter((f) => f !== field);
    (sources[source] ??= { seen_at: 0, fields: [] }).fields.push(field);
    owner.set(field, source);
  };
  for (const [field, value] of Object.entries(facts) as [keyof CompanyFacts, unknown][]) {
    if (field === 'domain' || field in FOLLOWERS || value === undefined || value === null) continue;
    const current = (row as any)[field];
    const previous = owner.get(field);
    const allowed = current === null || previous === undefined || rank >= sourceRank(previous);
    if (!allowed) continue;
    if (current !== value) {
      (changes as any)[field] = value;
      (row as any)[field] = value;
      for (const [follower, leader] of Object.entries(FOLLOWERS)) {
        if (leader === field && facts[follower as keyof CompanyFacts] !== undefined) {
          (changes as any)[follower] = facts[follower as keyof CompanyFacts];
          (row as any)[follower] = facts[follower as keyof CompanyFacts];
        }
      }
    }
    own(field);
  }
}
