// Bulk writes with a small, fixed set of statement shapes. Imports write tens of rows per listing;
// building each multi-row INSERT through the query builder, and preparing a new statement for every
// batch size, cost more than the writes themselves. Inside a SQLite transaction each row runs one
// prepared single-row statement on the connection (synchronous, nothing to parse or bind in bulk);
// otherwise rows are sent in chunks of fixed sizes (256, 64, 16, 4, 1), so each table has at most
// five statement texts, compiled once and kept by the connection's prepared-statement cache.
import { CompiledQuery, type Kysely } from 'kysely';
import { dialectOf, sqliteConnectionOf, type DialectName } from '../db/database.ts';

const SIZES = [256, 64, 16, 4, 1];
const texts = new Map<string, string>();

function statementText(dialect: DialectName, head: string, width: number, rows: number, tail: string, tuple: string | undefined): string {
  const key = `${dialect}\u0000${head}\u0000${width}\u0000${rows}\u0000${tail}\u0000${tuple ?? ''}`;
  let text = texts.get(key);
  if (!text) {
    const template = tuple ?? `(${Array.from({ length: width }, () => '?').join(', ')})`;
    let n = 0;
    const one = () => (dialect === 'postgres' ? template.replace(/\?/g, () => `$${++n}`) : template);
    text = `${head} values ${Array.from({ length: rows }, one).join(', ')}${tail ? ` ${tail}` : ''}`;
    texts.set(key, text);
  }
  return text;
}

/**
 * INSERT of many rows: `head` is "insert into t (a, b)", `tail` an optional ON CONFLICT / RETURNING
 * clause, `tuple` an optional row template with one `?` per value ("(?, lower(?))"). Returns the
 * rows a RETURNING clause produced, in chunk order.
 */
export async function insertMany<R = unknown>(
  db: Kysely<any>,
  dialect: DialectName,
  head: string,
  rows: unknown[][],
  tail = '',
  tuple?: string,
): Promise<R[]> {
  const out: R[] = [];
  if (!rows.length) return out;
  const width = rows[0].length;
  // Inside a SQLite transaction, one prepared single-row statement per row on the connection:
  // binding a 256-row statement costs more than running 256 small ones.
  const connection = dialect === 'sqlite' && db.isTransaction && !/\breturning\b/i.test(tail) ? sqliteConnectionOf(db) : undefined;
  if (connection) {
    const statement = connection.prepare(statementText(dialect, head, width, 1, tail, tuple));
    for (const row of rows) statement.run(...row);
    return out;
  }
  let i = 0;
  while (i < rows.length) {
    const left = rows.length - i;
    const size = SIZES.find((s) => s <= left)!;
    const params: unknown[] = [];
    for (let r = i; r < i + size; r++) for (const v of rows[r]) params.push(v);
    const result = await db.executeQuery<R>(CompiledQuery.raw(statementText(dialect, head, width, size, tail, tuple), params));
    out.push(...result.rows);
    i += size;
  }
  return out;
}

/**
 * Runs a fixed statement text with parameters (no query building). `?` placeholders are numbered
 * for PostgreSQL, so one text serves both dialects ($n placeholders pass through unchanged).
 */
export async function run<R = unknown>(db: Kysely<any>, text: string, params: unknown[] = []): Promise<R[]> {
  let n = 0;
  const compiled = dialectOf(db) === 'postgres' ? text.replace(/\?/g, () => `$${++n}`) : text;
  return (await db.executeQuery<R>(CompiledQuery.raw(compiled, params))).rows;
}

/** A list parameter: `in (select value from json_each(?))` on SQLite, `= any(?)` on PostgreSQL. */
export function listMatch(dialect: DialectName, column: string, placeholder: string, pgType: 'text' | 'bigint'): string {
  return dialect === 'postgres'
    ? `${column} = any(${placeholder}::${pgType}[])`
    : `${column} in (select value from json_each(${placeholder}))`;
}

export function listParam(dialect: DialectName, values: (string | number)[]): unknown {
  return dialect === 'postgres' ? values : JSON.stringify(values);
}
