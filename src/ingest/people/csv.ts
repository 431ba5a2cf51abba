// People from CSV exports: one person per row, columns named by our flat fields, or mapped to
// them with `--map "Column Name=field,..."` (docs/people.md lists the fields).
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import type { PersonInput } from '../../people/input.ts';
import type { PersonSourceRecord } from './runner.ts';

/** The flat fields a CSV column can map to. */
export const CSV_FIELDS = [
  'id',
  'full_name',
  'first_name',
  'last_name',
  'profile_url',
  'company_name',
  'company_domain',
  'title',
  'start',
  'end',
  'current',
  'work_email',
  'work_email_status',
  'personal_email',
  'email',
  'mobile_phone',
  'phone',
  'phone_type',
  'country',
] as const;
export type CsvField = (typeof CSV_FIELDS)[number];

/** Parses `Column A=field,Column B=field` into column → field; throws on an unknown field. */
export function parseColumnMap(spec: string | undefined): Map<string, CsvField> {
  const map = new Map<string, CsvField>();
  if (!spec) return map;
  for (const pair of spec.split(',')) {
    if (!pair.trim()) continue;
    const at = pair.lastIndexOf('=');
    if (at <= 0) throw new Error(`--map entry "${pair}" is not column=field`);
    const column = pair.slice(0, at).trim();
    const field = pair
      .slice(at + 1)
      .trim()
      .toLowerCase() as CsvField;
    if (!CSV_FIELDS.includes(field)) throw new Error(`--map: "${field}" is not a field (fields: ${CSV_FIELDS.join(', ')})`);
    map.set(column.toLowerCase(), field);
  }
  return map;
}

const TRUE = new Set(['1', 'true', 'yes', 'y', 'current']);
const FALSE = new Set(['0', 'false', 'no', 'n', 'past']);

/** One CSV row (already keyed by our fields) as a PersonInput. */
export function rowToPerson(row: Partial<Record<CsvField, string>>): PersonInput {
  const v = (f: CsvField) => (row[f] ?? '').trim() || null;
  const current = v('current')?.toLowerCase();
  const person: PersonInput = {
    id: v('id'),
    full_name: v('full_name'),
    first_name: v('first_name'),
    last_name: v('last_name'),
    profile_url: v('profile_url'),
    positions: [],
    emails: [],
    phones: [],
  };
  if (v('title') || v('company_name') || v('company_domain')) {
    person.positions!.push({
      title: v('title'),
      company_name: v('company_name'),
      company_domain: v('company_domain'),
      start: v('start'),
      end: v('end'),
      current: current && TRUE.has(current) ? true : current && FALSE.has(current) ? false : null,
    });
  }
  if (v('work_email')) person.emails!.push({ email: v('work_email')!, type: 'work', status: v('work_email_status') });
  if (v('personal_email')) person.emails!.push({ email: v('personal_email')!, type: 'personal' });
  if (v('email')) person.emails!.push({ email: v('email')! });
  if (v('mobile_phone')) person.phones!.push({ number: v('mobile_phone')!, type: 'mobile', country: v('country') });
  if (v('phone')) person.phones!.push({ number: v('phone')!, type: v('phone_type'), country: v('country') });
  return person;
}

/**
 * Records from a CSV file with a header row ("-" for stdin). Columns are matched to fields by the
 * map first, else by their own name (case and spaces ignored: "First Name" is first_name); other
 * columns are ignored.
 */
export function readPeopleCsv(
  path: string,
  columnMap: Map<string, CsvField> = new Map(),
): { records: AsyncIterable<PersonSourceRecord>; position: () => number } {
  const stream = path === '-' ? process.stdin : createReadStream(path);
  let bytes = 0;
  stream.on('data', (chunk: Buffer | string) => {
    bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
  });
  const parser = stream.pipe(
    parse({ bom: true, columns: false, relax_column_count: true, skip_empty_lines: true, relax_quotes: true, info: true }),
  );
  async function* records(): AsyncIterable<PersonSourceRecord> {
    let fields: (CsvField | null)[] | null = null;
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!fields) {
        fields = record.map((header) => {
          const name = header.trim().toLowerCase();
          const mapped = columnMap.get(name);
          if (mapped) return mapped;
          const own = name.replace(/[\s-]+/g, '_') as CsvField;
          return CSV_FIELDS.includes(own) ? own : null;
        });
        if (!fields.some(Boolean)) throw new Error(`no column of ${path} names a field; map them with --map "Column=field"`);
        continue;
      }
      const row: Partial<Record<CsvField, string>> = {};
      fields.forEach((field, i) => {
        if (field && record[i] !== undefined && record[i] !== '') row[field] = record[i];
      });
      yield { line: info.lines, input: rowToPerson(row) };
    }
  }
  return { records: records(), position: () => bytes };
}
