// A local download.companieshouse.gov.uk: the listing page (en_output.html, in the page's
// recorded markup) linking a release as one zip and in parts, and the zips at the real paths
// (/BasicCompanyDataAsOneFile-YYYY-MM-01.zip, /BasicCompanyData-YYYY-MM-01-partN_M.zip). The default
// release is this month's, made of recorded real rows (test/fixtures/real/ORIGINS.md).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { zipSync, strToU8 } from 'fflate';

const SAMPLE = 'test/fixtures/real/companies/companies-house/basic-sample-2021.csv';

/** A file served: in memory, or on disk (a generated file of millions of rows). */
export type ServedFile = { body: Buffer } | { path: string };

export interface CompaniesHouseServerOptions {
  /** Release date, YYYY-MM-DD (default: the first of this month). */
  date?: string;
  /** The one-file zip of the release. */
  oneFile?: ServedFile;
  /** The release's parts, in order. */
  parts?: ServedFile[];
  /** Whether the listing page links the files (false: a page whose layout we no longer read). */
  listLinks?: boolean;
  /** Waited before each answer (the upstream's round trip). */
  latencyMs?: number;
}

export interface CompaniesHouseServer {
  name: string;
  url: string;
  /** Paths asked for, in order. */
  requests: string[];
  /** Replaces (or, with undefined, removes) the file served at a path. */
  serve(path: string, file: ServedFile | undefined): void;
  close(): Promise<void>;
}

/** This month's release date (the register publishes on the first). */
export function currentReleaseDate(now = Date.now()): string {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString().slice(0, 10);
}

/** The recorded sample as the release's one zip and as two parts (each part a CSV with the header, as published). */
export function sampleRelease(date: string): { oneFile: ServedFile; parts: ServedFile[] } {
  const text = readFileSync(SAMPLE, 'utf8');
  const lines = text.split('\n').filter((l) => l.length);
  const header = lines[0];
  const rows = lines.slice(1);
  const half = Math.ceil(rows.length / 2);
  // The release's own date as the entries' time, not now: two calls straddling a second of the
  // zip format's two-second clock gave different bytes.
  const mtime = new Date(`${date}T00:00:00Z`);
  const zip = (name: string, body: string) => ({ body: Buffer.from(zipSync({ [name]: strToU8(body) }, { mtime })) });
  return {
    oneFile: zip(`BasicCompanyDataAsOneFile-${date}.csv`, text),
    parts: [
      zip(`BasicCompanyData-${date}-part1_2.csv`, `${[header, ...rows.slice(0, half)].join('\n')}\n`),
      zip(`BasicCompanyData-${date}-part2_2.csv`, `${[header, ...rows.slice(half)].join('\n')}\n`),
    ],
  };
}

const sizeOf = (file: ServedFile) => ('body' in file ? file.body.length : statSync(file.path).size);
const mb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1e6))}Mb`;

function listing(date: string, oneFile: ServedFile | undefined, parts: ServedFile[], links: boolean): string {
  const item = (name: string, file: ServedFile) =>
    links ? `<li><a href="${name}">\n${name}  (${mb(sizeOf(file))})</a></li>` : `<li>${name}  (${mb(sizeOf(file))})</li>`;
  return `<!DOCTYPE html>
<html lang="en"><head><title>Companies House Data Products</title></head>
<body>
<div class="grid_7 push_1 omega">
<h1>Free Company Data Product</h1>
<h2>Company data as one file:</h2>
<ul>${oneFile ? item(`BasicCompanyDataAsOneFile-${date}.zip`, oneFile) : ''}</ul>
<h2>Company data as multiple files:</h2>
<ul>
${parts.map((p, i) => item(`BasicCompanyData-${date}-part${i + 1}_${parts.length}.zip`, p)).join('\n')}
</ul>
</div>
</body></html>
`;
}

/** Starts the server; every request must name its sender in a User-Agent (403 otherwise). */
export async function startCompaniesHouseServer(options: CompaniesHouseServerOptions = {}): Promise<CompaniesHouseServer> {
  const date = options.date ?? currentReleaseDate();
  const sample = options.oneFile || options.parts ? null : sampleRelease(date);
  const oneFile = options.oneFile ?? sample?.oneFile;
  const parts = options.parts ?? sample?.parts ?? [];
  const files = new Map<string, ServedFile>();
  if (oneFile) files.set(`/BasicCompanyDataAsOneFile-${date}.zip`, oneFile);
  parts.forEach((p, i) => files.set(`/BasicCompanyData-${date}-part${i + 1}_${parts.length}.zip`, p));
  const page = listing(date, oneFile, parts, options.listLinks ?? true);
  const requests: string[] = [];

  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://local').pathname;
    requests.push(path);
    if (options.latencyMs) await sleep(options.latencyMs);
    if (!/\(.*\)|https?:|@/.test(request.headers['user-agent'] ?? '')) {
      response.writeHead(403, { 'content-type': 'text/plain' }).end('name yourself and a contact in your User-Agent');
      return;
    }
    if (path === '/en_output.html' || path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      return;
    }
    const file = files.get(path);
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>404 Not Found</h1></body></html>');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(sizeOf(file)) });
    if ('body' in file) response.end(file.body);
    else createReadStream(file.path).pipe(response);
  };
  const server = createServer((request, response) => {
    answer(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    name: 'companies-house',
    url,
    requests,
    serve(path, file) {
      if (file) files.set(path, file);
      else files.delete(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The upstream's mirror for end-to-end runs: this month's release of recorded rows. */
export async function startMirror(): Promise<{ name: string; url: string; close(): Promise<void> }> {
  return startCompaniesHouseServer();
}
