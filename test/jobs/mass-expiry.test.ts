// A run that would expire more than half of a board's live listings is held unless the operator
// says the board really lost them: a broken or partial fetch must not empty a board.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../src/db/database.ts';
import { FIXTURES } from './support/board-server.ts';
import { runLeadbase } from '../support/cli.ts';

const board = JSON.parse(readFileSync(fileURLToPath(new URL('greenhouse-jobs.json', FIXTURES)), 'utf8')) as { jobs: unknown[] };

describe('mass expiry', () => {
  it('holds an expiry of more than half a board, expires a smaller one, and expires all with --allow-mass-expiry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leadbase-mass-expiry-'));
    const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'jobs.sqlite')}`, REDIS_URL: '', LOG_LEVEL: 'silent' };
    const payload = (jobs: unknown[]) => {
      const file = join(dir, `board-${jobs.length}.json`);
      writeFileSync(file, JSON.stringify({ ...board, jobs }));
      return file;
    };
    const run = (file: string, ...extra: string[]) =>
      runLeadbase(['import', 'jobs', '--source', 'greenhouse', '--board', 'acme', '--file', file, '--json', '--quiet', ...extra], env);
    const live = async () => {
      const handle = openDatabase(env.DATABASE_URL);
      try {
        return (await handle.db.selectFrom('jobs').select('id').where('board', '=', 'acme').where('expired', '=', 0).execute()).length;
      } finally {
        await handle.close();
      }
    };
    try {
      const total = board.jobs.length;
      assert.ok(total >= 3, 'the fixture has at least three postings');
      assert.equal((await run(payload(board.jobs))).status, 0);
      assert.equal(await live(), total);

      // Only one posting left: more than half vanished at once.
      const held = await run(payload(board.jobs.slice(0, 1)));
      assert.notEqual(held.status, 0);
      assert.match(held.stderr, /expiry held for acme/);
      assert.deepEqual(JSON.parse(held.stdout).expiry_held, { vanished: total - 1, live: total });
      assert.equal(await live(), total, 'nothing expired');

      // One posting gone of three or more: an ordinary expiry.
      const some = await run(payload(board.jobs.slice(0, total - 1)));
      assert.equal(some.status, 0, some.stderr);
      assert.equal(JSON.parse(some.stdout).expired, 1);

      const forced = await run(payload(board.jobs.slice(0, 1)), '--allow-mass-expiry');
      assert.equal(forced.status, 0, forced.stderr);
      assert.equal(JSON.parse(forced.stdout).expired, total - 2);
      assert.equal(await live(), 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
