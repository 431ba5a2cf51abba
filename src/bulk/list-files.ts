// A bulk job's rows read from a file's text (docs/bulk.md, "Submit"): CSV with a header naming the
// fields, a JSON array of objects, or JSON Lines (one object a line). A file that cannot be read is
// refused with why, naming the request field it came in; it is never read as an empty list.
import { parse as parseCsv } from 'csv-parse/sync';
import sjson from 'secure-json-parse';
import { CSV_READ_OPTIONS } from '../email/list-csv.ts';
import { BulkInputError } from './errors.ts';

/** The kinds of file a list is read from. */
export type ListFormat = 'csv' | 'json' | 'jsonl';

/** JSON without prototype keys (as the API's body parser reads it). */
const parseJson = (text: string): unknown => sjson.parse(text, { protoAction: 'remove', constructorAction: 'remove' });

/**
 * The header's names, each once: a name already taken ("email" twice) is kept as "email (column 3)"
 * (its place, from 1), as the console names it, instead of the later column overwriting the first.
 */
export function distinctHeader(header: readonly string[]): string[] {
  const taken = new Set<string>();
  return header.map((raw, i) => {
    const name = raw.trim();
    const kept = taken.has(name) ? `${name} (column ${i + 1})` : name;
    taken.add(kept);
    return kept;
  });
}

/** CSV text as rows: the header names the fields; blank cells are left out. */
export function rowsFromCsv(text: string, field: string): Record<string, string>[] {
  let lines: string[][];
  try {
    lines = parseCsv(text, CSV_READ_OPTIONS);
  } catch (error) {
    throw new BulkInputError(`The CSV cannot be read: ${(error as Error).message}`, field);
  }
  const [header, ...data] = lines;
  if (!header) throw new BulkInputError('The CSV has no header row.', field);
  const names = distinctHeader(header);
  return data.map((fields) =>
    Object.fromEntries(names.map((name, i) => [name, fields[i]?.trim() ?? '']).filter(([, value]) => value !== '')),
  );
}

/** The header of CSV text (its names as rowsFromCsv keys them), or [] when it has none. */
export function csvHeaderOf(text: string): string[] {
  try {
    const lines: string[][] = parseCsv(text, { ...CSV_READ_OPTIONS, to_line: 1 });
    const [header] = lines;
    return header ? distinctHeader(header) : [];
  } catch {
    return [];
  }
}

/** A JSON array of rows. */
function rowsFromJson(text: string, field: string): unknown[] {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    throw new BulkInputError(`The JSON file cannot be read: ${(error as Error).message}`, field);
  }
  if (!Array.isArray(value)) throw new BulkInputError('The JSON file must be an array of rows (objects of the request fields).', field);
  return value;
}

/** JSON Lines: one row a line, blank lines skipped. */
function rowsFromJsonl(text: string, field: string): unknown[] {
  const rows: unknown[] = [];
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    if (!line.trim()) continue;
    try {
      rows.push(parseJson(line));
    } catch (error) {
      throw new BulkInputError(`Line ${i + 1} of the JSON Lines file cannot be read: ${(error as Error).message}`, field);
    }
  }
  return rows;
}

/** The rows of a file's text in the given format; an empty file is refused. */
export function rowsFromText(text: string, format: ListFormat, field: string): unknown[] {
  const rows = format === 'csv' ? rowsFromCsv(text, field) : format === 'json' ? rowsFromJson(text, field) : rowsFromJsonl(text, field);
  if (!rows.length) throw new BulkInputError(`The ${format === 'jsonl' ? 'JSON Lines' : format.toUpperCase()} file holds no rows.`, field);
  return rows;
}

const TYPES: Record<string, ListFormat> = {
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/comma-separated-values': 'csv',
  // What many servers and browsers call a .csv file.
  'application/vnd.ms-excel': 'csv',
  'application/json': 'json',
  'text/json': 'json',
  'application/x-ndjson': 'jsonl',
  'application/ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'application/x-jsonlines': 'jsonl',
  'application/jsonlines': 'jsonl',
};
/** Types that say nothing about the content: the file's first character and name tell it. */
const UNTOLD = new Set(['', 'text/plain', 'application/octet-stream', 'binary/octet-stream']);

/**
 * What a file is, by its type (`text/csv`…), else by its first character (`[` a JSON array, `{` JSON
 * Lines) and its name (.json, .jsonl, .ndjson), CSV otherwise. Null when its type names another kind.
 */
export function listFormatOf(type: string, text: string, name: string): ListFormat | null {
  const told = TYPES[type];
  if (told) return told;
  if (!UNTOLD.has(type)) return null;
  const first = text.trimStart()[0];
  if (first === '[') return 'json';
  if (first === '{') return 'jsonl';
  const lower = name.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  return 'csv';
}

/** A file's bytes as text (a byte-order mark dropped), refused when empty or not UTF-8 text. `what` names it in the message. */
export function fileText(body: Buffer, what: string, field: string): string {
  if (!body.length) throw new BulkInputError(`${what} is empty.`, field);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new BulkInputError(`${what} is not UTF-8 text.`, field);
  }
  if (text.includes('\u0000')) throw new BulkInputError(`${what} is not text (it holds NUL bytes).`, field);
  return text.replace(/^\uFEFF/, '');
}
