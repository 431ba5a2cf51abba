// A local stand-in for the SEC's Form D data sets: one zip per quarter at the SEC's own path
// (/files/structureddata/data/form-d-data-sets/2024q1_d.zip), laid out as the SEC lays it out (the
// tables in a 2024Q1_d/ folder beside the two tables leadbase does not read). Like the SEC it refuses
// a request without a declared User-Agent (403), answers 429 past 10 requests in a second, and 404
// for a quarter not published yet.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';

const FIXTURE = 'test/fixtures/companies/formd';
const TABLES = ['FORMDSUBMISSION', 'ISSUERS', 'OFFERING', 'RELATEDPERSONS'] as const;
/** The quarter the recorded rows were filed in. */
const RECORDED_QUARTER = '2024q1';
const PATH = /^\/files\/structureddata\/data\/form-d-data-sets\/(\d{4})q([1-4])_d\.zip$/;

export interface SecMirrorOptions {
  /** A quarter's zip, or null to use the default (the recorded rows in 2024q1, headers only elsewhere). */
  zipOf?: (year: number, quarter: number) => Uint8Array | null;
  /** The last published quarter as [year, quarter] (default: the last one that ended); later ones answer 404. Read at each request. */
  publishedThrough?: [number, number];
  /** Added before each answer, in milliseconds. */
  latencyMs?: number;
  /** Requests allowed in any second before 429 (default 10, as the SEC's fair-access rule). */
  perSecond?: number;
  /** Whether to drop this request's connection without an answer (logged with status 0). */
  drop?: (year: number, quarter: number) => boolean;
}

export interface SecMirror {
  name: string;
  url: string;
  /** Every request: path, status, User-Agent. */
  log: { path: string; status: number; userAgent: string }[];
  close(): Promise<void>;
}

/** A quarter's zip as the SEC publishes it, from the bytes of its four tables. */
export function formDZip(year: number, quarter: number, tables: Record<string, Uint8Array>): Uint8Array {
  const folder = `${year}Q${quarter}_d`;
  const files: Record<string, Uint8Array> = {};
  for (const table of TABLES) files[`${folder}/${table}.tsv`] = tables[table];
  files[`${folder}/RECIPIENTS.tsv`] = Buffer.from('ACCESSIONNUMBER\tRECIPIENT_SEQ_KEY\tRECIPIENTNAME\n');
  files[`${folder}/SIGNATURES.tsv`] = Buffer.from('ACCESSIONNUMBER\tSIGNATURE_SEQ_KEY\tISSUERNAME\tSIGNATURENAME\n');
  files[`${folder}/FormD_readme.html`] = Buffer.from('<html><body>Form D Data Sets</body></html>');
  return zipSync(files, { level: 6 });
}

function defaultZipOf(year: number, quarter: number): Uint8Array {
  const tables = Object.fromEntries(
    TABLES.map((table) => {
      const text = readFileSync(join(FIXTURE, `${table}.tsv`));
      // Outside the recorded quarter, a data set with its header rows only.
      const body = `${year}q${quarter}` === RECORDED_QUARTER ? text : text.subarray(0, text.indexOf(10) + 1);
      return [table, body];
    }),
  );
  return formDZip(year, quarter, tables);
}

/** The last quarter that ended before now, as [year, quarter]. */
function lastEndedQuarter(): [number, number] {
  const now = new Date();
  const index = now.getUTCFullYear() * 4 + Math.floor(now.getUTCMonth() / 3) - 1;
  return [Math.floor(index / 4), (index % 4) + 1];
}

export async function startMirror(options: SecMirrorOptions = {}): Promise<SecMirror> {
  const zipOf = options.zipOf ?? (() => null);
  const cache = new Map<string, Uint8Array>();
  const recent: number[] = [];
  const log: SecMirror['log'] = [];
  const server = createServer((request, response) => {
    const userAgent = request.headers['user-agent'] ?? '';
    const answer = (status: number, body: Uint8Array | string, type = 'text/plain') => {
      log.push({ path: request.url ?? '', status, userAgent });
      response.statusCode = status;
      response.setHeader('content-type', type);
      if (status === 429) response.setHeader('retry-after', '1');
      setTimeout(() => response.end(body), options.latencyMs ?? 0);
    };
    const now = Date.now();
    while (recent.length && recent[0] <= now - 1000) recent.shift();
    recent.push(now);
    // The SEC refuses undeclared tools and browsers' generic strings: a program names itself.
    if (!userAgent || /^Mozilla\//.test(userAgent)) return answer(403, 'Undeclared Automated Tool');
    if (recent.length > (options.perSecond ?? 10)) return answer(429, 'Request Rate Threshold Exceeded');
    const match = PATH.exec(new URL(request.url ?? '/', 'http://localhost').pathname);
    if (!match) return answer(404, 'Not Found');
    const year = Number(match[1]);
    const quarter = Number(match[2]);
    const [lastYear, lastQuarter] = options.publishedThrough ?? lastEndedQuarter();
    if (year < 2009 || year * 4 + quarter > lastYear * 4 + lastQuarter) return answer(404, 'Not Found');
    if (options.drop?.(year, quarter)) {
      log.push({ path: request.url ?? '', status: 0, userAgent });
      return void request.socket.destroy();
    }
    const key = `${year}q${quarter}`;
    let zip = zipOf(year, quarter) ?? cache.get(key);
    if (!zip) cache.set(key, (zip = defaultZipOf(year, quarter)));
    answer(200, zip, 'application/zip');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    name: 'sec',
    url,
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
