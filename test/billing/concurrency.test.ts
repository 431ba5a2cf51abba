import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets, reopen } from '../support/db.ts';
import { startTestApp } from '../support/app.ts';
import { registerChargeRoute } from '../support/charge-route.ts';

// The balance covers exactly N charges; M > N charged calls race, across two server instances
// with their own connections to one database. Exactly N are served, the rest get 402, and the
// ledger sums to the balance.
const N = 25;
const M = 80;
const COST = 50; // 0.05 credit, the email-validation price

for (const target of dbTargets) {
  describe(`billing under concurrency (${target.name})`, { skip: target.skip }, () => {
    it(`serves exactly ${N} of ${M} concurrent charged calls across two instances`, async () => {
      const a = await startTestApp(target, { credits: (N * COST) / 1000, routes: registerChargeRoute });
      const second = reopen(a.database);
      const b = await startTestApp(undefined, {
        database: second,
        existingKey: { key: a.key, id: a.keyId },
        routes: registerChargeRoute,
      });
      try {
        const calls = Array.from({ length: M }, (_, i) => (i % 2 ? a : b).post('/test/charge', { cost: COST, echo: String(i) }));
        const responses = await Promise.all(calls);
        const ok = responses.filter((r) => r.statusCode === 200);
        const refused = responses.filter((r) => r.statusCode === 402);
        assert.equal(ok.length, N, 'served exactly N');
        assert.equal(refused.length, M - N, 'refused the rest');
        for (const r of refused) {
          assert.equal(r.json().error, 'insufficient_credits');
          assert.equal(r.json().echo, undefined, 'a refused call serves no data');
        }
        for (const r of ok) {
          assert.equal(r.json().credits_consumed, 0.05);
          assert.equal(r.headers['x-credits-cost'], '0.05');
        }
        const balance = await a.services.billing.balance(a.keyId);
        assert.equal(balance, 0);
        assert.equal(await a.services.billing.ledgerBalance(a.keyId), balance);
        const charges = (await a.services.billing.usage(a.keyId, 1000)).filter((u) => u.kind === 'charge');
        assert.equal(charges.length, N);
        assert.ok(charges.every((c) => c.amount === COST && c.operation === 'test-charge' && c.request_id));
      } finally {
        await b.close();
        await second.destroy();
        await a.close();
      }
    });

    it('never lets the balance go negative, even with a direct bad update', async () => {
      const t = await target.open();
      try {
        const { KeyService } = await import('../../src/keys/service.ts');
        const created = await new KeyService(t.db).create('x', 10);
        await assert.rejects(
          t.db.updateTable('api_keys').set({ balance: -1 }).where('id', '=', created.id).execute(),
          'the CHECK constraint refuses a negative balance',
        );
      } finally {
        await t.destroy();
      }
    });
  });
}
