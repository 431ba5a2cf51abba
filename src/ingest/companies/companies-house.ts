// UK Companies House "Free Company Data Product" (BasicCompanyData): one CSV row per company on
// the register, published monthly as one zip or in parts (docs/data/companies_house.md). Read as a
// stream from the zip as downloaded, or from the CSV: the archive is unzipped chunk by chunk and the
// CSV parsed row by row, so a 2.5 GB file never sits in memory.
import { createReadStream, openSync, readSync, closeSync } from 'node:fs';
import { Unzip, UnzipInflate } from 'fflate';
import type { CompanyInput } from '../../companies/input.ts';
import { prepareRow, type PreparedRow, type SourceRecord } from './runner.ts';

/** The kind of external id a company number is stored under. */
const COMPANY_NUMBER_ID = 'companies_house';

/** Columns read (headers trimmed: the published header has spaces before some names). */
const COLUMNS = [
  'CompanyName',
  'CompanyNumber',
  'RegAddress.AddressLine1',
  'RegAddress.AddressLine2',
  'RegAddress.PostTown',
  'RegAddress.County',
  'RegAddress.Country',
  'RegAddress.PostCode',
  'CompanyCategory',
  'CompanyStatus',
  'DissolutionDate',
  'IncorporationDate',
  'SICCode.SicText_1',
  'SICCode.SicText_2',
  'SICCode.SicText_3',
  'SICCode.SicText_4',
  ...Array.from({ length: 10 }, (_, i) => `PreviousName_${i + 1}.CompanyName`),
] as const;
type Column = (typeof COLUMNS)[number];
const READ = new Set<string>(COLUMNS);

/** Not needed by us, and derived from columns we read (the URI is the company number's address). */
const DERIVED = new Set(['URI', ...Array.from({ length: 10 }, (_, i) => `PreviousName_${i + 1}.CONDATE`)]);

/** The parts of the United Kingdom as the register writes them in a registered office's country. */
const UK_NAMES = new Set([
  'UNITED KINGDOM',
  'ENGLAND',
  'WALES',
  'SCOTLAND',
  'NORTHERN IRELAND',
  'GREAT BRITAIN',
  'UK',
  'ENGLAND AND WALES',
]);

/** A UK postcode ("SW1A 2AA", "EC1V 9LT", "B3 3LP"). */
const UK_POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i;

export interface CompaniesHouseInput {
  records: AsyncIterable<SourceRecord>;
  /** Bytes of the file (the zip, or the CSV) read so far. */
  position: () => number;
  /** Header columns we do not read (known once the header was read). */
  unreadColumns: () => string[];
  /** The CSV's name inside the zip (null for a CSV file). */
  entryName: () => string | null;
}

export interface ReadOptions {
  /** Data rows to pass over without reading them (a run resuming inside a file). */
  skipRows?: number;
}

/** An input that is not a Companies House basic company data file (the whole file is refused). */
export class UnreadableFileError extends Error {}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Whether the file starts as a zip archive does. */
function isZip(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.equals(ZIP_MAGIC);
  } finally {
    closeSync(fd);
  }
}

/**
 * The CSV of a zip archive, decompressed as the archive is read. Entries that are no CSV (such as
 * a `__MACOSX/` resource fork) are passed over; an archive with no CSV, or with more than one,
 * is refused (an archive we cannot read whole is never read as fewer companies).
 */
