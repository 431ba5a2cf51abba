import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../support/app.ts';
import { registerChargeRoute } from '../support/charge-route.ts';

const DATA_PATHS = ['/email-validate', '/company-funding', '/jobs-finder', '/role-finder', '/mobile-finder', '/b2b-profile-email'];
const LOOKUP_PATHS = ['/job-types', '/job-country', '/job-regions', '/job-company-types', '/job-industries'];

describe('operations', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(undefined, { routes: registerChargeRoute });
  });
  after(() => t.close());

  it('health and readiness', async () => {
    assert.deepEqual((await t.inject({ method: 'GET', url: '/healthz' })).json(), { status: 'ok' });
    const ready = await t.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.equal(ready.json().checks.database, 'ok');
  });

  it('request ids: generated, or kept from X-Request-Id', async () => {
    const generated = await t.get('/credits');
    assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const given = await t.get('/credits', { 'x-request-id': 'trace-123' });
    assert.equal(given.headers['x-request-id'], 'trace-123');
  });

  it('Prometheus metrics: requests, latency, credits charged', async () => {
    await t.post('/test/charge', { cost: 2000 });
    const res = await t.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /leadbase_http_requests_total\{method="POST",route="\/test\/charge",status="200"\} 1/);
    assert.match(res.body, /leadbase_http_request_duration_seconds_bucket\{le="0.005",method="POST",route="\/test\/charge"\}/);
    assert.match(res.body, /leadbase_credits_charged_total\{operation="test-charge"\} 2/);
  });

  it('OpenAPI 3.1 generated from the contract, with every endpoint and the key scheme', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.equal(doc.openapi, '3.1.0');
    for (const path of DATA_PATHS) {
      assert.ok(doc.paths[path]?.post, `POST ${path}`);
      assert.ok(doc.paths[path].post.requestBody, `${path} has a request body schema`);
      assert.ok(doc.paths[path].post.responses['200'], `${path} documents 200`);
    }
    for (const path of LOOKUP_PATHS) assert.ok(doc.paths[path]?.get, `GET ${path}`);
    assert.ok(doc.paths['/credits'].get && doc.paths['/credits'].post);
    assert.deepEqual(doc.components.securitySchemes.apiKey, {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: 'Your API key (leadbase keys create)',
    });
    const jobs = doc.paths['/jobs-finder'].post.requestBody.content['application/json'].schema;
    assert.equal(jobs.properties.per_page.maximum, 50);
    assert.equal(doc.paths['/healthz'], undefined, 'operational routes are hidden');
  });

  it('a docs page that needs no internet', async () => {
    const page = await t.inject({ method: 'GET', url: '/docs' });
    const html = page.statusCode === 302 ? (await t.inject({ method: 'GET', url: String(page.headers.location) })).body : page.body;
    assert.match(html, /swagger-ui/i);
    assert.doesNotMatch(html, /https?:\/\/(?!localhost)[a-z0-9.-]+\/[^"']*\.(js|css)/i, 'no assets from other hosts');
    const script = await t.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    assert.equal(script.statusCode, 200);
    const init = await t.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    assert.equal(init.statusCode, 200);
  });
});
