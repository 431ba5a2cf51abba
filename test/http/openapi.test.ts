import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { startTestApp, type TestApp } from '../support/app.ts';
import { V1_ROUTES } from '../../src/http/routes/v1/v1.ts';
import { OPERATIONS } from '../../src/operations/catalogue.ts';
import { ADMIN_OPERATION_IDS } from '../../src/contract/admin.ts';

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        parameters?: { name: string; in: string }[];
        tags?: string[];
        security?: Record<string, string[]>[];
        responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
      }
    >
  >;
  servers: unknown[];
  tags?: { name: string; description: string }[];
  components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> };
  info: { license: unknown };
};

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Doc;
  let text: string;

  before(async () => {
    t = await startTestApp();
    text = (await t.inject({ method: 'GET', url: '/openapi.json' })).body;
    doc = JSON.parse(text) as Doc;
  });
  after(() => t.close());

  it("passes Redocly's recommended rules with no problem at all", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: '/openapi.json', config });
    assert.deepEqual(
      problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer})`),
      [],
    );
  });

  it('lists exactly the statuses each operation can answer with, each described', () => {
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses).sort();
    assert.deepEqual(statuses('/job-types', 'get'), ['200', '401', '429', '500', '503'], 'a free lookup: no 400, 402 or 501');
    assert.deepEqual(statuses('/credits', 'get'), ['200', '401', '429', '500', '503']);
    assert.deepEqual(statuses('/credits', 'post'), ['200', '401', '409', '413', '415', '422', '429', '500', '503']);
    assert.deepEqual(statuses('/role-finder', 'post'), ['200', '400', '401', '402', '409', '413', '415', '422', '429', '500', '503']);
    assert.deepEqual(statuses('/email-validate/bulk', 'post'), ['202', '400', '401', '409', '413', '415', '422', '429', '500', '503']);
    assert.deepEqual(statuses('/email-validate/bulk/{id}', 'get'), ['200', '400', '401', '404', '429', '500', '503']);
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(methods)) {
        assert.ok(!('501' in operation.responses), `${method} ${path}: 501 is never answered`);
        for (const [status, response] of Object.entries(operation.responses))
          assert.ok(response.description && response.description !== 'Default Response', `${method} ${path} ${status} is described`);
      }
  });

  it('documents the headers, the Idempotency-Key of every POST, operation ids, servers and licence', () => {
    const funding = doc.paths['/company-funding'].post;
    assert.deepEqual(Object.keys(funding.responses['200'].headers!).sort(), [
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'X-Credits-Cost',
      'X-Credits-Remaining',
      'X-Request-Id',
    ]);
    assert.ok(funding.responses['429'].headers!['Retry-After']);
    assert.ok(funding.responses['503'].headers!['Retry-After']);
    assert.equal(doc.paths['/job-types'].get.responses['200'].headers!['X-Credits-Cost'], undefined, 'a free operation charges nothing');
    const ids = new Set<string>();
    let documented = 0;
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(methods)) {
        ids.add(operation.operationId);
        documented++;
        const idempotency = operation.parameters?.find((p) => p.name === 'idempotency-key' && p.in === 'header');
        // /mcp is a protocol endpoint answering on its own (JSON-RPC): no replay of stored answers;
        // the admin API is the operator's, not charged.
        assert.equal(
          Boolean(idempotency),
          method === 'post' && path !== '/mcp' && !path.startsWith('/admin'),
          `${method} ${path}: Idempotency-Key documented on POST only`,
        );
      }
    assert.equal(
      documented,
      Object.values(OPERATIONS).reduce((n, op) => n + op.methods.length, 0) + V1_ROUTES.length + ADMIN_OPERATION_IDS.length,
      'every operation and method, every LeadMagic v1 path and every /admin route',
    );
    assert.equal(ids.size, documented, 'one unique operationId each');
    assert.ok(ids.has('v1ValidateEmail') && ids.has('v1GetCredits'));
    assert.ok(ids.has('emailValidate') && ids.has('getCredits') && ids.has('postCredits'));
    assert.deepEqual(doc.servers, [{ url: '/', description: 'This leadbase server' }]);
    assert.doesNotMatch(text, /decisions\.md|spec part|\.\.\/shared/, 'no pointer to a document outside the repository');
  });

  it('lists the customer operations first and the admin ones last (tags order of /docs, issue 40)', () => {
    const declared = (doc.tags ?? []).map((t) => t.name);
    const used = new Set<string>();
    for (const methods of Object.values(doc.paths))
      for (const operation of Object.values(methods)) for (const tag of operation.tags ?? []) used.add(tag);
    // Swagger UI shows the declared tags in their order, then any other after them: after admin.
    for (const tag of used) assert.ok(declared.includes(tag), `tag ${tag} is declared (src/http/plugins/docs.ts)`);
    assert.equal(declared.at(-1), 'admin');
    assert.deepEqual(declared.slice(0, 2), ['email', 'people']);
    for (const tag of doc.tags ?? []) assert.ok(tag.description.length > 10, tag.name);
  });

  it('describes every /admin route under the admin tag, with the session cookie, its CSRF header or the admin token', () => {
    // Every /admin route the route files register (their spelling: app|admin.method('/admin…').
    const dir = new URL('../../src/http/routes/admin/', import.meta.url);
    const served = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => f.startsWith('admin-')))
      for (const [, method, path] of readFileSync(new URL(file, dir), 'utf8').matchAll(
        /\b(?:app|admin)\.(get|post|put|delete)\('(\/admin[^']*)'/g,
      ))
        served.add(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(methods)) {
        if (!path.startsWith('/admin')) {
          assert.ok(!operation.tags?.includes('admin'), `${method} ${path} is not an admin route`);
          continue;
        }
        documented.add(`${method} ${path}`);
        assert.deepEqual(operation.tags, ['admin'], `${method} ${path}`);
        const schemes = (operation.security ?? []).map((s) => Object.keys(s).sort().join('+'));
        if (path === '/admin/session' && method !== 'get') assert.deepEqual(schemes, [], `${method} ${path}: open to anyone`);
        else if (method === 'get') assert.deepEqual(schemes, ['adminToken', 'adminSession'], `${method} ${path}`);
        else assert.deepEqual(schemes, ['adminToken', 'adminSession+csrfToken'], `${method} ${path}: a change carries the CSRF token`);
      }
    assert.deepEqual([...documented].sort(), [...served].sort(), 'every /admin route is documented, and nothing else');
    assert.equal(documented.size, ADMIN_OPERATION_IDS.length);
    for (const path of ['post /admin/bootstrap', 'get /admin/bootstrap', 'post /admin/discovery', 'get /admin/keys/{id}/ledger'])
      assert.ok(documented.has(path), path);
    const { adminSession, csrfToken, adminToken } = doc.components.securitySchemes;
    assert.deepEqual([adminSession.type, adminSession.in, adminSession.name], ['apiKey', 'cookie', 'leadbase_session']);
    assert.deepEqual([csrfToken.type, csrfToken.in, csrfToken.name], ['apiKey', 'header', 'X-CSRF-Token']);
    assert.equal(adminToken.type, 'http');
    assert.ok(doc.tags?.some((t) => t.name === 'admin' && t.description.length > 20));
    assert.equal(doc.paths['/admin/bootstrap'].post.responses['409'].description.startsWith('bootstrap_running'), true);
  });

  it("the docs page carries our name and logo, not the framework's", async () => {
    const page = (await t.inject({ method: 'GET', url: '/docs' })).body;
    assert.match(page, /<title>leadbase API<\/title>/);
    assert.match(page, /href="[^"]*favicon\.svg"/);
    assert.doesNotMatch(page, /favicon-(16|32)x(16|32)\.png/);
    const initializer = (await t.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' })).body;
    const logo = initializer.match(/data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/)?.[1];
    assert.ok(logo, 'the logo is replaced');
    assert.match(Buffer.from(logo, 'base64').toString('utf8'), />leadbase</);
  });
});
