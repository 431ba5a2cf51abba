import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';

describe('smoke', () => {
  it('serves lookups and credits with a key', async () => {
    const t = await startTestApp();
    try {
      const types = await t.get('/job-types');
      assert.equal(types.statusCode, 200, types.body);
      assert.equal(types.json().length, 6);
      const credits = await t.post('/credits');
      assert.equal(credits.statusCode, 200, credits.body);
      assert.deepEqual(credits.json(), { credits: 100 });
      const nokey = await t.inject({ method: 'GET', url: '/job-types' });
      assert.equal(nokey.statusCode, 401);
      const stub = await t.post('/jobs-finder', {});
      assert.equal(stub.statusCode, 501, stub.body);
      const docs = await t.inject({ method: 'GET', url: '/openapi.json' });
      assert.equal(docs.statusCode, 200);
      assert.equal(docs.json().openapi, '3.1.0');
    } finally {
      await t.close();
    }
  });
});
