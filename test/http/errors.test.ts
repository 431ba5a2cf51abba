import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../support/app.ts';
import { OPERATIONS } from '../../src/operations/catalogue.ts';

function assertEnvelope(res: { statusCode: number; body: string; headers: Record<string, unknown> }, status: number, code: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /application\/json/);
  const body = JSON.parse(res.body);
  assert.equal(body.error, code);
  assert.equal(typeof body.message, 'string');
  assert.ok(body.message.length > 0);
  assert.doesNotMatch(res.body, /\bat \S+ \(|node_modules|\.ts:\d+/, 'no stack trace in the body');
  return body;
}

describe('error envelope (docs/contract.md, Errors)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    t.app.log.level = 'silent';
  });
  after(() => t.close());

  it('400 for malformed JSON', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/jobs-finder',
      headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
      payload: '{"page": ',
    });
    assertEnvelope(res, 400, 'invalid_request');
  });

  it('400 with details for wrong types (a number written as digits, "2", is read as 2; "two" is not)', async () => {
    const body = assertEnvelope(await t.post('/jobs-finder', { page: 'two' }), 400, 'invalid_request');
    assert.deepEqual(body.details, [{ field: '/page', message: 'must be integer' }]);
    assert.equal((await t.post('/jobs-finder', { page: '2' })).statusCode, 200);
    assertEnvelope(await t.post('/jobs-finder', { has_remote: 'yes' }), 400, 'invalid_request');
    assertEnvelope(await t.post('/email-validate', { email: 42 }), 400, 'invalid_request');
    assertEnvelope(await t.post('/jobs-finder', []), 400, 'invalid_request');
  });

  it('400 for missing required fields and the required-field rules', async () => {
    const email = assertEnvelope(await t.post('/email-validate', {}), 400, 'invalid_request');
    assert.deepEqual(email.details, [{ field: '/email', message: 'is required' }]);
    assert.equal(email.message, 'Invalid request: email is required.');
    const funding = assertEnvelope(await t.post('/company-funding', {}), 400, 'invalid_request');
    assert.equal(funding.message, 'Provide at least one of company_name, company_domain or profile_url.');
    assertEnvelope(await t.post('/company-funding', { company_name: '  ' }), 400, 'invalid_request');
    const mobile = assertEnvelope(await t.post('/mobile-finder', {}), 400, 'invalid_request');
    assert.equal(mobile.message, 'Provide at least one of profile_url, work_email or personal_email.');
    assertEnvelope(await t.post('/b2b-profile-email', {}), 400, 'invalid_request');
    assertEnvelope(await t.post('/role-finder', { company_name: 'Acme' }), 400, 'invalid_request');
    assertEnvelope(await t.post('/role-finder', { job_title: 'CEO' }), 400, 'invalid_request');
    assertEnvelope(await t.post('/email-validate'), 400, 'invalid_request');
  });

  it('400 for unknown enum values and per_page > 50', async () => {
    const level = assertEnvelope(await t.post('/jobs-finder', { experience_level: 'guru' }), 400, 'invalid_request');
    assert.deepEqual(level.details, [{ field: '/experience_level', message: 'must be one of: entry, mid, senior, executive' }]);
    const perPage = assertEnvelope(await t.post('/jobs-finder', { per_page: 51 }), 400, 'invalid_request');
    assert.equal(perPage.message, 'Invalid request: per_page must be <= 50.');
    assertEnvelope(await t.post('/jobs-finder', { posted_after: '2024-13-45' }), 400, 'invalid_request');
  });

  it('a missing field reads "<field> is required" on every route whose schema requires one (issue 40)', async () => {
    // Was "Invalid request: job_title must have required property 'job_title'.": Ajv reports a missing
    // property at the object holding it, in words made for that object.
    const role = assertEnvelope(await t.post('/role-finder', { company_name: 'Acme' }), 400, 'invalid_request');
    assert.equal(role.message, 'Invalid request: job_title is required.');
    assert.deepEqual(role.details, [{ field: '/job_title', message: 'is required' }]);
    let checked = 0;
    for (const [id, op] of Object.entries(OPERATIONS)) {
      const required = (op as { body?: { required?: string[] } }).body?.required ?? [];
      if (!required.length || !(op.methods as readonly string[]).includes('POST') || op.path.includes(':')) continue;
      const res = await t.post(op.path, {});
      if (res.statusCode !== 400) continue;
      const body = JSON.parse(res.body) as { message: string; details?: { field: string; message: string }[] };
      assert.doesNotMatch(res.body, /must have required property/, id);
      assert.equal(body.message, `Invalid request: ${required[0]} is required.`, id);
      for (const field of required)
        assert.ok(
          body.details?.some((d) => d.field === `/${field}` && d.message === 'is required'),
          `${id}: ${field}`,
        );
      checked += 1;
    }
    assert.ok(checked >= 5, `${checked} routes with required fields checked`);
  });

  it('413 for a body over the limit, naming the limit in bytes and its setting', async () => {
    const res = await t.post('/email-validate', { email: 'a@b.co', first_name: 'x'.repeat(70 * 1024) });
    const body = assertEnvelope(res, 413, 'payload_too_large');
    assert.equal(body.message, 'Request body is too large: the limit is 65536 bytes (BODY_LIMIT_BYTES).');
  });

  it('413 on a route with a limit of its own names that one', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/webhooks/postmark',
      headers: { 'content-type': 'application/json', 'content-length': String(6 * 1024 * 1024) },
      payload: 'x',
    });
    const body = assertEnvelope(res, 413, 'payload_too_large');
    assert.equal(body.message, `Request body is too large: this endpoint takes at most ${5 * 1024 * 1024} bytes.`);
  });

  it('415 for a body that is not JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await t.inject({
        method: 'POST',
        url: '/email-validate',
        headers: { 'x-api-key': t.key, 'content-type': type },
        payload: 'email=a@b.co',
      });
      assertEnvelope(res, 415, 'unsupported_media_type');
    }
  });

  it('404 for an unknown path, with or without a key', async () => {
    assertEnvelope(await t.post('/no-such-thing', {}), 404, 'not_found');
    assertEnvelope(await t.inject({ method: 'GET', url: '/nope' }), 404, 'not_found');
  });

  it('500 never leaks the error', async () => {
    // A database failure mid-request: the key's table disappears under the app.
    const fresh = await startTestApp();
    try {
      fresh.app.log.level = 'silent';
      await fresh.database.db.schema.dropTable('job_types').execute();
      const res = await fresh.get('/job-types');
      const body = assertEnvelope(res, 500, 'internal_error');
      assert.doesNotMatch(body.message, /job_types|SQL|sqlite/i);
      assert.match(body.message, new RegExp(String(res.headers['x-request-id'])));
    } finally {
      await fresh.close();
    }
  });
});
