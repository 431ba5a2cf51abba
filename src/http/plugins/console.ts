// The console (docs/console.md): the files `npm run build` bundles into dist/console, served at
// /console by this instance. Nothing is fetched from elsewhere; the content security policy says so.
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** dist/console, from src/http/plugins or dist/http/plugins alike. */
const CONSOLE_DIR = join(fileURLToPath(new URL('../../../', import.meta.url)), 'dist', 'console');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

const POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

async function send(reply: FastifyReply, name: string): Promise<FastifyReply> {
  let body: Buffer;
  try {
    body = await readFile(join(CONSOLE_DIR, name));
  } catch {
    if (name !== 'index.html') return reply.status(404).send({ error: 'not_found', message: `No console file ${name}.` });
    return reply
      .status(503)
      .send({ error: 'unavailable', message: 'The console is not built: run `npm run build` (it bundles console/ into dist/console).' });
  }
  return reply
    .header('content-type', TYPES[extname(name)] ?? 'application/octet-stream')
    .header('content-security-policy', POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-cache')
    .send(body);
}

async function consolePlugin(app: FastifyInstance): Promise<void> {
  const hidden = { schema: { hide: true } };
  app.get('/console', hidden, (_request, reply) => send(reply, 'index.html'));
  app.get('/console/*', hidden, (request, reply) => {
    const name = (request.params as { '*': string })['*'] || 'index.html';
    // Flat folder: one name of letters, digits, dots and dashes.
    if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(name))
      return reply.status(404).send({ error: 'not_found', message: 'No such console file.' });
    return send(reply, name);
  });
}

export default fp(consolePlugin, { name: 'console', dependencies: ['errors'] });
