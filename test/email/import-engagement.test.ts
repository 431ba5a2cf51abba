// `leadbase import engagement` through the real CLI binary, on both databases.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dbTargets } from '../support/db.ts';
import { EngagementStore } from '../../src/email/engagement.ts';
import { LEADBASE_BIN as BIN } from '../support/cli.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/email/${name}`, import.meta.url));

for (const target of dbTargets) {
  describe(`leadbase import engagement (${target.name})`, { skip: target.skip }, () => {
    it('imports event rows and count rows, idempotently', async () => {
      const database = await target.open();
      try {
        const env = {
          ...process.env,
          DATABASE_URL: database.url,
          ...(database.pgSchema ? { PGOPTIONS: `-c search_path=${database.pgSchema}` } : {}),
        };
        const run = (...args: string[]) =>
          spawnSync(process.execPath, [BIN, 'import', 'engagement', ...args], { env, encoding: 'utf8', timeout: 30_000 });
        const first = run(fixture('engagement-events.csv'), '--json', '-q');
        assert.equal(first.status, 0, first.stderr);
        const summary = JSON.parse(first.stdout);
        assert.equal(summary.read, 10);
        assert.equal(summary.inserted, 4);
        assert.equal(summary.rejected, 3);
        // An address that cannot be read is refused with its line, never counted as read and dropped.
        assert.ok(
          (summary.rejections as { line: number; reason: string }[]).some((r) => r.line === 11 && /not an email address/.test(r.reason)),
          JSON.stringify(summary.rejections),
        );
        const again = JSON.parse(run(fixture('engagement-events.csv'), '--json', '-q').stdout);
        assert.equal(again.inserted, 0, 'same event ids: nothing counted twice');
        const counts = run(fixture('engagement-counts.csv'), '--json', '-q');
        assert.equal(counts.status, 0, counts.stderr);
        assert.equal(JSON.parse(counts.stdout).rejected, 1);
        const store = new EngagementStore(database.db);
        assert.deepEqual(await store.counts('ceo@engaged.test'), { delivered: 3, hardBounced: 0 });
        assert.deepEqual(await store.counts('gone@engaged.test'), { delivered: 0, hardBounced: 1 });
        assert.deepEqual(await store.counts('full@engaged.test'), { delivered: 0, hardBounced: 0 });
        assert.deepEqual(await store.counts('cfo@engaged.test'), { delivered: 40, hardBounced: 1 });
        const missing = run('/nonexistent.csv');
        assert.notEqual(missing.status, 0);
        assert.match(missing.stderr, /no such file/);
      } finally {
        await database.destroy();
      }
    });
  });
}
