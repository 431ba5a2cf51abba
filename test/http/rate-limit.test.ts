import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { REDIS_SKIP, REDIS_URL, openSqlite, reopen } from '../support/db.ts';
import { startTestApp } from '../support/app.ts';
import { RATE_LIMITS_PER_MINUTE } from '../../src/operations/catalogue.ts';

describe('rate limits (in memory)', () => {
  it('uses the contract limits, sends RateLimit-* and X-RateLimit-* headers, refuses with 429 and Retry-After', async () => {
    assert.equal(RATE_LIMITS_PER_MINUTE['email-validate'], 1000);
    assert.equal(RATE_LIMITS_PER_MINUTE['company-funding'], 300);
    assert.equal(RATE_LIMITS_PER_MINUTE['jobs-finder'], 200);
    assert.equal(RATE_LIMITS_PER_MINUTE['role-finder'], 500);
    assert.equal(RATE_LIMITS_PER_MINUTE['mobile-finder'], 300);
    assert.equal(RATE_LIMITS_PER_MINUTE['b2b-profile-email'], 300);
    assert.equal(RATE_LIMITS_PER_MINUTE['credits'], 1000);

    const t = await startTestApp(undefined, { rateLimits: { 'job-types': 3 } });
    try {
      const first = await t.get('/job-types');
      assert.equal(first.headers['ratelimit-limit'], '3');
      assert.equal(first.headers['ratelimit-remaining'], '2');
      assert.equal(first.headers['x-ratelimit-limit'], '3');
      assert.equal(first.headers['x-ratelimit-remaining'], '2');
      assert.ok(Number(first.headers['ratelimit-reset']) > 0 && Number(first.headers['ratelimit-reset']) <= 60);
      await t.get('/job-types');
      await t.get('/job-types');
      const refused = await t.get('/job-types');
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json().error, 'rate_limited');
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      assert.equal(refused.headers['ratelimit-remaining'], '0');
      // Per endpoint: another endpoint still has its own budget.
      assert.equal((await t.get('/job-regions')).statusCode, 200);
      const metrics = await t.inject({ method: 'GET', url: '/metrics' });
      assert.match(metrics.body, /leadbase_rate_limit_refusals_total\{operation="job-types"\} 1/);
    } finally {
      await t.close();
    }
  });

  it('is per key', async () => {
    const t = await startTestApp(undefined, { rateLimits: { 'job-types': 1 } });
    try {
      const other = await t.services.keys.create('other', 0);
      assert.equal((await t.get('/job-types')).statusCode, 200);
      assert.equal((await t.get('/job-types')).statusCode, 429);
      assert.equal((await t.get('/job-types', { 'x-api-key': other.key })).statusCode, 200);
    } finally {
      await t.close();
    }
  });
});

describe('per-key limits', () => {
  it('a key granted a higher limit gets its own budget size; others keep the default', async () => {
    const t = await startTestApp(undefined, { rateLimits: { 'job-types': 2 } });
    try {
      await t.services.keys.setRateLimit(t.keyId, 'job-types', 4);
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await t.get('/job-types')).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
      assert.equal((await t.get('/job-types')).headers['ratelimit-limit'], '4');
      const other = await t.services.keys.create('other', 0);
      assert.equal((await t.get('/job-types', { 'x-api-key': other.key })).headers['ratelimit-limit'], '2');
    } finally {
      await t.close();
    }
  });
});

describe('rate limits shared through Redis', { skip: REDIS_SKIP }, () => {
  it('two instances on one Redis share one budget per key and endpoint', async () => {
    const namespace = `test-${randomBytes(6).toString('hex')}`;
    const database = await openSqlite();
    const second = reopen(database);
    const a = await startTestApp(undefined, {
      database,
      redisUrl: REDIS_URL,
      rateLimitNamespace: namespace,
      rateLimits: { 'job-types': 5 },
    });
    const b = await startTestApp(undefined, {
      database: second,
      existingKey: { key: a.key, id: a.keyId },
      redisUrl: REDIS_URL,
      rateLimitNamespace: namespace,
      rateLimits: { 'job-types': 5 },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await (i % 2 ? a : b).get('/job-types')).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
      const ready = await a.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 200);
      assert.equal(ready.json().checks.redis, 'ok');
    } finally {
      await a.close();
      await b.close();
      await second.destroy();
      await database.destroy();
    }
  });
});
