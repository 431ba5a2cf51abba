import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dbTargets } from '../support/db.ts';
import { runLeadbase } from '../support/cli.ts';
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

describe('migrations of one new SQLite file by several processes at once', () => {
  it('apply once, and every process ends with the schema in place', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leadbase-migrate-race-'));
    try {
      // Three rounds: without a lock, two processes on a brand-new file collided in most of them.
      for (let round = 0; round < 3; round++) {
        const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, `race-${round}.sqlite`)}` };
        const runs = await Promise.all([1, 2, 3].map(() => runLeadbase(['migrate'], env, 60_000)));
        for (const run of runs) assert.equal(run.status, 0, run.stderr);
        assert.equal(runs.filter((run) => run.stdout.startsWith('applied 0001_platform')).length, 1, runs.map((r) => r.stdout).join('\n'));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
