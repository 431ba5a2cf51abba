// Many-row inserts for imports, compiled by hand: building a 2,000-row insert through the query
// builder costs more than running it. Inside a SQLite transaction, one prepared single-row
// statement runs per row on the connection itself (synchronous, no statement text to parse per
// batch); PostgreSQL gets one parameter per column (arrays unnested on the server), which parses
// and plans in constant time.
import { CompiledQuery, type Kysely } from 'kysely';
import { dialectOf, sqliteConnectionOf } from './database.ts';
import { chunkForParameters } from './chunks.ts';

/** PostgreSQL array element type of each column. */
export type PgType = 'text' | 'int8' | 'int4' | 'float8';

export interface BulkInsert {
  table: string;
  columns: Record<string, PgType>;
  /** Rows as objects keyed by column… */
  rows?: Record<string, unknown>[];
  /** …or as arrays in the order of `columns` (no property lookups by name per row: hot callers). */
  values?: unknown[][];
  /** SQL after the VALUES, for example `on conflict (domain) do nothing` (use `excluded.col`). */
  onConflict?: string;
  returning?: string[];
}

/** Rows per PostgreSQL statement (each column is one array parameter, so only size matters). */
const PG_ROWS = 5000;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Rows as arrays in column order, undefined as null. */
function valuesOf(spec: BulkInsert, names: string[]): unknown[][] {
  if (spec.values) return spec.values;
  const rows = spec.rows ?? [];
  const out = new Array<unknown[]>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const values = new Array<unknown>(names.length);
    for (let i = 0; i < names.length; i++) values[i] = row[names[i]] ?? null;
    out[r] = values;
  }
  return out;
}

export async function bulkInsert<R = Record<string, unknown>>(db: Kysely<any>, spec: BulkInsert): Promise<R[]> {
  const names = Object.keys(spec.columns);
  const rows = valuesOf(spec, names);
  if (rows.length === 0) return [];
  const columnList = names.map(quote).join(', ');
  const tail = `${spec.onConflict ? ` ${spec.onConflict}` : ''}${spec.returning?.length ? ` returning ${spec.returning.map(quote).join(', ')}` : ''}`;
  const out: R[] = [];
  if (dialectOf(db) === 'postgres') {
    for (let start = 0; start < rows.length; start += PG_ROWS) {
      const part = rows.slice(start, start + PG_ROWS);
      // A column that is null in every row is left out (null all the same: none of the nullable
      // columns written here has a default): unpacking the arrays is most of the server's work.
      const nonNull = names.map((_, i) => i).filter((i) => part.some((r) => r[i] !== null && r[i] !== undefined));
      const present = nonNull.length ? nonNull : names.map((_, i) => i);
      const unnest = present.map((c, i) => `$${i + 1}::${spec.columns[names[c]]}[]`).join(', ');
      const text = `insert into ${quote(spec.table)} (${present.map((c) => quote(names[c])).join(', ')}) select * from unnest(${unnest})${tail}`;
      const params = present.map((c) => arrayLiteral(part, c));
      const result = await db.executeQuery<R>(CompiledQuery.raw(text, params));
      out.push(...result.rows);
    }
    return out;
  }
  const connection = db.isTransaction ? sqliteConnectionOf(db) : undefined;
  if (connection) {
    // A row inserted or skipped is known from the statement's change count: what RETURNING would
    // give is then the row itself (plus its rowid `id`), without SQLite building a result row.
    const fromInput =
      !!spec.returning?.length &&
      (!spec.onConflict || /do nothing$/i.test(spec.onConflict)) &&
      spec.returning.every((c) => c === 'id' || c in spec.columns);
    const returnedIndexes = (spec.returning ?? []).map((c) => names.indexOf(c));
    const insert = `insert into ${quote(spec.table)} (${columnList}) values (${names.map(() => '?').join(', ')})`;
    const statement = connection.prepare(fromInput ? `${insert}${spec.onConflict ? ` ${spec.onConflict}` : ''}` : `${insert}${tail}`);
    for (const values of rows) {
      // Spread arguments bind faster than one array argument in better-sqlite3.
      if (!spec.returning?.length) statement.run(...values);
      else if (fromInput) {
        const result = statement.run(...values);
        if (result.changes === 1) {
          const row: Record<string, unknown> = {};
          spec.returning.forEach(
            (c, i) => (row[c] = returnedIndexes[i] >= 0 ? (values[returnedIndexes[i]] ?? null) : Number(result.lastInsertRowid)),
          );
          out.push(row as R);
        }
      } else {
        const row = statement.get(...values) as R | undefined;
        if (row) out.push(row);
      }
    }
    return out;
  }
  const tuple = `(${names.map(() => '?').join(', ')})`;
  for (const part of chunkForParameters(rows, names.length)) {
    const text = `insert into ${quote(spec.table)} (${columnList}) values ${new Array(part.length).fill(tuple).join(', ')}${tail}`;
    const params: unknown[] = [];
    for (const values of part) for (const v of values) params.push(v === undefined ? null : v);
    const result = await db.executeQuery<R>(CompiledQuery.raw(text, params));
    out.push(...result.rows);
  }
  return out;
}

