// A company's list facts (other names, external ids, funding rounds, leaders, competitors,
// acquisitions, articles, highlights): one descriptor per child table, and one writer for all of
// them. A new list fact is a row descriptor here, not another copy of the writer.
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import { bulkInsert, selectByKeys, type PgType } from '../db/bulk.ts';
import { chunk } from '../db/chunks.ts';
import type { PreparedCompany } from './input.ts';

type ChildTableName =
  | 'company_names'
  | 'company_external_ids'
  | 'company_funding_rounds'
  | 'company_leaders'
  | 'company_competitors'
  | 'company_acquisitions'
  | 'company_relations'
  | 'company_articles'
  | 'company_highlights';

/** A row of a child table: its company and its columns. */
export type ChildRow = { company_id: number } & Record<string, unknown>;

/** What every row of one batch shares. */
export interface ChildContext {
  source: string;
  seenAt: number;
  /** The key of each company's display name, matched on companies.normalized_name (not a child row). */
  displayKeyOf: Map<number, string>;
}

export interface ChildTable {
  table: ChildTableName;
  /** Every column written, with its PostgreSQL array type (see bulkInsert). */
  columns: Record<string, PgType>;
  /** The rows one report gives a company (none to skip). */
  rows(item: PreparedCompany, companyId: number, context: ChildContext): ChildRow[];
  /** Columns that tell two rows of one company apart (with company_id, a unique key of the table). */
  key: readonly string[];
  /** The table's conflict target, as its unique index names it. */
  conflict: readonly string[];
  /** Columns a later report replaces in a stored row (empty: the stored row is kept as it is). */
  update: readonly string[];
  /**
   * The key names a thing across companies (an external id belongs to one company): rows are told
   * apart by `key` alone, and a stored row is never taken over by another company.
   */
  global?: boolean;
}

const stamped = (companyId: number, context: ChildContext) => ({ company_id: companyId, source: context.source, seen_at: context.seenAt });

/** The child tables, in the order they are written. */
export const CHILD_TABLES: readonly ChildTable[] = [
  {
    table: 'company_names',
    columns: { company_id: 'int8', name: 'text', normalized_name: 'text', kind: 'text', source: 'text', seen_at: 'int8' },
    rows: (item, id, context) =>
      item.names
        .filter((n) => n.normalized_name !== context.displayKeyOf.get(id))
        .map((n) => ({ ...stamped(id, context), name: n.name, normalized_name: n.normalized_name, kind: n.kind })),
    key: ['normalized_name'],
    conflict: ['normalized_name', 'company_id'],
    update: ['seen_at'],
  },
  {
    table: 'company_external_ids',
    columns: { kind: 'text', value: 'text', company_id: 'int8', seen_at: 'int8' },
    rows: (item, id, context) => item.externalIds.map((x) => ({ kind: x.kind, value: x.value, company_id: id, seen_at: context.seenAt })),
    key: ['kind', 'value'],
    conflict: ['kind', 'value'],
    update: [],
    global: true,
  },
  {
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
    rows: (item, id, context) => item.rounds.map((r) => ({ ...r, ...stamped(id, context), investors: JSON.stringify(r.investors) })),
    key: ['source', 'source_ref'],
    conflict: ['company_id', 'source', 'source_ref'],
    update: ['round', 'announced_at', 'amount', 'currency', 'investors', 'seen_at'],
  },
  {
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
    rows: (item, id, context) => item.leaders.map((l) => ({ ...l, ...stamped(id, context) })),
    key: ['role'],
    conflict: ['company_id', 'role'],
    update: ['first_name', 'last_name', 'designation', 'prof_url', 'social_b_url', 'source', 'seen_at'],
  },
  {
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
    rows: (item, id, context) => item.competitors.map((c) => ({ ...c, ...stamped(id, context) })),
    key: ['normalized_name'],
    conflict: ['company_id', 'normalized_name'],
    update: ['name', 'revenue', 'employees', 'total_funding', 'headquarters', 'founded_at', 'ownership', 'website', 'source', 'seen_at'],
  },
  {
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
    rows: (item, id, context) => item.acquisitions.map((a) => ({ ...a, ...stamped(id, context) })),
    key: ['normalized_name'],
    conflict: ['company_id', 'normalized_name'],
    update: ['company_name', 'acquired_at', 'description', 'source_url', 'source', 'seen_at'],
  },
  {
    table: 'company_relations',
    columns: {
      company_id: 'int8',
      relation: 'text',
      company_name: 'text',
      normalized_name: 'text',
      wikidata_id: 'text',
      since: 'int8',
      source: 'text',
      seen_at: 'int8',
    },
    rows: (item, id, context) => item.relations.map((r) => ({ ...r, ...stamped(id, context) })),
    key: ['relation', 'normalized_name'],
    conflict: ['company_id', 'relation', 'normalized_name'],
    update: ['company_name', 'wikidata_id', 'since', 'source', 'seen_at'],
  },
  {
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
    rows: (item, id, context) => item.articles.map((a) => ({ ...a, ...stamped(id, context) })),
    key: ['kind', 'item_key'],
    conflict: ['company_id', 'kind', 'item_key'],
    update: ['title', 'publisher', 'published_at', 'url', 'seen_at'],
  },
  {
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
    rows: (item, id, context) => item.highlights.map((h) => ({ ...h, ...stamped(id, context) })),
    key: ['text'],
    conflict: ['company_id', 'text'],
    update: ['type', 'publisher', 'highlighted_at', 'src', 'source', 'seen_at'],
  },
];

export const ARTICLES = CHILD_TABLES.find((t) => t.table === 'company_articles')!;

