import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/database.ts';
import { BOARD_ROUTES, FIXTURES, startBoardServer, type BoardServer } from './support/board-server.ts';
import { runLeadbase } from '../support/cli.ts';

describe('leadbase import jobs', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let server: BoardServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'leadbase-jobs-cli-'));
    env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'jobs.sqlite')}`, REDIS_URL: '', LOG_LEVEL: 'silent' };
    server = await startBoardServer(BOARD_ROUTES);
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Async spawn: the board server runs in this process and must keep answering.
  const run = (...args: string[]) => runLeadbase(['import', 'jobs', ...args], env);

  it('fetches a board over HTTP, then a re-import is unchanged', async () => {
    const first = await run('--source', 'greenhouse', '--board', 'acmerobotics', '--base-url', server.origin, '--json', '--quiet');
    assert.equal(first.status, 0, first.stderr);
    const summary = JSON.parse(first.stdout);
    assert.equal(summary.inserted, 3);
    assert.equal(summary.companies_created, 1);
    const again = await run('--source', 'greenhouse', '--board', 'acmerobotics', '--base-url', server.origin, '--json', '--quiet');
    assert.equal(JSON.parse(again.stdout).unchanged, 3);
  });

  it('reads a saved payload with --file and links the board owner given on the command line', async () => {
    const file = fileURLToPath(new URL('lever-postings.json', FIXTURES));
    const res = await run(
      '--source',
      'lever',
      '--board',
      'northwind',
      '--file',
      file,
      '--company-name',
      'Northwind Analytics',
      '--company-website',
      'https://northwind.example',
      '--json',
      '--quiet',
    );
    assert.equal(res.status, 0, res.stderr);
    assert.equal(JSON.parse(res.stdout).inserted, 2);
    const handle = openDatabase(env.DATABASE_URL!);
    try {
      const rows = await handle.db
        .selectFrom('jobs')
        .innerJoin('companies', 'companies.id', 'jobs.company_id')
        .select(['jobs.title', 'companies.domain'])
        .where('jobs.board', '=', 'northwind')
        .execute();
      assert.deepEqual(
        rows.map((r) => r.domain),
        ['northwind.example', 'northwind.example'],
      );
    } finally {
      await handle.close();
    }
  });

  it('compacts the search index on --optimize (after a large import by default) and the listings stay searchable', async () => {
    const file = fileURLToPath(new URL('lever-postings.json', FIXTURES));
    const res = await run('--source', 'lever', '--board', 'compacted', '--file', file, '--company-name', 'Compacted Ltd', '--optimize');
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stderr, /search index compacted in [\d.]+ s/);
    const small = await run('--source', 'lever', '--board', 'compacted', '--file', file, '--company-name', 'Compacted Ltd');
    assert.doesNotMatch(small.stderr, /compact/, 'a small import leaves the index to FTS5 automerge');
    const handle = openDatabase(env.DATABASE_URL!);
    try {
      const { rows } = await sql<{ n: number }>`select count(*) as n from jobs_fts`.execute(handle.db);
      assert.ok(Number(rows[0].n) >= 2);
    } finally {
      await handle.close();
    }
  });

  it('imports several boards in one run, skips one that cannot be read, and leaves every stored listing searchable', async () => {
    const res = await run(
      '--source',
      'lever',
      '--board',
      'eastwind',
      '--board',
      'nobody',
      '--board',
      'westwind',
      '--base-url',
      server.origin,
      '--retries',
      '0',
      '--json',
      '--quiet',
    );
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /jobs lever nobody: .*HTTP 404/);
    assert.match(res.stderr, /1 of 3 boards could not be read/);
    const reports = res.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      reports.map((r) => [r.board, r.inserted]),
      [
        ['eastwind', 2],
        ['westwind', 2],
      ],
    );
    const handle = openDatabase(env.DATABASE_URL!);
    try {
      const live = await sql<{
        board: string;
      }>`select j.board from job_live l join jobs j on j.id = l.job_id where j.board in ('eastwind', 'westwind') order by 1`.execute(
        handle.db,
      );
      assert.deepEqual(
        live.rows.map((r) => r.board),
        ['eastwind', 'eastwind', 'westwind', 'westwind'],
      );
      const staged = await sql<{ n: number }>`select count(*) as n from job_facets_staged`.execute(handle.db);
      assert.equal(Number(staged.rows[0].n), 0);
    } finally {
      await handle.close();
    }
  });

  it('reports an unreachable board and an unknown source as one-line errors', async () => {
    const missing = await run('--source', 'lever', '--board', 'nobody', '--base-url', server.origin, '--retries', '0', '--quiet');
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /HTTP 404/);
    const unknown = await run('--source', 'monster', '--board', 'x');
    assert.notEqual(unknown.status, 0);
    assert.match(unknown.stderr, /unknown job source/);
  });
});
