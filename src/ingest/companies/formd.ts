// SEC Form D quarterly data sets: four tab-separated files (FORMDSUBMISSION, ISSUERS, OFFERING,
// RELATEDPERSONS) joined on ACCESSIONNUMBER, read from the SEC's zip as downloaded or from a
// directory it was unzipped into. Each live filing's primary issuer becomes a company (keyed by its
// CIK) with one funding round (the amount sold so far) and its related persons as leadership;
// pooled investment funds are excluded, since they are investment vehicles rather than companies
// raising money.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { unzipEntries } from '../zip-entries.ts';
import type { CompanyInput, LeaderInput } from '../../companies/input.ts';
import { lookupUsStateOrProvince } from '../../companies/geography.ts';
import type { SourceRecord } from './runner.ts';

/** A table row: its cells, and where each column is (one lookup object per table, shared by its rows). */
interface Row {
  cells: string[];
  columns: Record<string, number>;
}

const FORM_D_FILES = ['FORMDSUBMISSION', 'ISSUERS', 'OFFERING', 'RELATEDPERSONS'] as const;
type FormDTable = (typeof FORM_D_FILES)[number];

/** The four tables of one quarterly data set, as the bytes of their .tsv files. */
export type FormDTables = Record<FormDTable, Uint8Array>;

/** A data set that cannot be read: the message says what is wrong with it. */
export class FormDInputError extends Error {}

/** The tables of a data-set directory (FORMDSUBMISSION.tsv …, any case). */
function tablesOfDirectory(dir: string): FormDTables {
  const names = readdirSync(dir);
  const tables: Partial<FormDTables> = {};
  for (const table of FORM_D_FILES) {
    const found = names.find((f) => f.toUpperCase() === `${table}.TSV`);
    if (!found) throw new FormDInputError(`${dir} has no ${table}.tsv (a Form D data set directory holds the four .tsv files)`);
    tables[table] = readFileSync(join(dir, found));
  }
  return tables as FormDTables;
}

/**
 * The tables of a quarterly zip as the SEC publishes it (its files sit in a folder such as
 * 2024Q1_d/, beside a readme and two tables not read here, RECIPIENTS and SIGNATURES).
 */
export function formDTablesOfZip(zip: Uint8Array, name: string): FormDTables {
  const tableOf = (path: string) => FORM_D_FILES.find((t) => path.split(/[\\/]/).pop()!.toUpperCase() === `${t}.TSV`);
  let files: Record<string, Uint8Array>;
  try {
    files = unzipEntries(zip, (name) => tableOf(name) !== undefined);
  } catch (error) {
    throw new FormDInputError(`${name}: not a zip archive (${(error as Error).message})`);
  }
  const tables: Partial<FormDTables> = {};
  for (const [path, data] of Object.entries(files)) tables[tableOf(path)!] = data;
  const missing = FORM_D_FILES.filter((t) => !tables[t]);
  if (missing.length) throw new FormDInputError(`${name}: the zip has no ${missing.map((t) => `${t}.tsv`).join(', ')}`);
  return tables as FormDTables;
}

/** The tables at `path`: the SEC's zip as downloaded, or a directory of the unzipped .tsv files. */
export function formDTablesAt(path: string): FormDTables {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new FormDInputError(`${path} does not exist`);
  }
  try {
    return isDirectory ? tablesOfDirectory(path) : formDTablesOfZip(readFileSync(path), path);
  } catch (error) {
    if (error instanceof FormDInputError) throw error;
    throw new FormDInputError(`${path} cannot be read (${(error as Error).message})`);
  }
}

/** UTF-8 text, or, when the bytes are not UTF-8, Windows-1252 (older tables' accented names). */
function decode(data: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return new TextDecoder('windows-1252').decode(data);
  }
}

/**
 * The rows of one table, with their line numbers. The data sets are plain tab-separated text with
 * one header row and no quoting, so a line is split on tabs as it is; a short row leaves its last
 * columns empty.
 */
function* tsvRows(data: Uint8Array, table: FormDTable): Generator<{ row: Row; line: number }> {
  const text = decode(data);
  let start = 0;
  let line = 0;
  let columns: Record<string, number> | null = null;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    let current = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    line += 1;
    if (!columns) {
      if (current.charCodeAt(0) === 0xfeff) current = current.slice(1);
      const names = current.split('\t').map((c) => c.trim().toUpperCase());
      if (!names.includes('ACCESSIONNUMBER')) throw new FormDInputError(`${table}.tsv has no ACCESSIONNUMBER column in its header`);
      columns = Object.fromEntries(names.map((name, i) => [name, i]));
      continue;
    }
    if (!current) continue;
    yield { row: { cells: current.split('\t'), columns }, line };
  }
  if (!columns) throw new FormDInputError(`${table}.tsv is empty (no header row)`);
}

