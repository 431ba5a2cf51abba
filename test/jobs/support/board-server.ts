// A local stand-in for the job boards: serves the recorded payloads of test/fixtures/jobs at the
// paths each real API uses, on 127.0.0.1. It can fail the first requests of a path (to exercise
// retries), delay answers, and it records how many requests were in flight at once.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FIXTURES = new URL('../../fixtures/jobs/', import.meta.url);

export function fixture(name: string): string {
  return readFileSync(new URL(name, FIXTURES), 'utf8');
}

export interface Route {
  /** Fixture file name, or a function producing the body. */
  body: string | (() => string);
  contentType?: string;
  /** Answer 503 to this many requests first. */
  failFirst?: number;
  status?: number;
}

export interface BoardServer {
  origin: string;
  routes: Map<string, Route>;
  hits: Map<string, number>;
  peakInFlight: number;
  close(): Promise<void>;
}

export async function startBoardServer(routes: Record<string, Route>, delayMs = 0): Promise<BoardServer> {
  const table = new Map(Object.entries(routes));
  const hits = new Map<string, number>();
  let inFlight = 0;
  const state = { peakInFlight: 0 };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const count = (hits.get(path) ?? 0) + 1;
    hits.set(path, count);
    inFlight++;
    state.peakInFlight = Math.max(state.peakInFlight, inFlight);
    const finish = (status: number, body: string, type = 'application/json') => {
      setTimeout(() => {
        inFlight--;
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      }, delayMs);
    };
    const route = table.get(path);
    if (!route) return finish(404, '{"error":"not found"}');
    if (route.failFirst && count <= route.failFirst) return finish(503, '{"error":"unavailable"}');
    const body = typeof route.body === 'function' ? route.body() : fixture(route.body);
    finish(route.status ?? 200, body, route.contentType);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    routes: table,
    hits,
    get peakInFlight() {
      return state.peakInFlight;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every board of the fixtures at the paths of the real APIs. */
export const BOARD_ROUTES: Record<string, Route> = {
  '/v1/boards/acmerobotics/jobs?content=true&pay_transparency=true': { body: 'greenhouse-jobs.json' },
  '/v1/boards/acmerobotics': { body: 'greenhouse-board.json' },
  '/v0/postings/northwind?mode=json': { body: 'lever-postings.json' },
  '/v0/postings/eastwind?mode=json': { body: 'lever-postings.json' },
  '/v0/postings/westwind?mode=json': { body: 'lever-postings.json' },
  '/posting-api/job-board/lumen?includeCompensation=true': { body: 'ashby-board.json' },
  '/api/v1/widget/accounts/helios?details=true': { body: 'workable-account.json' },
  '/v1/companies/MercyHealth/postings?limit=100&offset=0': { body: 'smartrecruiters-postings.json' },
  '/v1/companies/MercyHealth/postings/744000012345678': { body: 'smartrecruiters-posting-744000012345678.json' },
  '/v1/companies/MercyHealth/postings/744000012345679': { body: 'smartrecruiters-posting-744000012345679.json' },
  '/api/offers/': { body: 'recruitee-offers.json' },
  '/xml?language=en': { body: 'personio.xml', contentType: 'application/xml' },
  '/careers': { body: 'careers-jsonld.html', contentType: 'text/html' },
  // Lever and Ashby name their company on the board's own page (its title; Ashby's embedded organization).
  ...Object.fromEntries(
    ['northwind', 'eastwind', 'westwind'].map((board) => [
      `/${board}`,
      { body: () => `<html><head><title>${board[0].toUpperCase()}${board.slice(1)} Ltd</title></head></html>`, contentType: 'text/html' },
    ]),
  ),
  '/lumen': {
    body: () => '<script>window.__appData = {"organization":{"name":"Lumen Labs","publicWebsite":"https://lumen.example"}};</script>',
    contentType: 'text/html',
  },
};
