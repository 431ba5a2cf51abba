// Handlers run in a second pass of each event-loop turn (src/http/plugins/handler-pass.ts): every
// request is still answered, with its own answer, whether it came alone or with many others, and a
// handler that fails answers its own request with the error envelope without holding up the rest.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { startTestApp } from '../support/app.ts';

function registerEchoRoutes(app: FastifyInstance): void {
  app.get('/test/echo/:n', async (request) => ({ n: Number((request.params as { n: string }).n) }));
  app.get('/test/throws', () => {
    throw new Error('handler failed at once');
  });
}

describe('handler pass', () => {
  it('answers each of many requests arriving together, and a lone one, over a real socket', async () => {
    const t = await startTestApp(undefined, { routes: registerEchoRoutes });
    try {
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const alone = await fetch(`${address}/test/echo/7`);
      assert.deepEqual(await alone.json(), { n: 7 });
      const answers = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          const response = await fetch(i % 10 === 3 ? `${address}/test/throws` : `${address}/test/echo/${i}`);
          return { i, status: response.status, body: (await response.json()) as Record<string, unknown> };
        }),
      );
      for (const { i, status, body } of answers) {
        if (i % 10 === 3) {
          assert.equal(status, 500);
          assert.equal(body.error, 'internal_error');
        } else {
          assert.equal(status, 200);
          assert.deepEqual(body, { n: i });
        }
      }
    } finally {
      await t.close();
    }
  });

  it('runs after every earlier stage: an authenticated route still refuses a bad key before its handler', async () => {
    const t = await startTestApp();
    try {
      const refused = await t.inject({ method: 'GET', url: '/job-types', headers: { 'x-api-key': 'lb_not_a_key' } });
      assert.equal(refused.statusCode, 401);
      const served = await Promise.all(Array.from({ length: 20 }, () => t.get('/job-types')));
      assert.ok(served.every((r) => r.statusCode === 200 && r.json().length > 0));
    } finally {
      await t.close();
    }
  });
});
