// People Data Labs free company dataset: CSV (with a header row) or NDJSON. PDL's own layout has
// id, name, website, founded, size, locality, region, country, industry, linkedin_url; the widely
// copied CSV of it names columns differently ("domain", "year founded", "size range", "linkedin url",
// "current employee estimate"). Both are read; a column that maps to nothing is reported.
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import type { CompanyInput } from '../../companies/input.ts';
import type { Line } from './lines.ts';
import type { SourceRecord } from './runner.ts';

export const PDL_FIELDS = [
  'id',
  'name',
  'website',
  'founded',
  'size',
  'locality',
  'region',
  'country',
  'industry',
  'linkedin_url',
  'employee_count',
] as const;
type PdlField = (typeof PDL_FIELDS)[number];

/** Other names of our fields in the layouts people have (keys as headerKey makes them). */
const ALIASES: Readonly<Record<string, PdlField>> = {
  domain: 'website',
  url: 'website',
  year_founded: 'founded',
  founded_year: 'founded',
  size_range: 'size',
  linkedin: 'linkedin_url',
  current_employee_estimate: 'employee_count',
  employee_estimate: 'employee_count',
};

/** A header as a key: lower case, runs of spaces, dashes and underscores as one underscore. */
function headerKey(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_');
}

/** The field a column holds, or the column's own key when it maps to none of ours. */
function fieldOf(header: string): string {
  const key = headerKey(header);
  return ALIASES[key] ?? key;
}

const KNOWN = new Set<string>(PDL_FIELDS);

/** The columns of a header row that map to nothing we read (reported in the import's summary). */
export function unreadPdlColumns(headers: string[]): string[] {
  return headers.filter((h) => h.trim() && !KNOWN.has(fieldOf(h))).map((h) => h.trim());
}
export type PdlCompany = Partial<Record<PdlField, string | number | null>>;

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
const str = (v: unknown) => (blank(v) ? null : String(v).trim());

/** One PDL company as our CompanyInput. */
export function pdlToCompany(row: PdlCompany): CompanyInput {
  const founded = str(row.founded);
  const profUrl = str(row.linkedin_url);
  return {
    name: str(row.name),
    website: str(row.website),
    external_ids: str(row.id) ? { pdl_id: str(row.id)! } : null,
    founded_year: founded ? Number(founded) : null,
    size_label: str(row.size),
    industry: str(row.industry),
    location: { locality: str(row.locality), region: str(row.region), country: str(row.country) },
    prof_url: profUrl,
    employee_count: blank(row.employee_count) ? null : Number(String(row.employee_count).replace(/[,\s]/g, '')),
  };
}

function check(row: PdlCompany): string | null {
  if (blank(row.name)) return 'name is empty';
  const founded = str(row.founded);
  if (founded && !/^\d{4}(\.0)?$/.test(founded)) return `founded is not a year: ${JSON.stringify(founded)}`;
  return null;
}

/** The header row of a CSV file (its first line), without reading the rest. */
export function readCsvHeader(path: string): string[] {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, length).toString('utf8');
    const end = text.search(/\r?\n/);
    const rows: string[][] = parseSync(end === -1 ? text : text.slice(0, end), { bom: true, relax_quotes: true });
    return rows[0] ?? [];
  } finally {
    closeSync(fd);
  }
}

/** Records from a PDL CSV file; `position()` gives the bytes read so far. */
export function readPdlCsv(path: string): { records: AsyncIterable<SourceRecord>; position: () => number } {
  const stream = path === '-' ? process.stdin : createReadStream(path);
  let bytes = 0;
  stream.on('data', (chunk: Buffer | string) => {
    bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
  });
  const parser = stream.pipe(
    parse({
      columns: (header: string[]) => header.map(fieldOf),
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      skip_records_with_error: true,
    }),
  );
  // Malformed CSV rows are skipped by the parser; report them as rejected rows.
  const skipped: SourceRecord[] = [];
  parser.on('skip', (error: Error & { lines?: number }) =>
    skipped.push({ line: error.lines ?? 0, error: `malformed CSV: ${error.message}` }),
  );
  async function* records(): AsyncIterable<SourceRecord> {
    for await (const { record, info } of parser as AsyncIterable<{
      record: PdlCompany;
      info: { lines: number; invalid_field_length: number };
    }>) {
      while (skipped.length) yield skipped.shift()!;
      const line = info.lines;
      const problem = check(record);
      if (problem) yield { line, error: problem };
      else yield { line, input: pdlToCompany(record) };
    }
    while (skipped.length) yield skipped.shift()!;
  }
  return { records: records(), position: () => bytes };
}

/** Records from PDL NDJSON lines. */
export async function* parsePdlNdjson(lines: AsyncIterable<Line>): AsyncIterable<SourceRecord> {
  for await (const { number, text } of lines) {
    if (!text.trim()) continue;
    let row: PdlCompany;
    try {
      row = JSON.parse(text) as PdlCompany;
    } catch (error) {
      yield { line: number, error: `not valid JSON: ${(error as Error).message}` };
      continue;
    }
    if (!row || typeof row !== 'object' || Array.isArray(row)) {
      yield { line: number, error: 'each line must be a JSON object' };
      continue;
    }
    row = Object.fromEntries(Object.entries(row).map(([key, value]) => [fieldOf(key), value]));
    const problem = check(row);
    if (problem) yield { line: number, error: problem };
    else yield { line: number, input: pdlToCompany(row) };
  }
}
