import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../../src/platform/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { startServer } from '../../src/server.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { JobService } from '../../src/jobs/service.ts';
import type { BoardInput } from '../../src/jobs/importer.ts';
import { mergeStagedIndex } from '../../src/jobs/staged-index.ts';
import { generateBoards } from '../../bench/support/jobs-generator.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;
// Small chunks, so a merge of a few thousand listings runs the chunked SQLite path with several chunks.
const CHUNKS = { chunkRows: 5_000, chunkListings: 700, smallMerge: 500 };

/** Realistic boards (the benchmark's generator): 2,400 postings over 48 boards. */
function boards(): BoardInput[] {
  return [...generateBoards({ listings: 2_400, companies: 48, now: NOW })].map((b) => ({
    source: b.source,
    board: b.board,
    listings: b.listings,
  }));
}

/** Everything the search reads: index rows, live rows, day counts and the full-text index's answers. */
async function snapshot(db: TestDatabase): Promise<Record<string, string>> {
  const rows = async (text: string) => (await sql.raw(text).execute(db.db)).rows;
  const textMatches =
    db.dialect === 'sqlite'
      ? await rows(
          `select l.job_id from jobs_fts join job_live l on l.search_key = jobs_fts.rowid where jobs_fts match '"machine learning" OR kubernetes' order by l.job_id`,
        )
      : await rows(
          `select l.job_id from jobs j join job_live l on l.job_id = j.id where to_tsvector('simple', j.description) @@ websearch_to_tsquery('simple', '"machine learning" OR kubernetes') order by l.job_id`,
        );
  // Company ids depend on the order companies were created in (a group links its companies in one
  // batch), so company facets are compared by the company's domain.
  const domains = new Map((await rows('select id, domain from companies')).map((r: any) => [`co:${r.id}`, `co:${r.domain}`]));
  const facets = (await rows('select facet, has_remote, published_at, job_id, attrs, countries from job_facets')).map((r: any) => ({
    ...r,
    facet: domains.get(r.facet) ?? r.facet,
  }));
  const key = (r: any) =>
    `${r.facet}\u0000${r.has_remote}\u0000${String(r.published_at).padStart(16)}\u0000${String(r.job_id).padStart(10)}`;
  facets.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const parts = {
    facets,
    live: await rows('select job_id, has_remote, published_at, attrs, countries from job_live order by job_id'),
    days: await rows('select facet, has_remote, day, n from job_facet_days where n <> 0 order by facet, has_remote, day'),
    textMatches,
    staged: await rows('select count(*) as n from job_facets_staged'),
  };
  return Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, JSON.stringify(v)]));
}

function assertSame(actual: Record<string, string>, expected: Record<string, string>): void {
  for (const key of Object.keys(expected))
    assert.ok(actual[key] === expected[key], `${key} differs: ${actual[key].length} vs ${expected[key].length} characters`);
}

const QUERIES = [
  {},
  { country_id: 'US' },
  { job_title: 'data engineer' },
  { job_description: '"machine learning"', region_id: 5 },
  { experience_level: 'senior' as const, job_type_id: 1, posted_within: 14 },
];

