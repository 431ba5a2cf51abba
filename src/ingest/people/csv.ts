// People from CSV exports: one person per row, columns named by our flat fields, by the headers of
// the common contact exports (LinkedIn connections, Apollo, HubSpot, Salesforce), or mapped with
// `--map "Column Name=field,..."` (docs/people.md lists the fields and the layouts).
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

/**
 * Headers of the common contact exports, by header key (lower case, spaces as underscores): the
 * layout is recognised by its headers, no flag needed. What each export means by a column decides
 * the field: Apollo's "Email" is a work address, LinkedIn's "Email Address" is the member's own.
 */
const EXPORT_HEADERS: Readonly<Record<string, CsvField>> = {
  // LinkedIn Connections.csv
  url: 'profile_url',
  email_address: 'personal_email',
  company: 'company_name',
  position: 'title',
  // Apollo
  email_status: 'work_email_status',
  person_linkedin_url: 'profile_url',
  linkedin_url: 'profile_url',
  company_name_for_emails: 'company_name',
  website: 'company_domain',
  company_website: 'company_domain',
  work_direct_phone: 'phone',
  // HubSpot
  job_title: 'title',
  company_name: 'company_name',
  phone_number: 'phone',
  mobile_phone_number: 'mobile_phone',
  website_url: 'company_domain',
  country_region: 'country',
  // Salesforce
  account_name: 'company_name',
  mobile: 'mobile_phone',
  mailing_country: 'country',
};

/** A column header as a key: lower case, spaces, dashes and slashes as one underscore. */
const headerKey = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s/-]+/g, '_');

/**
 * What an export's email status says, in our email_status words; null when it says nothing about
 * the address itself (Apollo's "Guessed", "Unavailable", "Extrapolated": the address is still kept).
 */
export function exportEmailStatus(text: string | null): string | null {
  const t = (text ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (!t) return null;
  if (['valid', 'verified', 'deliverable', 'safe', 'ok'].includes(t)) return 'valid';
  if (['invalid', 'bounced', 'undeliverable', 'hard_bounce', 'do_not_email'].includes(t)) return 'invalid';
  if (['catch_all', 'accept_all', 'catchall', 'accept_all_unverifiable'].includes(t)) return 'catch_all';
  if (t === 'valid_catch_all' || t === 'unknown') return t;
  return null;
}

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
  if (v('work_email')) person.emails!.push({ email: v('work_email')!, type: 'work', status: exportEmailStatus(v('work_email_status')) });
  if (v('personal_email')) person.emails!.push({ email: v('personal_email')!, type: 'personal' });
  // An export with one address column and a status column (Apollo's "Email", "Email Status"): the status is that address's.
  const status = v('work_email') ? null : exportEmailStatus(v('work_email_status'));
  if (v('email')) person.emails!.push({ email: v('email')!, ...(status ? { status } : {}) });
  if (v('mobile_phone')) person.phones!.push({ number: v('mobile_phone')!, type: 'mobile', country: v('country') });
  if (v('phone')) person.phones!.push({ number: v('phone')!, type: v('phone_type'), country: v('country') });
  return person;
}

/**
 * Records from a CSV file with a header row ("-" for stdin). Columns are matched to fields by the
 * map first, else by their own name (case and spaces ignored: "First Name" is first_name), else by
 * the export layouts' headers; `unreadColumns()` names the others once the header is read. Lines
 * before the header (LinkedIn's "Notes:" preamble) are skipped: the header is the first row that
 * names a field.
 */
export function readPeopleCsv(
  path: string,
  columnMap: Map<string, CsvField> = new Map(),
): { records: AsyncIterable<PersonSourceRecord>; position: () => number; unreadColumns: () => string[] } {
  let unread: string[] = [];
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
    let preamble = 0;
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!fields) {
        const candidate = record.map((header) => {
          const mapped = columnMap.get(header.trim().toLowerCase());
          if (mapped) return mapped;
          const own = headerKey(header) as CsvField;
          return CSV_FIELDS.includes(own) ? own : (EXPORT_HEADERS[headerKey(header)] ?? null);
        });
        if (!candidate.some(Boolean)) {
          if (++preamble <= MAX_PREAMBLE_ROWS) continue;
          throw new Error(`no column of ${path} names a field; map them with --map "Column=field"`);
        }
        fields = candidate;
        unread = record.filter((header, i) => !fields![i] && header.trim()).map((header) => header.trim());
        continue;
      }
      const row: Partial<Record<CsvField, string>> = {};
      fields.forEach((field, i) => {
        if (field && record[i] !== undefined && record[i] !== '') row[field] = record[i];
      });
      yield { line: info.lines, input: rowToPerson(row) };
    }
    if (!fields) throw new Error(`no column of ${path} names a field; map them with --map "Column=field"`);
  }
  return { records: records(), position: () => bytes, unreadColumns: () => unread };
}

/** Rows before the header an export may start with (LinkedIn writes a few lines of notes). */
const MAX_PREAMBLE_ROWS = 10;
