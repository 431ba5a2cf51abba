// Balance reads asked for in one turn share one read per key: each caller still gets its own key's
// balance, as the database holds it after everything that was written before it asked.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets } from '../support/db.ts';
import { BillingService } from '../../src/billing/service.ts';
import { KeyService } from '../../src/keys/service.ts';

for (const target of dbTargets) {
  describe(`balance reads (${target.name})`, { skip: target.skip }, () => {
    it('answer every caller of a turn with its own key, and a missing key only to its callers', async () => {
      const database = await target.open();
      try {
        const keys = new KeyService(database.db);
        const billing = new BillingService(database.db);
        const a = await keys.create('a', 1000);
        const b = await keys.create('b', 2500);
        const reads = [billing.balance(a.id), billing.balance(b.id), billing.balance(a.id), billing.balance(999_999)];
        const settled = await Promise.allSettled(reads);
        assert.deepEqual(
          settled.slice(0, 3).map((s) => (s.status === 'fulfilled' ? s.value : s.reason)),
          [1000, 2500, 1000],
        );
        const missing = settled[3];
        assert.ok(missing.status === 'rejected');
        assert.match(String(missing.reason), /no API key with id 999999/);
      } finally {
        await database.destroy();
      }
    });

    it('see every charge and grant written before they were asked for', async () => {
      const database = await target.open();
      try {
        const keys = new KeyService(database.db);
        const billing = new BillingService(database.db);
        const key = await keys.create('k', 1000);
        const before = billing.balance(key.id);
        // Asked for before the charge: that read may come after it (a read of the same turn), but a
        // read asked for after the charge has settled always sees it.
        await billing.settle({ keyId: key.id, operation: 'test', cost: 300, requestId: 'r1' });
        assert.ok([1000, 700].includes(await before));
        assert.equal(await billing.balance(key.id), 700);
        await billing.grant(key.id, 50);
        const [x, y] = await Promise.all([billing.balance(key.id), billing.balance(key.id)]);
        assert.deepEqual([x, y], [750, 750]);
      } finally {
        await database.destroy();
      }
    });
  });
}
