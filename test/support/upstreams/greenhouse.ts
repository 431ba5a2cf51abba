// A local stand-in for Greenhouse's Job Board API (boards-api.greenhouse.io) on 127.0.0.1, serving
// the recorded real boards of test/fixtures/real/jobs/greenhouse (origins in ORIGINS.md) at the API's
// own paths: `stripe` and `generalassembly`, both in the starter list of boards. Any other board is a
// 404, as Greenhouse answers for a token it does not know; so is a board's name endpoint, of which no
// recording is held (a board is then named by its source, else its token). A request without a
// User-Agent is refused: every crawl names its operator.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const BOARDS: Record<string, string> = {
  stripe: 'stripe-board-2021.json',
  generalassembly: 'generalassembly-jobs-with-content.json',
};

export async function startMirror(): Promise<{ name: string; url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://mirror').pathname;
    const send = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    };
    if (!request.headers['user-agent']) return send(403, '{"error":"a User-Agent naming the operator is required"}');
    const board = /^\/v1\/boards\/([^/]+)\/jobs$/.exec(path)?.[1];
    const file = board ? BOARDS[board.toLowerCase()] : undefined;
    if (!file) return send(404, '{"status":404,"error":"Job not found"}');
    send(200, readFileSync(new URL(`../../fixtures/real/jobs/greenhouse/${file}`, import.meta.url), 'utf8'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    name: 'greenhouse',
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
