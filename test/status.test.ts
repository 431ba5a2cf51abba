// `leadbase status`'s counts and sizes, on both dialects.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets } from './support/db.ts';
import { CompanyService } from '../src/companies/service.ts';
import { installStatus, storesEmpty } from '../src/platform/status.ts';

for (const target of dbTargets) {
  describe(`install status (${target.name})`, { skip: target.skip }, () => {
    it('counts each store, says when they are empty, and sizes the database', async () => {
      const database = await target.open();
      try {
        assert.equal(await storesEmpty(database.db), true);
        const empty = await installStatus(database.db, database.dialect);
        assert.equal(empty.empty, true);
        assert.deepEqual(empty.sources, []);
        const companies = new CompanyService({ db: database.db });
        await companies.upsertCompany(
          { name: 'Acme', domain: 'acme.test', funding_rounds: [{ round: 'Seed', date: '2024-01-01', amount: 1000000 }] },
          'test',
        );
        await companies.upsertCompany({ name: 'Nodomain Ltd' }, 'test');
        assert.equal(await storesEmpty(database.db), false);
        const status = await installStatus(database.db, database.dialect);
        assert.equal(status.empty, false);
        assert.equal(status.stores.companies.total, 2);
        assert.equal(status.stores.companies.with_domain, 1);
        assert.equal(status.stores.companies.with_funding, 1);
        assert.deepEqual(status.stores.jobs, { live: 0, expired: 0, boards: 0 });
        assert.equal(status.queue.depth, 0);
        assert.ok(Number(status.database.bytes) > 0);
        assert.equal(status.database.dialect, database.dialect);
      } finally {
        await database.destroy();
      }
    });
  });
}
