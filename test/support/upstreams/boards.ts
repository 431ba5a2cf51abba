// A local copy of the job boards' public APIs (Greenhouse's Job Board API), serving the recorded
// real payloads under test/fixtures/real/jobs at the API's own paths, for `leadbase bootstrap
// --mirror greenhouse=URL`. test/fixtures/bootstrap/boards.csv lists the boards it holds.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

const REAL = join(process.cwd(), 'test', 'fixtures', 'real', 'jobs', 'greenhouse');

/** Board token → its recorded postings. */
const GREENHOUSE_BOARDS: Record<string, string> = {
  stripe: 'stripe-board-2021.json',
  generalassembly: 'generalassembly-jobs-with-content.json',
  vaulttec: 'vaulttec-docs-example.json',
};

/** The starter list of the boards this mirror holds. */
export const BOARDS_CSV = join(process.cwd(), 'test', 'fixtures', 'bootstrap', 'boards.csv');

export interface MirrorOptions {
  /** Wait this long before each answer (a slow upstream, to interrupt a run). */
  delayMs?: number;
  /** Serve only these boards (default: every recorded one). */
  boards?: Record<string, string>;
}

export async function startMirror(options: MirrorOptions = {}): Promise<{ name: string; url: string; close(): Promise<void> }> {
  const boards = options.boards ?? GREENHOUSE_BOARDS;
  const server: Server = createServer((request, response) => {
    const answer = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    };
    const reply = () => {
      // Crawlers say who they are (CRAWL_USER_AGENT); an anonymous client is turned away, as upstreams may.
      if (!request.headers['user-agent']) return answer(403, '{"error":"name yourself in User-Agent"}');
      const url = new URL(request.url ?? '/', 'http://localhost');
      const jobs = /^\/v1\/boards\/([^/]+)\/jobs$/.exec(url.pathname);
      const file = jobs ? boards[decodeURIComponent(jobs[1]).toLowerCase()] : undefined;
      if (file) return answer(200, readFileSync(join(REAL, file), 'utf8'));
      answer(404, '{"status":404,"error":"Job not found"}');
    };
    if (options.delayMs) setTimeout(reply, options.delayMs);
    else reply();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    name: 'greenhouse',
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
