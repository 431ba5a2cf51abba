import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets } from '../support/db.ts';
import { startTestApp } from '../support/app.ts';
import { registerChargeRoute } from '../support/charge-route.ts';
import { IdempotencyStore, IN_FLIGHT_LEASE_MS, IDEMPOTENCY_TTL_MS } from '../../src/billing/idempotency.ts';

for (const target of dbTargets) {
  describe(`Idempotency-Key (${target.name})`, { skip: target.skip }, () => {
    it('replays a retry without charging again, refuses another body with 422', async () => {
      const t = await start(target);
      try {
        const first = await t.post('/test/charge', { cost: 4000, echo: 'a' }, { 'idempotency-key': 'order-1' });
        assert.equal(first.statusCode, 200);
        assert.equal(first.headers['x-credits-remaining'], '6');
        const retry = await t.post('/test/charge', { echo: 'a', cost: 4000 }, { 'idempotency-key': 'order-1' });
        assert.equal(retry.statusCode, 200);
        assert.equal(retry.body, first.body, 'byte-for-byte the first response');
        assert.equal(retry.headers['idempotent-replayed'], 'true');
        assert.equal(retry.headers['x-credits-cost'], '4');
        assert.equal(await t.services.billing.balance(t.keyId), 6000, 'charged once');
        assert.equal((await t.services.billing.usage(t.keyId)).filter((u) => u.kind === 'charge').length, 1);

        const other = await t.post('/test/charge', { cost: 4000, echo: 'b' }, { 'idempotency-key': 'order-1' });
        assert.equal(other.statusCode, 422);
        assert.equal(other.json().error, 'idempotency_key_reused');

        const fresh = await t.post('/test/charge', { cost: 4000, echo: 'a' }, { 'idempotency-key': 'order-2' });
        assert.equal(fresh.statusCode, 200);
        assert.equal(await t.services.billing.balance(t.keyId), 2000);
      } finally {
        await t.close();
      }
    });

    it('refuses a retry with 409 while the first request is still running', async () => {
      const t = await start(target);
      try {
        const slow = t.post('/test/charge', { cost: 1000, delayMs: 300 }, { 'idempotency-key': 'slow' });
        await new Promise((r) => setTimeout(r, 80));
        const early = await t.post('/test/charge', { cost: 1000, delayMs: 300 }, { 'idempotency-key': 'slow' });
        assert.equal(early.statusCode, 409);
        assert.equal(early.json().error, 'idempotency_in_flight');
        assert.equal((await slow).statusCode, 200);
        const later = await t.post('/test/charge', { cost: 1000, delayMs: 300 }, { 'idempotency-key': 'slow' });
        assert.equal(later.statusCode, 200);
        assert.equal(later.headers['idempotent-replayed'], 'true');
        assert.equal(await t.services.billing.balance(t.keyId), 9000);
      } finally {
        await t.close();
      }
    });

    it('does not store a 402, so a retry after a top-up is served', async () => {
      const t = await start(target, 1);
      try {
        const refused = await t.post('/test/charge', { cost: 4000 }, { 'idempotency-key': 'k' });
        assert.equal(refused.statusCode, 402);
        await t.services.billing.grant(t.keyId, 5000);
        const retry = await t.post('/test/charge', { cost: 4000 }, { 'idempotency-key': 'k' });
        assert.equal(retry.statusCode, 200);
        assert.equal(retry.headers['idempotent-replayed'], undefined);
      } finally {
        await t.close();
      }
    });

    it('keys are per account, expire after 24 h, and an abandoned in-flight record can be retried', async () => {
      const t = await target.open();
      try {
        const store = new IdempotencyStore(t.db);
        const now = 1_000_000;
        assert.deepEqual(await store.begin(1, 'k', 'f1', now), { kind: 'new' });
        assert.deepEqual(await store.begin(2, 'k', 'f1', now), { kind: 'new' }, 'another account');
        assert.deepEqual(await store.begin(1, 'k', 'f1', now + 1), { kind: 'in_flight' });
        // The first request died (no response stored): after the lease a retry may run it.
        assert.deepEqual(await store.begin(1, 'k', 'f1', now + IN_FLIGHT_LEASE_MS + 1), { kind: 'new' });
        await store.complete(1, 'k', { statusCode: 200, headers: {}, body: '{}' }, now + IN_FLIGHT_LEASE_MS + 2);
        assert.equal((await store.begin(1, 'k', 'f1', now + IN_FLIGHT_LEASE_MS + 3)).kind, 'replay');
        assert.deepEqual(await store.begin(1, 'k', 'f2', now + IN_FLIGHT_LEASE_MS + 3 + IDEMPOTENCY_TTL_MS), { kind: 'new' });
      } finally {
        await t.destroy();
      }
    });

    it('rejects an over-long key', async () => {
      const t = await start(target);
      try {
        const res = await t.post('/test/charge', { cost: 0 }, { 'idempotency-key': 'x'.repeat(256) });
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().error, 'invalid_request');
      } finally {
        await t.close();
      }
    });
  });
}

function start(target: (typeof dbTargets)[number], credits = 10) {
  return startTestApp(target, { credits, routes: registerChargeRoute });
}
