import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { normalizeLocator, SourceRegistry } from '../../src/sources/registry.ts';
import { dbTargets } from '../support/db.ts';
import { startMirror } from '../support/upstreams/boards.ts';
import { PoliteFetcher } from '../../src/ingest/jobs/fetcher.ts';
import { connectorFor, JOB_SOURCES } from '../../src/ingest/jobs/index.ts';
import { STARTER_BOARDS_FILE, starterBoards } from '../../src/sources/starter.ts';

const ATS_TYPES = ['greenhouse', 'lever', 'ashby', 'workable', 'smartrecruiters', 'recruitee', 'personio'];

test('the starter list holds at least 2,000 boards, every ATS read, each accepted by the registry once', () => {
  const header = readFileSync(STARTER_BOARDS_FILE, 'utf8').split('\n', 1)[0];
  assert.equal(header, 'type,locator,company_name,company_website');
  const boards = starterBoards();
  assert.ok(boards.length >= 2000, `${boards.length} boards`);
  const keys = new Set<string>();
  const perType = new Map<string, number>();
  for (const board of boards) {
    assert.ok(JOB_SOURCES.includes(board.type), `${board.type} is a job source`);
    const { key } = normalizeLocator(board.type, board.locator);
    const id = `${board.type}:${key}`;
    assert.ok(!keys.has(id), `${id} is listed once`);
    keys.add(id);
    perType.set(board.type, (perType.get(board.type) ?? 0) + 1);
  }
  for (const type of ATS_TYPES) assert.ok((perType.get(type) ?? 0) > 0, `${type} boards are listed`);
});

test('a board the list names keeps that name; one it does not name has none', () => {
  const boards = starterBoards();
  const named = boards.find((b) => b.type === 'recruitee' && b.locator === 'deintraumjobwartet');
  assert.equal(named?.company_name, 'ANGEHEUERT GmbH');
  const unnamed = boards.find((b) => b.type === 'greenhouse' && b.locator === 'airbnb');
  assert.ok(unnamed, 'airbnb is listed');
  assert.equal(unnamed.company_name, null);
});

for (const target of dbTargets) {
  test(`${target.name}: the registry adds every starter board and refuses none`, { skip: target.skip, timeout: 300_000 }, async () => {
    const database = await target.open();
    try {
      const registry = new SourceRegistry({ db: database.db });
      const boards = starterBoards();
      const summary = await registry.addMany(boards.map((input, i) => ({ line: i + 2, input })));
      assert.deepEqual(summary.refused, []);
      assert.equal(summary.added, boards.length);
      const again = await registry.addMany(boards.slice(0, 50).map((input, i) => ({ line: i + 2, input })));
      assert.equal(again.existing, 50);
    } finally {
      await database.destroy();
    }
  });
}

test("the starter list's Greenhouse boards are read from the Greenhouse mirror (recorded real boards)", { timeout: 60_000 }, async () => {
  const mirror = await startMirror();
  try {
    const fetcher = new PoliteFetcher({ retries: 0, timeoutMs: 5000 });
    const listed = starterBoards().filter((b) => b.type === 'greenhouse' && ['stripe', 'generalassembly'].includes(b.locator!));
    assert.equal(listed.length, 2);
    for (const board of listed) {
      const listings = await connectorFor('greenhouse').fetchBoard(fetcher, { board: board.locator!, baseUrl: mirror.url });
      assert.ok(listings.length > 0, board.locator);
    }
    await assert.rejects(connectorFor('greenhouse').fetchBoard(fetcher, { board: 'nosuchboard', baseUrl: mirror.url }), /HTTP 404/);
  } finally {
    await mirror.close();
  }
});
