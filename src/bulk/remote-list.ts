// A bulk job's rows from a file at a URL the client names (`fileUrl`, docs/bulk.md): fetched through
// the guarded HTTP client (public addresses only, each redirect checked, a time limit and a size
// cap), then read as CSV, a JSON array or JSON Lines by its Content-Type, or by its first bytes and
// its name when the type does not say. A file that cannot be fetched or read is refused saying why;
// it is never read as an empty list.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { FetchError, type HttpClient } from '../net/http-client.ts';
import { BulkInputError } from './errors.ts';
import { csvHeaderOf, fileText, listFormatOf, rowsFromText } from './list-files.ts';
import { columnsOfRows } from './input-mapping.ts';

const FIELD = '/fileUrl';

export interface RemoteListOptions {
  /** Largest file read, after decompression (bytes). */
  maxBytes: number;
  /** The whole fetch, headers and body. */
  timeoutMs: number;
}

/** A remote list refused: `tooLarge` when it is larger than the cap (the API answers 413). */
export class RemoteListError extends BulkInputError {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message, FIELD);
  }
}

/** The URL, if it is one we fetch: http or https, no user name or password in it. */
function urlOf(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RemoteListError('fileUrl is not a URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RemoteListError('fileUrl must be an http or https URL.');
  if (url.username || url.password) throw new RemoteListError('fileUrl must not carry a user name or password.');
  return url;
}

/** The body decoded as its Content-Encoding says, within the cap. */
function decoded(body: Buffer, encoding: string | undefined, maxBytes: number): Buffer {
  const coding = (encoding ?? '').trim().toLowerCase();
  if (!coding || coding === 'identity') return body;
  const options = { maxOutputLength: maxBytes };
  try {
    if (coding === 'gzip' || coding === 'x-gzip') return gunzipSync(body, options);
    if (coding === 'deflate') return inflateSync(body, options);
    if (coding === 'br') return brotliDecompressSync(body, options);
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new RemoteListError(`The file at fileUrl is larger than ${maxBytes} bytes once decompressed.`, true);
    throw new RemoteListError(`The file at fileUrl cannot be decompressed (${coding}).`);
  }
  throw new RemoteListError(`The file at fileUrl is sent with a Content-Encoding we do not read (${coding}).`);
}

/** The rows of the file at `fileUrl` and its columns, or a RemoteListError saying why it cannot be read. */
export async function fetchRemoteList(
  http: HttpClient,
  fileUrl: string,
  options: RemoteListOptions,
): Promise<{ rows: unknown[]; columns: string[] }> {
  const url = urlOf(fileUrl);
  let answer;
  try {
    answer = await http.get(url.toString(), {
      accept: 'text/csv, application/json, application/x-ndjson;q=0.9, */*;q=0.5',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
      maxBytes: options.maxBytes,
      timeoutMs: options.timeoutMs,
    });
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    if (error.reason === 'too_large') throw new RemoteListError(`The file at fileUrl is larger than ${options.maxBytes} bytes.`, true);
    if (error.reason === 'timeout') throw new RemoteListError(`The file at fileUrl did not arrive within ${options.timeoutMs / 1000} s.`);
    if (error.reason === 'not_public')
      throw new RemoteListError('fileUrl must be on a public address (not a private, loopback or local one).');
    throw new RemoteListError(`The file at fileUrl cannot be fetched: ${error.message}`);
  }
  if (answer.status < 200 || answer.status >= 300) throw new RemoteListError(`fileUrl answered HTTP ${answer.status}, not the file.`);
  const text = fileText(decoded(answer.body, answer.headers['content-encoding'], options.maxBytes), 'The file at fileUrl', FIELD);
  const type = (answer.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const format = listFormatOf(type, text, new URL(answer.url).pathname);
  if (!format) throw new RemoteListError(`The file at fileUrl is ${type}, not a CSV, JSON array or JSON Lines file.`);
  const rows = rowsFromText(text, format, FIELD);
  return { rows, columns: format === 'csv' ? csvHeaderOf(text) : columnsOfRows(rows) };
}