for (const target of dbTargets) {
  describe(`staged search index (${target.name})`, { skip: target.skip }, () => {
    let perBoard: TestDatabase;
    let staged: TestDatabase;
    const service = (db: TestDatabase) =>
      new JobService({ db: db.db, companies: new CompanyService({ db: db.db }), workerAfter: Infinity });
    before(async () => {
      perBoard = await target.open();
      staged = await target.open();
    });
    after(async () => {
      await perBoard?.destroy();
      await staged?.destroy();
    });

    it('listings imported without merging are stored but not searchable; one merge then gives the index of board-by-board imports', async () => {
      const reference = service(perBoard);
      for (const board of boards())
        await reference.importer.importBoard(board.listings, { source: board.source, board: board.board, now: NOW });

      const bulk = service(staged);
      const summaries = await bulk.importer.importBoards(boards(), { now: NOW, mergeIndex: false, groupSize: 1_000 });
      assert.equal(
        summaries.reduce((n, s) => n + s.inserted, 0),
        2_400,
      );
      assert.equal((await bulk.search({}, NOW)).total_count, 0);
      assert.equal((await bulk.search({ job_description: 'kubernetes' }, NOW)).total_count, 0);

      const progress: number[] = [];
      assert.equal(await bulk.mergeStagedIndex({ ...CHUNKS, onProgress: (p) => progress.push(p.rows) }), 2_400);
      if (target.name === 'sqlite') assert.ok(progress.length > 4, 'the merge ran in several chunks');
      assertSame(await snapshot(staged), await snapshot(perBoard));
      for (const query of QUERIES)
        assert.deepEqual(await bulk.search(query, NOW), await reference.search(query, NOW), JSON.stringify(query));
      assert.ok((await bulk.search({}, NOW)).total_count > 500);
    });

    it('a merge cut off before its last step can run again: nothing is written or counted twice', async () => {
      const db = staged.db;
      const jobs = service(staged);
      const more = boards()
        .slice(0, 6)
        .map((b) => ({ ...b, board: `${b.board}-more` }));
      const summaries = await jobs.importer.importBoards(more, { now: NOW, mergeIndex: false });
      await sql`create table staged_copy as select * from job_facets_staged`.execute(db);
      await sql`create table days_copy as select * from job_facet_days`.execute(db);
      await mergeStagedIndex(db, CHUNKS);
      const once = await snapshot(staged);
      // Back to the moment before settling: index rows written, entries still staged, day counts not added.
      await sql`delete from job_facet_days`.execute(db);
      await sql`insert into job_facet_days select * from days_copy`.execute(db);
      await sql`insert into job_facets_staged select * from staged_copy`.execute(db);
      await sql`drop table staged_copy`.execute(db);
      await sql`drop table days_copy`.execute(db);
      assert.equal(
        await jobs.mergeStagedIndex(CHUNKS),
        summaries.reduce((n, s) => n + s.inserted, 0),
      );
      assertSame(await snapshot(staged), once);
    });

    it('a board re-imported before its staged listings were merged is merged first, then changed and expired as usual', async () => {
      const reference = service(perBoard);
      const bulk = service(staged);
      const [first] = boards();
      const changed = first.listings.slice(5).map((l, i) => (i % 4 ? l : { ...l, title: `${l.title} II`, sourceId: l.sourceId }));
      const fresh = { ...first, board: 'restaged', listings: first.listings.map((l) => ({ ...l, sourceId: `${l.sourceId}-r` })) };
      const next = { ...fresh, listings: changed.map((l) => ({ ...l, sourceId: `${l.sourceId}-r` })) };
      for (const [service, merge] of [
        [reference, true],
        [bulk, false],
      ] as const) {
        await service.importer.importBoards([fresh], { now: NOW - DAY, mergeIndex: merge });
        const summary = (await service.importer.importBoards([next], { now: NOW, mergeIndex: merge }))[0];
        assert.equal(summary.expired, 5);
        assert.ok(summary.updated > 0);
      }
      await bulk.mergeStagedIndex();
      const indexed = async (db: TestDatabase) =>
        JSON.stringify({
          facets: (
            await sql`select j.source_id, j.title, f.facet from job_facets f join jobs j on j.id = f.job_id where j.board = 'restaged' order by 1, 3`.execute(
              db.db,
            )
          ).rows,
          live: (
            await sql`select j.source_id from job_live l join jobs j on j.id = l.job_id where j.board = 'restaged' order by 1`.execute(
              db.db,
            )
          ).rows,
        });
      assert.equal(await indexed(staged), await indexed(perBoard));
    });
  });
}

describe('staged listings left by an interrupted import', () => {
  it('are merged when the server starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leadbase-staged-'));
    const url = `sqlite:${join(dir, 'staged.sqlite')}`;
    try {
      const handle = openDatabase(url);
      await migrateToLatest(handle.db);
      const jobs = new JobService({ db: handle.db, workerAfter: Infinity });
      await jobs.importer.importBoards(boards().slice(0, 3), { now: NOW, mergeIndex: false });
      const staged = async () =>
        Number((await sql<{ n: number }>`select count(*) as n from job_facets_staged`.execute(handle.db)).rows[0].n);
      assert.ok((await staged()) > 0);
      await handle.close();

      const server = await startServer(loadConfig({ DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' }));
      try {
        const check = openDatabase(url);
        try {
          const left = async () =>
            Number((await sql<{ n: number }>`select count(*) as n from job_facets_staged`.execute(check.db)).rows[0].n);
          for (let i = 0; i < 100 && (await left()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
          assert.equal(await left(), 0);
          assert.ok((await new JobService({ db: check.db }).search({}, NOW)).total_count > 0);
        } finally {
          await check.close();
        }
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
