// Multi-row inserts for imports, compiled by hand: building a 2,000-row insert through the query
// builder costs more than running it. SQLite gets one VALUES list per chunk; PostgreSQL gets
// one parameter per column (arrays unnested on the server), which parses and plans in constant time.
import { CompiledQuery, type Kysely } from 'kysely';
import { dialectOf } from '../db/database.ts';

/** PostgreSQL array element type of each column. */
export type PgType = 'text' | 'int8' | 'int4' | 'float8';

export interface BulkInsert {
  table: string;
  columns: Record<string, PgType>;
  rows: Record<string, unknown>[];
  /** SQL after the VALUES, for example `on conflict (domain) do nothing` (use `excluded.col`). */
  onConflict?: string;
  returning?: string[];
}

/** Largest number of bound parameters per SQLite statement (its limit is 32766). */
const SQLITE_MAX_PARAMS = 32000;
/** Rows per PostgreSQL statement (each column is one array parameter, so only size matters). */
const PG_ROWS = 5000;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function bulkInsert<R = Record<string, unknown>>(db: Kysely<any>, spec: BulkInsert): Promise<R[]> {
  if (spec.rows.length === 0) return [];
  const names = Object.keys(spec.columns);
  const columnList = names.map(quote).join(', ');
  const tail = `${spec.onConflict ? ` ${spec.onConflict}` : ''}${spec.returning?.length ? ` returning ${spec.returning.map(quote).join(', ')}` : ''}`;
  const out: R[] = [];
  if (dialectOf(db) === 'postgres') {
    const unnest = names.map((n, i) => `$${i + 1}::${spec.columns[n]}[]`).join(', ');
    const text = `insert into ${quote(spec.table)} (${columnList}) select * from unnest(${unnest})${tail}`;
    for (let start = 0; start < spec.rows.length; start += PG_ROWS) {
      const part = spec.rows.slice(start, start + PG_ROWS);
      const params = names.map((n) => part.map((r) => (r[n] === undefined ? null : r[n])));
      const result = await db.executeQuery<R>(CompiledQuery.raw(text, params));
      out.push(...result.rows);
    }
    return out;
  }
  const perChunk = Math.max(1, Math.floor(SQLITE_MAX_PARAMS / names.length));
  const tuple = `(${names.map(() => '?').join(', ')})`;
  for (let start = 0; start < spec.rows.length; start += perChunk) {
    const part = spec.rows.slice(start, start + perChunk);
    const text = `insert into ${quote(spec.table)} (${columnList}) values ${new Array(part.length).fill(tuple).join(', ')}${tail}`;
    const params: unknown[] = [];
    for (const r of part) for (const n of names) params.push(r[n] === undefined ? null : r[n]);
    const result = await db.executeQuery<R>(CompiledQuery.raw(text, params));
    out.push(...result.rows);
  }
  return out;
}