async function* csvOfZip(chunks: AsyncIterable<Buffer>, named: (name: string) => void): AsyncIterable<Uint8Array> {
  const out: Uint8Array[] = [];
  // Set by fflate's callbacks while a chunk is pushed.
  const state: { chosen: string | null; failure: Error | null; ended: boolean } = { chosen: null, failure: null, ended: false };
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (file) => {
    const base = file.name.split('/').pop() ?? '';
    if (!/\.csv$/i.test(base) || file.name.startsWith('__MACOSX/') || base.startsWith('._')) return;
    if (state.chosen) {
      state.failure = new UnreadableFileError(
        `the archive holds more than one CSV (${state.chosen}, ${file.name}): unzip it and import each CSV`,
      );
      return;
    }
    state.chosen = file.name;
    named(file.name);
    file.ondata = (error, data, final) => {
      if (error) state.failure = new UnreadableFileError(`${file.name} in the archive cannot be inflated: ${error.message}`);
      else if (data.length) out.push(data);
      if (final) state.ended = true;
    };
    file.start();
  };
  const push = (chunk: Uint8Array, final: boolean) => {
    try {
      unzip.push(chunk, final);
    } catch (error) {
      state.failure ??= new UnreadableFileError(`not a readable zip archive: ${(error as Error).message}`);
    }
    if (state.failure) throw state.failure;
  };
  for await (const chunk of chunks) {
    push(chunk, false);
    while (out.length) yield out.shift()!;
  }
  push(new Uint8Array(0), true);
  while (out.length) yield out.shift()!;
  if (!state.chosen) throw new UnreadableFileError('the zip archive holds no CSV file');
  if (!state.ended) throw new UnreadableFileError(`${state.chosen} ends early: the archive is cut short`);
}

const text = (v: string | undefined): string | null => {
  if (v === undefined) return null;
  const s = v.trim();
  return s ? s : null;
};

/** dd/mm/yyyy as the file writes dates, or null; throws on another shape. */
function yearOf(value: string | null, field: string): number | null {
  if (!value) return null;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (!m || Number(m[1]) > 31 || Number(m[2]) > 12) throw new Error(`${field} is not a dd/mm/yyyy date: ${JSON.stringify(value)}`);
  return Number(m[3]);
}

/**
 * A company number as the register writes it: eight characters, digits or a two-letter prefix
 * (SC, NI, OC, FC…) and six digits. Numbers whose leading zeros were lost in a spreadsheet get
 * them back.
 */
export function normalizeCompanyNumber(value: string | null): string | null {
  if (!value) return null;
  const s = value.replace(/\s+/g, '').toUpperCase();
  if (/^\d{1,8}$/.test(s)) return s.padStart(8, '0');
  if (/^[A-Z]{2}\d{1,6}$/.test(s)) return s.slice(0, 2) + s.slice(2).padStart(6, '0');
  if (/^[A-Z]\d{7}$/.test(s)) return s;
  return null;
}

/** The legal form as our company_type: only the forms that say it plainly. */
function companyType(category: string | null): string | null {
  if (!category) return null;
  const c = category.toLowerCase();
  if (/public limited|^plc\b/.test(c)) return 'public';
  if (/charit|community interest/.test(c)) return 'nonprofit';
  if (/private|limited liability partnership|limited partnership/.test(c)) return 'private';
  return null;
}

/** The registered office's country: the UK's parts as the United Kingdom; a UK postcode alone says the UK too. */
function countryOf(country: string | null, postcode: string | null): string | null {
  if (country) return UK_NAMES.has(country.toUpperCase()) ? 'United Kingdom' : country;
  return postcode && UK_POSTCODE.test(postcode) ? 'United Kingdom' : null;
}

/** "62020 - Information technology consultancy activities" as its code and words; "None Supplied" is none. */
function sicOf(value: string | null): { code: string; text: string } | null {
  if (!value) return null;
  const m = /^(\d{4,5})\s*-\s*(.+)$/.exec(value);
  return m ? { code: m[1], text: m[2].trim() } : null;
}