/** Keys per run of a selectByKeys statement. */
const KEYS_PER_PROBE = 500;

/**
 * Rows of `text` for many keys, on SQLite inside a transaction (undefined elsewhere: the caller
 * builds the query then). `text` has one `(?KEYS)` where the list of keys goes, and its other
 * parameters are `fixed`, which come first. One statement of KEYS_PER_PROBE places is prepared once
 * and run per chunk, the unused places null (matches nothing): a list as long as the batch made a new
 * statement text per batch, compiled each time with thousands of parameters.
 */
export function selectByKeys<R>(db: Kysely<any>, text: string, fixed: unknown[], keys: unknown[]): R[] | undefined {
  const connection = db.isTransaction ? sqliteConnectionOf(db) : undefined;
  if (!connection) return undefined;
  const statement = connection.prepare(text.replace('(?KEYS)', `(${new Array(KEYS_PER_PROBE).fill('?').join(', ')})`));
  const params = new Array<unknown>(fixed.length + KEYS_PER_PROBE);
  for (let i = 0; i < fixed.length; i++) params[i] = fixed[i];
  const out: R[] = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_PROBE) {
    for (let i = 0; i < KEYS_PER_PROBE; i++) params[fixed.length + i] = start + i < keys.length ? keys[start + i] : null;
    for (const row of statement.all(...params) as R[]) out.push(row);
  }
  return out;
}

export interface BulkUpdate {
  table: string;
  /** Column identifying the row (the same in every row), with its PostgreSQL type. */
  key: [string, PgType];
  /** Columns to set: every row of one call sets the same ones. */
  columns: Record<string, PgType>;
  rows: Record<string, unknown>[];
}

/** Updates many rows by key: one prepared statement per row on SQLite, one statement per 5,000 rows on PostgreSQL. */
export async function bulkUpdate(db: Kysely<any>, spec: BulkUpdate): Promise<void> {
  if (spec.rows.length === 0) return;
  const [key, keyType] = spec.key;
  const names = Object.keys(spec.columns);
  if (dialectOf(db) === 'postgres') {
    const unnest = [keyType, ...names.map((n) => spec.columns[n])].map((t, i) => `$${i + 1}::${t}[]`).join(', ');
    const text =
      `update ${quote(spec.table)} set ${names.map((n) => `${quote(n)} = v.${quote(n)}`).join(', ')} ` +
      `from unnest(${unnest}) as v(${[key, ...names].map(quote).join(', ')}) where ${quote(spec.table)}.${quote(key)} = v.${quote(key)}`;
    for (let start = 0; start < spec.rows.length; start += PG_ROWS) {
      const part = spec.rows.slice(start, start + PG_ROWS);
      await db.executeQuery(
        CompiledQuery.raw(
          text,
          [key, ...names].map((n) => arrayLiteral(part, n)),
        ),
      );
    }
    return;
  }
  const text = `update ${quote(spec.table)} set ${names.map((n) => `${quote(n)} = ?`).join(', ')} where ${quote(key)} = ?`;
  const connection = db.isTransaction ? sqliteConnectionOf(db) : undefined;
  const statement = connection?.prepare(text);
  for (const r of spec.rows) {
    const params = [...names.map((n) => r[n] ?? null), r[key]];
    if (statement) statement.run(...params);
    else await db.executeQuery(CompiledQuery.raw(text, params));
  }
}

/**
 * A PostgreSQL array literal (`{"a","b",NULL}`) of one column (a property name of object rows, an
 * index of array rows), built in one join: pg's own array serializer concatenates element by
 * element, which made garbage collection the largest client cost of a PostgreSQL import.
 */
function arrayLiteral(rows: Record<string, unknown>[] | unknown[][], column: string | number): string {
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const v = (rows[i] as Record<string | number, unknown>)[column];
    if (v === null || v === undefined) parts[i] = 'NULL';
    else if (typeof v === 'number' || typeof v === 'bigint') parts[i] = String(v);
    else {
      const text = String(v);
      parts[i] = NEEDS_ESCAPE.test(text) ? `"${text.replace(ESCAPED, '\\$&')}"` : `"${text}"`;
    }
  }
  return `{${parts.join(',')}}`;
}
const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;