/** Keys per `in (…)` list when the list is bound one parameter per key. */
const KEYS_PER_STATEMENT = 30_000;

/**
 * `column` is one of `keys`: on PostgreSQL one array parameter (`= any($1)`: parsed and planned the
 * same whatever the count), on SQLite a list of parameters (chunked by the caller).
 */
export const oneOf = (pg: boolean, eb: ExpressionBuilder<any, any>, column: string, keys: (string | number)[], pgType: 'text' | 'int8') =>
  pg ? eb(column, '=', sql`any(${keys}::${sql.raw(pgType)}[])`) : eb(column, 'in', keys);

/** Lists of ids or keys for `in (…)`, one bound parameter each. */
export const chunkKeys = <T>(keys: T[]): T[][] => chunk(keys, KEYS_PER_STATEMENT);

const quote = (column: string) => `"${column}"`;

/** One row per key of the table (the last one given wins): a statement may not touch a row twice. */
export function uniqueRows(table: ChildTable, rows: ChildRow[]): ChildRow[] {
  const byKey = new Map<string, ChildRow>();
  // Keys built without a list and a join per row (most tables have one or two key columns).
  const [first, second, ...more] = table.key;
  for (const row of rows) {
    let key = String(row[first]);
    if (second !== undefined) key += `\u0000${String(row[second])}`;
    for (const k of more) key += `\u0000${String(row[k])}`;
    byKey.set(table.global ? key : `${row.company_id}\u0000${key}`, row);
  }
  // Most batches repeat no key: the rows as they are.
  return byKey.size === rows.length ? rows : [...byKey.values()];
}

/** The list each table's rows come from (a report without any gives no rows, without a call). */
const LIST_OF: Record<ChildTableName, (item: PreparedCompany) => unknown[]> = {
  company_names: (item) => item.names,
  company_external_ids: (item) => item.externalIds,
  company_funding_rounds: (item) => item.rounds,
  company_leaders: (item) => item.leaders,
  company_competitors: (item) => item.competitors,
  company_acquisitions: (item) => item.acquisitions,
  company_relations: (item) => item.relations,
  company_articles: (item) => item.articles,
  company_highlights: (item) => item.highlights,
};

/** The rows of one table for every report of the batch. */
function rowsOf(table: ChildTable, all: { id: number; item: PreparedCompany }[], context: ChildContext): ChildRow[] {
  const out: ChildRow[] = [];
  const list = LIST_OF[table.table];
  for (const { id, item } of all) {
    if (list(item).length === 0) continue;
    for (const row of table.rows(item, id, context)) out.push(row);
  }
  return out;
}

/**
 * Writes the rows of one child table; adds to `changed` every company of `existingIds` that got a
 * row it did not have.
 */
export async function writeChildRows(
  trx: Db,
  pg: boolean,
  table: ChildTable,
  rows: ChildRow[],
  existingIds: Set<number>,
  changed: Set<number>,
): Promise<void> {
  if (!rows.length) return;
  const conflict = `on conflict (${table.conflict.map(quote).join(', ')})`;
  if (table.global) {
    // A stored key stays with its company: the rows that went in are the new ones.
    const inserted = await bulkInsert<{ company_id: number }>(trx, {
      table: table.table,
      columns: table.columns,
      rows,
      onConflict: `${conflict} do nothing`,
      returning: ['company_id'],
    });
    for (const r of inserted) if (existingIds.has(Number(r.company_id))) changed.add(Number(r.company_id));
    return;
  }
  await markNew(trx, pg, table, rows, existingIds, changed);
  await bulkInsert(trx, {
    table: table.table,
    columns: table.columns,
    rows,
    onConflict: table.update.length
      ? `${conflict} do update set ${table.update.map((c) => `${quote(c)} = excluded.${quote(c)}`).join(', ')}`
      : `${conflict} do nothing`,
  });
}

/** Writes every child table for a batch of reports grouped by company. */
export async function writeChildTables(
  trx: Db,
  pg: boolean,
  all: { id: number; item: PreparedCompany }[],
  context: ChildContext,
  existingIds: Set<number>,
  changed: Set<number>,
): Promise<void> {
  for (const table of CHILD_TABLES)
    await writeChildRows(trx, pg, table, uniqueRows(table, rowsOf(table, all, context)), existingIds, changed);
}

/** Adds to `changed` the existing companies for which one of `rows` has a key not stored yet. */
async function markNew(trx: Db, pg: boolean, table: ChildTable, rows: ChildRow[], existingIds: Set<number>, changed: Set<number>) {
  const relevant = rows.filter((r) => existingIds.has(r.company_id) && !changed.has(r.company_id));
  if (!relevant.length) return;
  const ids = [...new Set(relevant.map((r) => r.company_id))];
  const identity = (companyId: number, row: Record<string, unknown>) => [companyId, ...table.key.map((k) => row[k])].join('\u0000');
  const stored = new Set<string>();
  const probed = selectByKeys<Record<string, unknown>>(
    trx,
    `select company_id, ${table.key.map(quote).join(', ')} from ${table.table} where company_id in (?KEYS)`,
    [],
    ids,
  );
  for (const f of probed ?? []) stored.add(identity(Number(f.company_id), f));
  for (const part of probed ? [] : chunkKeys(ids)) {
    const found = await trx
      .selectFrom(table.table as 'company_names')
      .select(['company_id', ...(table.key as 'normalized_name'[])])
      .where((eb) => oneOf(pg, eb, 'company_id', part, 'int8'))
      .execute();
    for (const f of found) stored.add(identity(Number(f.company_id), f));
  }
  for (const r of relevant) if (!stored.has(identity(r.company_id, r))) changed.add(r.company_id);
}