/** One row (by column) as our CompanyInput; throws with the reason a row cannot be read. */
export function companiesHouseToCompany(get: (column: Column) => string | null): CompanyInput {
  const name = get('CompanyName');
  if (!name) throw new Error('CompanyName is empty');
  const rawNumber = get('CompanyNumber');
  const number = normalizeCompanyNumber(rawNumber);
  if (!number) throw new Error(`CompanyNumber is not a company number: ${JSON.stringify(rawNumber ?? '')}`);
  const founded = yearOf(get('IncorporationDate'), 'IncorporationDate');
  const dissolved = yearOf(get('DissolutionDate'), 'DissolutionDate');
  const sics = (['SICCode.SicText_1', 'SICCode.SicText_2', 'SICCode.SicText_3', 'SICCode.SicText_4'] as const)
    .map((c) => sicOf(get(c)))
    .filter((s): s is { code: string; text: string } => s !== null);
  const aliases: string[] = [];
  for (let i = 1; i <= 10; i++) {
    const previous = get(`PreviousName_${i}.CompanyName`);
    if (previous) aliases.push(previous);
  }
  const postcode = get('RegAddress.PostCode');
  const status = get('CompanyStatus')?.toLowerCase() ?? null;
  return {
    name,
    aliases,
    external_ids: { [COMPANY_NUMBER_ID]: number },
    founded_year: founded,
    company_type: companyType(get('CompanyCategory')),
    status: dissolved !== null && !status ? 'dissolved' : status,
    industry: sics[0]?.text ?? null,
    sectors: sics.map((s) => `${s.code} - ${s.text}`),
    location: {
      street_address: get('RegAddress.AddressLine1'),
      address_line_2: get('RegAddress.AddressLine2'),
      locality: get('RegAddress.PostTown'),
      region: get('RegAddress.County'),
      postal_code: postcode,
      country: countryOf(get('RegAddress.Country'), postcode),
    },
  };
}

/** One CSV record: its fields and its first line number, or why it cannot be read. */
type CsvRecord = { line: number; fields: string[] } | { line: number; error: string };

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/**
 * Records of RFC 4180 CSV text arriving in chunks. Hand-written rather than csv-parse: on the
 * register's 55 columns csv-parse reads about 20,000 rows/s, a fifth of what a load of five
 * million rows needs; this reads several times that. A quoted field may hold commas, doubled
 * quotes and line breaks; a record with text after a closing quote, or a quote never closed, is
 * refused with its line (the next record starts on the next line).
 */
export async function* csvRecords(chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>): AsyncIterable<CsvRecord> {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let line = 1;
  let first = true;
  const parse = function* (final: boolean): Generator<CsvRecord, void> {
    let pos = 0;
    const end = text.length;
    records: while (pos < end) {
      const start = pos;
      const startLine = line;
      let lines = 0;
      const fields: string[] = [];
      for (;;) {
        // One field, starting at pos.
        if (pos >= end) {
          if (!final) {
            pos = start;
            break records;
          }
          fields.push('');
          break;
        }
        let c = text.charCodeAt(pos);
        if (c === QUOTE) {
          let value = '';
          let from = pos + 1;
          for (;;) {
            const close = text.indexOf('"', from);
            if (close === -1) {
              if (!final) {
                pos = start;
                break records;
              }
              yield { line: startLine, error: 'malformed CSV: a quoted field is never closed' };
              text = '';
              return;
            }
            const piece = text.slice(from, close);
            value += piece;
            for (let i = piece.indexOf('\n'); i !== -1; i = piece.indexOf('\n', i + 1)) lines += 1;
            if (text.charCodeAt(close + 1) === QUOTE) {
              value += '"';
              from = close + 2;
              continue;
            }
            if (close + 1 >= end && !final) {
              pos = start;
              break records;
            }
            pos = close + 1;
            break;
          }
          fields.push(value);
          c = pos < end ? text.charCodeAt(pos) : -1;
          if (c !== COMMA && c !== LF && c !== CR && c !== -1) {
            // Text after a closing quote: the record cannot be read; go on at the next line.
            const next = text.indexOf('\n', pos);
            if (next === -1 && !final) {
              pos = start;
              break records;
            }
            line += lines + 1;
            pos = next === -1 ? end : next + 1;
            yield { line: startLine, error: 'malformed CSV: text after a closing quote' };
            continue records;
          }
        } else {
          let i = pos;
          while (i < end) {
            c = text.charCodeAt(i);
            if (c === COMMA || c === LF || c === CR) break;
            i++;
          }
          if (i >= end && !final) {
            pos = start;
            break records;
          }
          fields.push(text.slice(pos, i));
          pos = i;
          c = i < end ? c : -1;
        }
        if (c === COMMA) {
          pos += 1;
          continue;
        }
        // End of the record: \n, \r\n, a lone \r, or the end of the text.
        if (c === CR) {
          if (pos + 1 >= end && !final) {
            pos = start;
            break records;
          }
          pos += text.charCodeAt(pos + 1) === LF ? 2 : 1;
        } else if (c === LF) pos += 1;
        break;
      }
      line += lines + 1;
      if (fields.length === 1 && fields[0] === '') continue;
      yield { line: startLine, fields };
    }
    text = text.slice(pos);
  };
  for await (const chunk of chunks) {
    let decoded = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (first && decoded.length) {
      if (decoded.charCodeAt(0) === 0xfeff) decoded = decoded.slice(1);
      first = false;
    }
    text += decoded;
    yield* parse(false);
  }
  text += decoder.decode();
  yield* parse(true);
}

