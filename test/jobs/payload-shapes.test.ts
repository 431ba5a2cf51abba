// A connector refuses what is not its source's board response, so a wrong file, an error body or a
// single posting's detail can never be read as an empty board (which would expire all of it).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JOB_CONNECTORS } from '../../src/ingest/jobs/index.ts';
import { PayloadShapeError } from '../../src/ingest/jobs/shape.ts';
import { openDatabase } from '../../src/db/database.ts';
import { FIXTURES } from './support/board-server.ts';
import { runLeadbase } from '../support/cli.ts';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(name, FIXTURES)), 'utf8');

/** Each source's own saved board, as its API returns it. */
const OWN: Record<string, string> = {
  greenhouse: 'greenhouse-jobs.json',
  lever: 'lever-postings.json',
  ashby: 'ashby-board.json',
  workable: 'workable-account.json',
  smartrecruiters: 'smartrecruiters-postings.json',
  recruitee: 'recruitee-offers.json',
  personio: 'personio.xml',
};

const greenhouseDetail = JSON.stringify({
  id: 4012345,
  title: 'Robotics Engineer',
  absolute_url: 'https://boards.greenhouse.io/x/jobs/4012345',
});
const FOREIGN: [string, string][] = [
  ['an error body', '{"error":"Board not found","status":404}'],
  ['an empty object', '{}'],
  ['an HTML page', '<!doctype html><html><body>Not found</body></html>'],
  ['a single posting', greenhouseDetail],
];

const ctx = { board: 'acme' };

describe('payload shapes', () => {
  for (const [source, own] of Object.entries(OWN)) {
    it(`${source} reads its own board and refuses every other source's`, () => {
      const connector = JOB_CONNECTORS[source];
      assert.ok(connector.parsePayload(fixture(own), ctx).length > 0, 'its own payload reads');
      for (const [other, file] of Object.entries(OWN)) {
        if (other === source) continue;
        assert.throws(() => connector.parsePayload(fixture(file), ctx), PayloadShapeError, `${source} refuses a ${other} payload`);
      }
      for (const [what, payload] of FOREIGN) {
        assert.throws(() => connector.parsePayload(payload, ctx), PayloadShapeError, `${source} refuses ${what}`);
      }
    });
  }

  it('says what it expected and what it found', () => {
    assert.throws(
      () => JOB_CONNECTORS.greenhouse.parsePayload('{"error":"Board not found"}', ctx),
      (error: Error) =>
        /not a Greenhouse board response: expected .*"jobs".*; found an error response \(error: Board not found\)/.test(error.message),
    );
  });

  it('reads a board with no postings as empty (a real empty board is not refused)', () => {
    assert.deepEqual(JOB_CONNECTORS.greenhouse.parsePayload('{"jobs":[],"meta":{"total":0}}', ctx), []);
    assert.deepEqual(JOB_CONNECTORS.personio.parsePayload('<?xml version="1.0"?><workzag-jobs/>', ctx), []);
  });

  it('leadbase import jobs: a wrong file fails the command and expires nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leadbase-shapes-'));
    try {
      const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'jobs.sqlite')}`, REDIS_URL: '', LOG_LEVEL: 'silent' };
      const own = join(dir, 'own.json');
      writeFileSync(own, fixture(OWN.greenhouse));
      const first = await runLeadbase(
        ['import', 'jobs', '--source', 'greenhouse', '--board', 'acme', '--file', own, '--json', '--quiet'],
        env,
      );
      assert.equal(first.status, 0, first.stderr);
      const stored = JSON.parse(first.stdout).inserted as number;
      assert.ok(stored > 0);

      const wrong = join(dir, 'wrong.json');
      writeFileSync(wrong, fixture(OWN.lever));
      const res = await runLeadbase(
        ['import', 'jobs', '--source', 'greenhouse', '--board', 'acme', '--file', wrong, '--json', '--quiet'],
        env,
      );
      assert.notEqual(res.status, 0);
      assert.match(res.stderr, /not a Greenhouse board response/);

      const handle = openDatabase(env.DATABASE_URL);
      try {
        const live = await handle.db.selectFrom('jobs').select('id').where('board', '=', 'acme').where('expired', '=', 0).execute();
        assert.equal(live.length, stored, 'every listing of the board is still live');
      } finally {
        await handle.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