function indexBy(data: Uint8Array, table: FormDTable, many: boolean): Map<string, Row[]> {
  const map = new Map<string, Row[]>();
  for (const { row } of tsvRows(data, table)) {
    const key = val(row, 'ACCESSIONNUMBER');
    if (!key) continue;
    const list = map.get(key);
    if (list && many) list.push(row);
    else if (!list) map.set(key, [row]);
  }
  return map;
}

function val(row: Row | undefined, col: string): string | null {
  if (!row) return null;
  const index = row.columns[col];
  const v = index === undefined ? undefined : row.cells[index]?.trim();
  return v ? v : null;
}
const yes = (v: string | null) => v !== null && /^(true|y|yes|1)$/i.test(v);

const MONTHS: Record<string, number> = { JAN: 0, FEB: 1, MAR: 2, APR: 3, MAY: 4, JUN: 5, JUL: 6, AUG: 7, SEP: 8, OCT: 9, NOV: 10, DEC: 11 };

/** Dates as the data sets write them: 2024-01-15, 15-JAN-2024 or 15-JAN-24. ISO date string or null. */
export function secDate(text: string | null): string | null {
  if (!text) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const dmy = /^(\d{1,2})-([A-Za-z]{3})-(\d{2}|\d{4})$/.exec(text.trim());
  if (dmy && MONTHS[dmy[2].toUpperCase()] !== undefined) {
    let year = Number(dmy[3]);
    if (dmy[3].length === 2) year += year >= 70 ? 1900 : 2000;
    const d = new Date(Date.UTC(year, MONTHS[dmy[2].toUpperCase()], Number(dmy[1])));
    return d.toISOString().slice(0, 10);
  }
  return null;
}

const ROLE_PATTERNS: [RegExp, string][] = [
  [/\bceo\b|chief executive/i, 'ceo'],
  [/\bcfo\b|chief financial/i, 'cfo'],
  [/\bcto\b|chief technology/i, 'cto'],
  [/\bcoo\b|chief operating/i, 'coo'],
  [/\bfounder\b/i, 'founder'],
  [/(?<!vice[ -])\bpresident\b/i, 'president'],
];

/**
 * The filing's related persons as leadership: each executive officer, director and promoter, with
 * the filing's clarification (else the relationships) as the title. A clarification naming a chief
 * role (CEO, CFO …) gives that role (the first person per role); every other related person is kept
 * under a role of their own (`related:<sequence>`), so no one the filing names is dropped.
 */
export function leadersFrom(persons: Row[]): LeaderInput[] {
  const leaders = new Map<string, LeaderInput>();
  for (const [index, p] of persons.entries()) {
    const clarification = val(p, 'RELATIONSHIPCLARIFICATION');
    const relationships = ['RELATIONSHIP_1', 'RELATIONSHIP_2', 'RELATIONSHIP_3']
      .map((c) => val(p, c))
      .filter(Boolean)
      .join(', ');
    const first_name = val(p, 'FIRSTNAME');
    const last_name = val(p, 'LASTNAME');
    if (!first_name && !last_name) continue;
    const designation = clarification || relationships || null;
    let named = false;
    for (const [pattern, role] of ROLE_PATTERNS) {
      if (clarification && pattern.test(clarification) && !leaders.has(role)) {
        leaders.set(role, { role, first_name, last_name, designation });
        named = true;
      }
    }
    if (!named && designation) {
      const role = `related:${val(p, 'RELATEDPERSON_SEQ_KEY') ?? index + 1}`;
      leaders.set(role, { role, first_name, last_name, designation });
    }
  }
  return [...leaders.values()];
}

function roundLabel(offering: Row | undefined): string {
  const kinds: string[] = [];
  if (yes(val(offering, 'ISEQUITYTYPE'))) kinds.push('Equity');
  if (yes(val(offering, 'ISDEBTTYPE'))) kinds.push('Debt');
  if (yes(val(offering, 'ISOPTIONTOACQUIRETYPE'))) kinds.push('Options');
  if (yes(val(offering, 'ISSECURITYTOBEACQUIREDTYPE'))) kinds.push('Securities to be acquired');
  if (yes(val(offering, 'ISOTHERTYPE'))) kinds.push(val(offering, 'DESCRIPTIONOFOTHERTYPE') ?? 'Other');
  return kinds.length ? `Form D offering (${kinds.join(', ')})` : 'Form D offering';
}

function amount(text: string | null): number | null {
  if (!text || !/^\d+(\.\d+)?$/.test(text.replace(/,/g, ''))) return null;
  return Number(text.replace(/,/g, ''));
}

export interface FormDReadResult {
  records: AsyncIterable<SourceRecord>;
  /** Primary-issuer rows seen so far, and how many there are in ISSUERS (for a progress bar). */
  progress: () => { done: number; total: number };
}

/**
 * Reads one quarterly data set into company records (one per live primary-issuer filing): the
 * SEC's zip as downloaded or a directory of its .tsv files, by path, or tables already in memory.
 * Throws FormDInputError when the data set cannot be read.
 */
