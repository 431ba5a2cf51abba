// A bulk list as a submit or a review sends it (docs/bulk.md, "Submit"): its rows from `rows`, `csv`
// or `fileUrl` (exactly one), with `inputMapping` applied. Shared by POST /bulk and POST /bulk/review
// so that a review reads exactly what the submit would queue.
import type { Services } from '../services.ts';
import { BULK_PRODUCTS } from '../contract/bulk.ts';
import { BulkInputError } from '../bulk/service.ts';
import { columnsOfRows, mapRows, readInputMapping, unusedColumns, type ColumnMapping } from '../bulk/input-mapping.ts';
import { csvHeaderOf, fileText, listFormatOf, rowsFromText } from '../bulk/list-files.ts';
import { fetchRemoteList, RemoteListError } from '../bulk/remote-list.ts';
import { AppError, InvalidRequestError } from '../operations/errors.ts';
import { bulkFieldsOf } from '../operations/bulk-products.ts';
import type { FormPart } from './multipart.ts';

export type BulkListBody = {
  product: (typeof BULK_PRODUCTS)[number];
  rows?: unknown[];
  csv?: string;
  fileUrl?: string;
  inputMapping?: Record<string, string>;
};

/** A remote file: as large as an inline list may be, fetched within 30 s. */
const REMOTE_LIST = { maxBytes: 64 * 1024 * 1024, timeoutMs: 30_000 };

/** What LeadMagic's other submit forms get: a browser crawl and upload sessions are not run here. */
export const SCRAPE_UNSUPPORTED =
  'A browser crawl (scrape) is not run by this server: send the rows as rows, csv or fileUrl to POST /bulk/submit.';
export const FILE_UNSUPPORTED =
  'POST /bulk/file takes a multipart/form-data body (a product field and a file part); upload sessions are not taken by this server: send the CSV text as csv, or the file as fileUrl, to POST /bulk/submit.';

export interface BulkList {
  rows: unknown[];
  columns: string[];
  mapping: ColumnMapping[];
  unusedColumns: string[];
}

/** A refused list in the envelope: 413 for a remote file over the cap, else 400 naming the field. */
export function bulkInputFailure(error: BulkInputError): AppError {
  if (error instanceof RemoteListError && error.tooLarge) return new AppError(413, 'payload_too_large', error.message);
  return new InvalidRequestError(error.message, [{ field: error.field, message: error.message }]);
}

/** The list's rows, mapped, and what the mapping made of its columns. Throws BulkInputError. */
export async function readBulkList(services: Services, body: BulkListBody): Promise<BulkList> {
  if ('scrape' in body) throw new BulkInputError(SCRAPE_UNSUPPORTED, '/scrape');
  const given = (['rows', 'csv', 'fileUrl'] as const).filter((field) => body[field] !== undefined);
  if (given.length !== 1) {
    throw new InvalidRequestError('Send the rows as rows (a JSON array), csv (CSV text) or fileUrl (a file to fetch): one of the three.', [
      { field: '/rows', message: 'exactly one of rows, csv and fileUrl is required' },
      { field: '/csv', message: 'exactly one of rows, csv and fileUrl is required' },
      { field: '/fileUrl', message: 'exactly one of rows, csv and fileUrl is required' },
    ]);
  }
  let list: { rows: unknown[]; columns: string[] };
  if (body.rows) list = { rows: body.rows, columns: columnsOfRows(body.rows) };
  else if (body.csv !== undefined) list = { rows: rowsFromText(body.csv, 'csv', '/csv'), columns: csvHeaderOf(body.csv) };
  else list = await fetchRemoteList(services.sources.http, body.fileUrl!, REMOTE_LIST);
  const fields = bulkFieldsOf(body.product);
  const mapping = readInputMapping(body.inputMapping ?? {}, fields, list.columns);
  return {
    rows: mapRows(list.rows, mapping),
    columns: list.columns,
    mapping,
    unusedColumns: unusedColumns(list.columns, mapping, fields),
  };
}

/** A form part's text (fields are short UTF-8 text). */
const partText = (part: FormPart) => part.body.toString('utf8').trim();

/**
 * The body of POST /bulk/file (multipart/form-data) as a submit's: a `product` field, one file part
 * (the part named `file`, else the one part with a file name; CSV, a JSON array or JSON Lines, by its
 * type, else its first bytes and name) and an optional `inputMapping` field holding a JSON object.
 */
export function bulkListOfForm(parts: readonly FormPart[]): BulkListBody {
  const field = (name: string) => parts.find((p) => p.name === name && p.filename === null);
  const product = field('product') ? partText(field('product')!) : undefined;
  if (!product || !(BULK_PRODUCTS as readonly string[]).includes(product))
    throw new InvalidRequestError(`The form's product field must be one of ${BULK_PRODUCTS.join(', ')}.`, [
      { field: '/product', message: 'unknown product' },
    ]);
  const files = parts.filter((p) => p.filename !== null);
  const file = parts.find((p) => p.name === 'file') ?? (files.length === 1 ? files[0] : undefined);
  if (!file)
    throw new InvalidRequestError('The form has no file part: send the list as a part named file.', [
      { field: '/file', message: 'is required' },
    ]);
  let inputMapping: Record<string, string> | undefined;
  const mappingPart = field('inputMapping');
  if (mappingPart) {
    let value: unknown;
    try {
      value = JSON.parse(partText(mappingPart));
    } catch {
      value = undefined;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string'))
      throw new InvalidRequestError("The form's inputMapping field must hold a JSON object of column and field names.", [
        { field: '/inputMapping', message: 'must be a JSON object of strings' },
      ]);
    inputMapping = value as Record<string, string>;
  }
  const text = fileText(file.body, 'The file part', '/file');
  const format = listFormatOf(file.type, text, file.filename ?? '');
  if (!format) throw new BulkInputError(`The file part is ${file.type}, not a CSV, JSON array or JSON Lines file.`, '/file');
  const list = format === 'csv' ? { csv: text } : { rows: rowsFromText(text, format, '/file') };
  return { product: product as BulkListBody['product'], ...list, ...(inputMapping ? { inputMapping } : {}) };
}
