// `inputMapping` (docs/bulk.md, "Input mapping"): which of the client's columns (CSV header names,
// or a JSON row's keys) fills which request field, when they are not named as the product's fields.
// LeadMagic's clients send it without saying its direction, so both are read, unambiguously:
// `{"<column>": "<field>"}` when every value is a field the product takes, else
// `{"<field>": "<column>"}` when every key is. Anything else names fields the product does not take
// and is refused, naming them.
import { BulkInputError } from './errors.ts';

/** One column read as one request field. */
export interface ColumnMapping {
  column: string;
  field: string;
}

const FIELD = '/inputMapping';

/**
 * The mapping as column → field pairs. `fields` are the names the product's rows take (its request
 * fields and the other names its single call accepts); `columns` are the file's or the rows' own.
 */
export function readInputMapping(mapping: Record<string, string>, fields: readonly string[], columns: readonly string[]): ColumnMapping[] {
  const entries = Object.entries(mapping);
  const isField = (name: string) => fields.includes(name);
  let pairs: ColumnMapping[];
  if (entries.every(([, value]) => isField(value))) pairs = entries.map(([column, field]) => ({ column, field }));
  else if (entries.every(([key]) => isField(key))) pairs = entries.map(([field, column]) => ({ column, field }));
  else {
    const unknown = entries.filter(([, value]) => !isField(value)).map(([, value]) => value);
    throw new BulkInputError(
      `inputMapping names fields this product does not take: ${unknown.join(', ')} (it takes ${fields.join(', ')}; ` +
        'send {"<your column>": "<field>"}).',
      FIELD,
    );
  }
  const twice = pairs.map((p) => p.field).filter((field, i, all) => all.indexOf(field) !== i);
  if (twice.length)
    throw new BulkInputError(
      `inputMapping fills ${[...new Set(twice)].join(', ')} from more than one column: name one column each.`,
      FIELD,
    );
  const missing = pairs.map((p) => p.column).filter((column) => !columns.includes(column));
  if (missing.length)
    throw new BulkInputError(
      `inputMapping names columns the list does not have: ${missing.join(', ')} (its columns: ${columns.join(', ') || 'none'}).`,
      FIELD,
    );
  return pairs;
}

/**
 * The rows with the mapping applied: each mapped field takes its column's value (and only that
 * column's: a column already named like a mapped field is left out); other columns stay as they
 * are. A row that is not an object is left as it is (it is refused when read).
 */
export function mapRows(rows: readonly unknown[], mapping: readonly ColumnMapping[]): unknown[] {
  if (!mapping.length) return [...rows];
  const mappedColumns = new Set(mapping.map((m) => m.column));
  const mappedFields = new Set(mapping.map((m) => m.field));
  return rows.map((row) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return row;
    const given = row as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(given)) if (!mappedColumns.has(key) && !mappedFields.has(key)) out[key] = value;
    for (const { column, field } of mapping) if (column in given) out[field] = given[column];
    return out;
  });
}

/** The columns of JSON rows: every key of an object row, in the order first seen. */
export function columnsOfRows(rows: readonly unknown[]): string[] {
  const columns = new Set<string>();
  for (const row of rows)
    if (typeof row === 'object' && row !== null && !Array.isArray(row)) for (const key of Object.keys(row)) columns.add(key);
  return [...columns];
}

/** The columns no request field is read from: neither mapped nor named as a field the product takes. */
export function unusedColumns(columns: readonly string[], mapping: readonly ColumnMapping[], fields: readonly string[]): string[] {
  const mappedFields = new Set(mapping.map((m) => m.field));
  return columns.filter((column) => !mapping.some((m) => m.column === column) && (!fields.includes(column) || mappedFields.has(column)));
}
