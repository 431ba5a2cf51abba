import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets } from '../support/db.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

for (const target of dbTargets) {
  describe(`migrations (${target.name})`, { skip: target.skip }, () => {
    it('creates the schema, seeds the lookup lists and is idempotent', async () => {
      const t = await target.open();
      try {
        const again = await migrateToLatest(t.db);
        assert.deepEqual(again.applied, []);
        const types = await t.db.selectFrom('job_types').selectAll().orderBy('id').execute();
        assert.equal(types.length, 6);
        const us = await t.db.selectFrom('job_countries').selectAll().where('id', '=', 'US').executeTakeFirstOrThrow();
        assert.deepEqual(us, { id: 'US', name: 'United States', region_id: 5 });
      } finally {
        await t.destroy();
      }
    });
  });
}
