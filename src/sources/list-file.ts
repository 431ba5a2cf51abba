// A list of sources to register (`leadbase sources import FILE`, POST /admin/sources with many): CSV
// with a header naming the fields, or JSON lines of objects with the same fields. A line that cannot
// be read is refused with its reason; a file that is neither is refused whole.
import { parse } from 'csv-parse/sync';
import type { SourceInput } from './registry.ts';

/** The fields of a source in a list, as in the admin API. */
const FIELDS = ['type', 'locator', 'base_url', 'company_name', 'company_website', 'every'] as const;

export type ListEntry = { line: number; input: SourceInput } | { line: number; error: string };

export class SourceListError extends Error {}

export function readSourceList(text: string): ListEntry[] {
  const body = text.replace(/^\uFEFF/, '');
  const first = body.trimStart()[0];
  if (first === undefined) throw new SourceListError('the file is empty: no sources to add');
  return first === '{' ? readJsonLines(body) : readCsv(body);
}

function readJsonLines(body: string): ListEntry[] {
  const entries: ListEntry[] = [];
  body.split(/\r?\n/).forEach((text, index) => {
    if (!text.trim()) return;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      entries.push({ line, error: `not JSON (${(error as Error).message})` });
      return;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      entries.push({ line, error: 'not a JSON object' });
      return;
    }
    const record = value as Record<string, unknown>;
    const unknown = Object.keys(record).filter((k) => !(FIELDS as readonly string[]).includes(k));
    if (unknown.length) {
      entries.push({ line, error: `unknown field ${unknown.join(', ')} (fields: ${FIELDS.join(', ')})` });
      return;
    }
    const wrong = FIELDS.find(
      (f) => record[f] != null && typeof record[f] !== 'string' && !(f === 'every' && typeof record[f] === 'number'),
    );
    if (wrong) {
      entries.push({ line, error: `${wrong} must be text` });
      return;
    }
    entries.push({ line, input: record as unknown as SourceInput });
  });
  return entries;
}

function readCsv(body: string): ListEntry[] {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(body, { bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as typeof rows;
  } catch (error) {
    throw new SourceListError(`not CSV or JSON lines: ${(error as Error).message}`);
  }
  const header = rows[0].record.map((h) =>
    h
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_'),
  );
  const unknown = header.filter((h) => !(FIELDS as readonly string[]).includes(h));
  if (!header.includes('type') || unknown.length)
    throw new SourceListError(
      `the CSV header must name the fields (type, and any of ${FIELDS.slice(1).join(', ')})${unknown.length ? `; not fields: ${unknown.join(', ')}` : ''}`,
    );
  return rows.slice(1).map(({ record: row, info }) => {
    const record: Record<string, string> = {};
    header.forEach((field, i) => {
      if (row[i]?.trim()) record[field] = row[i].trim();
    });
    return { line: info.lines, input: record as unknown as SourceInput };
  });
}