/**
 * Records of a BasicCompanyData file: the zip as downloaded (its one CSV) or the CSV itself. A
 * file that is neither, or whose header lacks CompanyName and CompanyNumber, fails as a whole
 * (UnreadableFileError); a row that cannot be read is a record with the reason.
 */
export function readCompaniesHouse(path: string, options: ReadOptions = {}): CompaniesHouseInput {
  let bytes = 0;
  let entry: string | null = null;
  let unread: string[] = [];
  const file = createReadStream(path, { highWaterMark: 1024 * 1024 });
  async function* counted(): AsyncIterable<Buffer> {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      yield chunk;
    }
  }
  const zipped = isZip(path);
  const csv = zipped ? csvOfZip(counted(), (name) => (entry = name)) : counted();

  async function* records(): AsyncIterable<SourceRecord> {
    let index: Map<string, number> | null = null;
    let width = 0;
    let toSkip = options.skipRows ?? 0;
    try {
      for await (const record of csvRecords(csv)) {
        if (!index) {
          const headers = 'fields' in record ? record.fields.map((h) => h.trim()) : [];
          if (!headers.includes('CompanyName') || !headers.includes('CompanyNumber'))
            throw new UnreadableFileError(
              `not a Companies House basic company data CSV: its header has no CompanyName and CompanyNumber columns (${headers.slice(0, 4).join(', ')}…)`,
            );
          index = new Map(headers.map((h, i) => [h, i]));
          width = headers.length;
          unread = headers.filter((h) => h && !READ.has(h) && !DERIVED.has(h));
          continue;
        }
        if (toSkip > 0) {
          toSkip -= 1;
          continue;
        }
        if ('error' in record) {
          yield record;
          continue;
        }
        const { line, fields } = record;
        if (fields.length !== width) {
          yield { line, error: `has ${fields.length} fields where the header has ${width}` };
          continue;
        }
        const columns = index;
        try {
          yield { line, input: companiesHouseToCompany((c) => text(fields[columns.get(c) ?? -1])) };
        } catch (error) {
          yield { line, error: (error as Error).message };
        }
      }
    } catch (error) {
      if (error instanceof UnreadableFileError) throw error;
      throw new UnreadableFileError(`${zipped ? 'the zip archive' : 'the file'} cannot be read: ${(error as Error).message}`);
    } finally {
      file.destroy();
    }
    if (!index) throw new UnreadableFileError('the file has no header row: not a Companies House basic company data CSV');
  }
  return { records: records(), position: () => bytes, unreadColumns: () => unread, entryName: () => entry };
}

/** Validates one record as prepareRow does, marked as a registry's row (matched by name only in the same place). */
export function prepareCompaniesHouseRow(record: SourceRecord): PreparedRow {
  const row = prepareRow(record);
  if ('item' in row) row.item.nameMatchNeedsPlace = true;
  return row;
}
