// A local stand-in for the job boards and sites crawls reach: an HTTP server on 127.0.0.1 serving
// recorded payloads (test/fixtures/real), with the faults a real host shows on demand.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';

export const GREENHOUSE_STRIPE = readFileSync('test/fixtures/real/jobs/greenhouse/stripe-board-2021.json', 'utf8');
export const GREENHOUSE_GA = readFileSync('test/fixtures/real/jobs/greenhouse/generalassembly-jobs-with-content.json', 'utf8');

export type Route = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

export interface CrawlWorld {
  port: number;
  origin: string;
  /** `host:port`, for the test-only allowance of loopback targets. */
  host: string;
  /** Requests seen, by path (query included). */
  hits: Map<string, number>;
  /** Conditional headers of each request, in order. */
  log: { path: string; ifNoneMatch?: string; ifModifiedSince?: string; userAgent?: string; at: number }[];
  /** Most requests in flight at once. */
  peakInFlight(): number;
  route(path: string, handler: Route): void;
  close(): Promise<void>;
}

export async function startCrawlWorld(): Promise<CrawlWorld> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const log: CrawlWorld['log'] = [];
  let inFlight = 0;
  let peak = 0;
  const server: Server = createServer((request, response) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    response.on('close', () => inFlight--);
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    log.push({
      path,
      ifNoneMatch: request.headers['if-none-match'],
      ifModifiedSince: request.headers['if-modified-since'],
      userAgent: request.headers['user-agent'],
      at: Date.now(),
    });
    const handler = routes.get(path) ?? routes.get(path.split('?')[0]);
    if (!handler) {
      response.statusCode = 404;
      response.end('{"error":"not found"}');
      return;
    }
    Promise.resolve(handler(request, response)).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    hits,
    log,
    peakInFlight: () => peak,
    route: (path, handler) => routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A Greenhouse board at `token`: its jobs endpoint (with `body()` as the payload) and its name endpoint. */
export function greenhouseBoard(world: CrawlWorld, token: string, body: () => string, options: { etag?: string } = {}): void {
  world.route(`/v1/boards/${token}`, (_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ name: `Board ${token}` }));
  });
  world.route(`/v1/boards/${token}/jobs`, (request, response) => {
    const payload = body();
    if (options.etag && request.headers['if-none-match'] === options.etag) {
      response.statusCode = 304;
      response.end();
      return;
    }
    response.setHeader('content-type', 'application/json');
    if (options.etag) response.setHeader('etag', options.etag);
    response.end(payload);
  });
}

/** A company's site open to crawlers, whose home page links /careers, which links the job board at `boardUrl`. */
export async function startCareersSite(boardUrl: string): Promise<CrawlWorld> {
  const site = await startCrawlWorld();
  const html =
    (body: string): Route =>
    (_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(body);
    };
  site.route('/robots.txt', (_request, response) => void response.end('User-agent: *\nAllow: /\n'));
  site.route('/', html('<html><body><a href="/careers">Careers</a></body></html>'));
  site.route('/careers', html(`<html><body><a href="${boardUrl}">Open roles</a></body></html>`));
  return site;
}