export async function readFormD(input: string | FormDTables, options: FormDReadOptions = {}): Promise<FormDReadResult> {
  const tables = typeof input === 'string' ? formDTablesAt(input) : input;
  return readFormDTables(tables, options.amendedOfferings ?? new Map());
}

export interface FormDReadOptions {
  /**
   * Amendment accession → the accession of the filing that opened its offering, shared between the
   * quarters of one run: an amendment filed quarters after its offering names the previous filing,
   * which may itself be an amendment read in an earlier quarter.
   */
  amendedOfferings?: Map<string, string>;
}

function readFormDTables(tables: FormDTables, amendedOfferings: Map<string, string>): FormDReadResult {
  const submissions = indexBy(tables.FORMDSUBMISSION, 'FORMDSUBMISSION', false);
  const offerings = indexBy(tables.OFFERING, 'OFFERING', false);
  const persons = indexBy(tables.RELATEDPERSONS, 'RELATEDPERSONS', true);
  const issuers = [...tsvRows(tables.ISSUERS, 'ISSUERS')];
  const total = issuers.length;
  let done = 0;
  // An amendment reports the same offering as the filing it amends: it updates that round.
  const rootOf = (accession: string): string => {
    const seen = new Set<string>();
    let current = accession;
    while (!seen.has(current)) {
      seen.add(current);
      const offering = offerings.get(current)?.[0];
      const previous = yes(val(offering, 'ISAMENDMENT')) ? val(offering, 'PREVIOUSACCESSIONNUMBER') : null;
      if (!previous) break;
      current = amendedOfferings.get(previous) ?? previous;
    }
    if (current !== accession) amendedOfferings.set(accession, current);
    return current;
  };

  async function* records(): AsyncIterable<SourceRecord> {
    for (const { row: issuer, line } of issuers) {
      done += 1;
      const accession = val(issuer, 'ACCESSIONNUMBER');
      if (!accession) {
        yield { line, error: 'ISSUERS row has no ACCESSIONNUMBER' };
        continue;
      }
      const flag = val(issuer, 'IS_PRIMARYISSUER_FLAG');
      if (flag && !yes(flag)) continue; // co-issuers are reported with the primary issuer's filing
      const submission = submissions.get(accession)?.[0];
      const offering = offerings.get(accession)?.[0];
      if (!submission || !offering) {
        yield { line, error: `accession ${accession}: no ${!submission ? 'FORMDSUBMISSION' : 'OFFERING'} row` };
        continue;
      }
      if (val(submission, 'TESTORLIVE')?.toUpperCase() === 'TEST') continue;
      const industryGroup = val(offering, 'INDUSTRYGROUPTYPE');
      if (/pooled investment fund/i.test(industryGroup ?? '') || val(offering, 'INVESTMENTFUNDTYPE')) {
        yield { line, error: `accession ${accession}: pooled investment fund (excluded)` };
        continue;
      }
      const cik = val(issuer, 'CIK')?.replace(/^0+/, '') ?? null;
      const name = val(issuer, 'ENTITYNAME');
      if (!name) {
        yield { line, error: `accession ${accession}: issuer has no ENTITYNAME` };
        continue;
      }
      const stateCode = val(issuer, 'STATEORCOUNTRY');
      const state = lookupUsStateOrProvince(stateCode);
      const year = val(issuer, 'YEAROFINC_VALUE_ENTERED');
      const date = secDate(val(offering, 'SALE_DATE')) ?? secDate(val(submission, 'FILING_DATE'));
      const aliases = [
        'ISSUER_PREVIOUSNAME_1',
        'ISSUER_PREVIOUSNAME_2',
        'ISSUER_PREVIOUSNAME_3',
        'EDGAR_PREVIOUSNAME_1',
        'EDGAR_PREVIOUSNAME_2',
        'EDGAR_PREVIOUSNAME_3',
      ]
        .map((c) => val(issuer, c))
        .filter((n): n is string => !!n && !/^none$/i.test(n));
      const input: CompanyInput = {
        name,
        aliases,
        external_ids: cik ? { sec_cik: cik } : null,
        industry: industryGroup,
        founded_year: year && /^\d{4}$/.test(year) ? Number(year) : null,
        phone: val(issuer, 'ISSUERPHONENUMBER'),
        location: {
          street_address: val(issuer, 'STREET1'),
          address_line_2: val(issuer, 'STREET2'),
          locality: val(issuer, 'CITY'),
          region: state?.region ?? null,
          country: state ? state.countryCode : val(issuer, 'STATEORCOUNTRYDESCRIPTION'),
          postal_code: val(issuer, 'ZIPCODE'),
        },
        funding_rounds: [
          {
            round: roundLabel(offering),
            date,
            amount: amount(val(offering, 'TOTALAMOUNTSOLD')),
            currency: 'USD',
            investors: [],
            ref: rootOf(accession),
          },
        ],
        leadership: leadersFrom(persons.get(accession) ?? []),
      };
      yield { line, input };
    }
  }
  return { records: records(), progress: () => ({ done, total }) };
}
