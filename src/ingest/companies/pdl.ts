// People Data Labs free company dataset: CSV (with a header row) or NDJSON, ten fields per company:
// id, name, website, founded, size, locality, region, country, industry, linkedin_url.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
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
] as const;
export type PdlCompany = Partial<Record<(typeof PDL_FIELDS)[number], string | number | null>>;

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
  };
}

function check(row: PdlCompany): string | null {
  if (blank(row.name)) return 'name is empty';
  const founded = str(row.founded);
  if (founded && !/^\d{4}(\.0)?$/.test(founded)) return `founded is not a year: ${JSON.stringify(founded)}`;
  return null;
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
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
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
    const problem = check(row);
    if (problem) yield { line: number, error: problem };
    else yield { line: number, input: pdlToCompany(row) };
  }
}
