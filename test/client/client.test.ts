import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createLeadbaseClient, LeadbaseConnectionError, LeadbaseError } from '../../src/client/index.ts';
import { createServer as createTcpServer } from 'node:net';
import { clientTypesSource, CLIENT_TYPES_FILE } from '../../scripts/client-types.mjs';

describe('typed client (leadbase/client) against a live server', () => {
  let t: TestApp;
  let baseUrl: string;
  const sent: Request[] = [];

  before(async () => {
    t = await startTestApp(undefined, { credits: 10 });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => t.close());

  const client = (apiKey = t.key) =>
    createLeadbaseClient({
      baseUrl,
      apiKey,
      fetch: (request) => {
        sent.push(request.clone());
        return fetch(request);
      },
    });

  it('reads typed answers, and gives each POST an Idempotency-Key of its own', async () => {
    const leadbase = client();
    const { data: credits } = await leadbase.GET('/credits');
    assert.equal(credits?.credits, 10);
    const { data: types } = await leadbase.GET('/job-types');
    assert.ok(types!.length > 0 && typeof types![0].name === 'string');
    const { data: jobs } = await leadbase.POST('/jobs-finder', { body: { job_title: 'engineer' } });
    assert.deepEqual(jobs?.results, []);
    await leadbase.POST('/jobs-finder', { body: { job_title: 'engineer' } });
    const posts = sent.filter((r) => r.method === 'POST');
    const keys = posts.map((r) => r.headers.get('idempotency-key'));
    assert.equal(keys.length, 2);
    assert.match(keys[0]!, /^[0-9a-f-]{36}$/);
    assert.notEqual(keys[0], keys[1], 'one key per call');
    assert.ok(sent.filter((r) => r.method === 'GET').every((r) => !r.headers.has('idempotency-key')));
    const given = await leadbase.POST('/jobs-finder', { body: { job_title: 'x' }, headers: { 'idempotency-key': 'my-own-key' } });
    assert.ok(given.response.ok);
    assert.equal(sent.at(-1)!.headers.get('idempotency-key'), 'my-own-key');
  });

  it('turns an error answer into a LeadbaseError with the envelope', async () => {
    await assert.rejects(client('lb_nope').GET('/credits'), (error: unknown) => {
      assert.ok(error instanceof LeadbaseError);
      assert.equal(error.status, 401);
      assert.equal(error.code, 'invalid_api_key');
      assert.ok(error.requestId);
      return true;
    });
    await assert.rejects(client().POST('/jobs-finder', { body: { per_page: 500 } as never }), (error: unknown) => {
      assert.ok(error instanceof LeadbaseError);
      assert.equal(error.code, 'invalid_request');
      assert.ok(error.details?.some((d) => d.field === '/per_page'));
      return true;
    });
  });
});

describe('typed client retries', () => {
  let server: Server;
  let baseUrl: string;
  const seen: { at: number; key: string | undefined }[] = [];

  before(async () => {
    let calls = 0;
    server = createServer((request, response) => {
      seen.push({ at: Date.now(), key: request.headers['idempotency-key'] as string | undefined });
      calls++;
      response.setHeader('content-type', 'application/json');
      if (calls === 1) {
        response.statusCode = 429;
        response.setHeader('retry-after', '1');
        return void response.end('{"error":"rate_limited","message":"slow down"}');
      }
      if (calls === 2) {
        response.statusCode = 503;
        response.setHeader('retry-after', '0');
        return void response.end('{"error":"unavailable","message":"database down"}');
      }
      response.end('{"results":[],"total":0,"page":1,"per_page":10,"credits_consumed":0}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('retries 429 and 503 after their Retry-After, with the same Idempotency-Key', async () => {
    const leadbase = createLeadbaseClient({ baseUrl, apiKey: 'k' });
    const { data } = await leadbase.POST('/jobs-finder', { body: { job_title: 'x' } });
    assert.deepEqual(data?.results, []);
    assert.equal(seen.length, 3);
    assert.ok(seen[1].at - seen[0].at >= 950, 'waited Retry-After: 1');
    assert.equal(new Set(seen.map((s) => s.key)).size, 1, 'one key across the retries: never charged twice');
  });
});

describe('typed client when no server answers (issue 40: a bare "TypeError: fetch failed" before)', () => {
  it('a closed port: LeadbaseConnectionError naming the base URL and "connection refused", the socket error as its cause', async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const leadbase = createLeadbaseClient({ baseUrl: `${baseUrl}/`, apiKey: 'k' });
    await assert.rejects(
      () => leadbase.POST('/email-validate', { body: { email: 'jane@acme.com' } }),
      (error: unknown) => {
        assert.ok(error instanceof LeadbaseConnectionError, String(error));
        assert.equal(error.name, 'LeadbaseConnectionError');
        assert.equal(error.baseUrl, baseUrl);
        assert.equal(error.reason, 'connection_refused');
        assert.equal(error.code, 'ECONNREFUSED');
        assert.equal(
          error.message,
          `Could not reach the leadbase API at ${baseUrl}: connection refused (is the server running, on this host and port?) (ECONNREFUSED).`,
        );
        assert.ok(error.cause instanceof TypeError, "fetch's own error is kept as the cause");
        assert.ok(!(error instanceof LeadbaseError), 'not an answer of the API');
        return true;
      },
    );
  });

  it('a server that accepts and never answers, under a fetch with a time limit: reason timeout', async () => {
    const silent = createTcpServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const leadbase = createLeadbaseClient({
        baseUrl,
        apiKey: 'k',
        fetch: (request) => fetch(request, { signal: AbortSignal.timeout(200) }),
      });
      await assert.rejects(
        () => leadbase.GET('/credits'),
        (error: unknown) => error instanceof LeadbaseConnectionError && error.reason === 'timeout' && error.message.includes(baseUrl),
      );
    } finally {
      silent.close();
      // The silent server's sockets stay open until closed.
      (silent as unknown as { unref(): void }).unref();
    }
  });
});

describe('generated client types', () => {
  it(`${CLIENT_TYPES_FILE} is what the served OpenAPI document produces (npm run client:generate)`, async () => {
    assert.equal(
      readFileSync(CLIENT_TYPES_FILE, 'utf8'),
      await clientTypesSource(),
      `${CLIENT_TYPES_FILE} is stale: run npm run client:generate`,
    );
    // The operators' API is documented, but the client is for API keys.
    assert.doesNotMatch(readFileSync(CLIENT_TYPES_FILE, 'utf8'), /"\/admin/);
  });
});
