import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { SourceListing } from '../../src/ingest/jobs/types.ts';
import { JobService } from '../../src/jobs/service.ts';
import { indexedRow } from '../../src/jobs/repository.ts';
import { DAY_MS } from '../../src/jobs/day.ts';
import { attributeBit, hasDayCounts, pairFacets, titlePairCover, titleQueryFacets } from '../../src/jobs/index-keys.ts';
import { ftsKeySql } from '../../src/jobs/fts-query.ts';
import * as searchIndexV2 from '../../src/db/migrations/0006_jobs_search.ts';
import type { Db } from '../../src/db/database.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');

function posting(i: number, patch: Partial<SourceListing> = {}): SourceListing {
  return {
    sourceId: `J${i}`,
    title: ['Senior Data Engineer', 'Data Analyst', 'Staff Software Engineer, Data Platform', 'Registered Nurse'][i % 4],
    location: ['Berlin, Germany', 'Austin, TX', 'Toronto, Canada; Seattle, WA', 'Remote - US'][i % 4],
    employmentTypes: [['Full-time'], ['Part-time'], ['Contract', 'Full-time'], ['Full-time']][i % 4],
    publishedAt: NOW - (i % 20) * DAY_MS - 7_200_000,
    descriptionHtml: `<p>Listing ${i}: build reliable data pipelines with our team.</p>`,
    applyUrl: `https://jobs.example/j${i}`,
    company: { name: `Company ${i % 3}` },
    ...patch,
  };
}

/** Index rows, live rows and day counts as they are stored. */
async function storedIndex(db: Db) {
  const facets = await sql<{
    facet: string;
    has_remote: number;
    published_at: number;
    job_id: number;
    attrs: number;
    countries: string;
  }>`select facet, has_remote, published_at, job_id, attrs, countries from job_facets`.execute(db);
  const live = await sql<{
    job_id: number;
    has_remote: number;
    published_at: number;
    attrs: number;
    countries: string;
  }>`select job_id, has_remote, published_at, attrs, countries from job_live`.execute(db);
  const days = await sql<{
    facet: string;
    has_remote: number;
    day: number;
    n: number;
  }>`select facet, has_remote, day, n from job_facet_days where n <> 0`.execute(db);
  return {
    facets: facets.rows
      .map((r) => `${r.facet}|${r.has_remote}|${Number(r.published_at)}|${Number(r.job_id)}|${Number(r.attrs)}|${r.countries}`)
      .sort(),
    live: live.rows.map((r) => `${Number(r.job_id)}|${r.has_remote}|${Number(r.published_at)}|${Number(r.attrs)}|${r.countries}`).sort(),
    days: days.rows.map((r) => `${r.facet}|${r.has_remote}|${r.day}|${Number(r.n)}`).sort(),
  };
}

/** SQLite: full-text rows missing for live listings (or live rows keyed wrongly), and rows that belong to none. */
async function textOutOfStep(db: Db, dialect: string): Promise<[number, number]> {
  if (dialect !== 'sqlite') return [0, 0];
  const keys = sql.raw(ftsKeySql('has_remote', 'published_at', 'id'));
  const missing = await sql<{
    n: number;
  }>`select count(*) as n from (select ${keys} as k from jobs where expired = 0 except select rowid from jobs_fts)`.execute(db);
  const extra = await sql<{
    n: number;
  }>`select count(*) as n from (select rowid as k from jobs_fts except select ${keys} from jobs where expired = 0)`.execute(db);
  // job_live is keyed by the same keys.
  const misKeyed = await sql<{
    n: number;
  }>`select count(*) as n from job_live where search_key <> ${sql.raw(ftsKeySql('has_remote', 'published_at', 'job_id'))}`.execute(db);
  return [Number(missing.rows[0].n) + Number(misKeyed.rows[0].n), Number(extra.rows[0].n)];
}

/** The index recomputed from the live jobs rows: what the incremental writes must have left. */
async function expectedIndex(db: Db) {
  const rows = await db
    .selectFrom('jobs')
    .select([
      'id',
      'has_remote',
      'published_at',
      'type_ids',
      'city_ids',
      'country_codes',
      'region_ids',
      'experience_level',
      'title',
      'company_name',
      'company_id',
    ])
    .where('expired', '=', 0)
    .execute();
  const facets: string[] = [];
  const live: string[] = [];
  const days = new Map<string, number>();
  for (const row of rows) {
    const l = indexedRow(row);
    live.push(`${l.jobId}|${l.hasRemote}|${l.publishedAt}|${l.entry.attrs}|${l.entry.countries}`);
    for (const facet of l.entry.facets) {
      facets.push(`${facet}|${l.hasRemote}|${l.publishedAt}|${l.jobId}|${l.entry.attrs}|${l.entry.countries}`);
      if (hasDayCounts(facet)) {
        const key = `${facet}|${l.hasRemote}|${Math.floor(l.publishedAt / DAY_MS)}`;
        days.set(key, (days.get(key) ?? 0) + 1);
      }
    }
  }
  return { facets: facets.sort(), live: live.sort(), days: [...days].map(([k, n]) => `${k}|${n}`).sort() };
}

describe('index keys', () => {
  it('pairs every two title words, unordered', () => {
    assert.deepEqual(pairFacets('Senior Data Engineer'), ['p:data senior', 'p:engineer senior', 'p:data engineer']);
    assert.deepEqual(pairFacets('Engineer'), []);
    assert.deepEqual(titleQueryFacets('engineer DATA'), ['p:data engineer']);
    // An odd last word pairs with the first, so every word is covered.
    assert.deepEqual(titleQueryFacets('senior backend engineer'), ['p:backend senior', 'p:engineer senior']);
    assert.deepEqual(titleQueryFacets('nurse'), ['w:nurse']);
  });

  it('covers a title query with its narrowest pairs, every word held', () => {
    const sizes: Record<string, number> = { 'p:backend senior': 50, 'p:engineer senior': 900, 'p:backend engineer': 200 };
    assert.deepEqual(
      titlePairCover(['senior', 'backend', 'engineer'], (f) => sizes[f]),
      ['p:backend senior', 'p:backend engineer'],
    );
    // Four words: a pair whose words are both held already is skipped; every word ends up held.
    const four = ['senior', 'machine', 'learning', 'engineer'];
    const size = (f: string) => ({ 'p:learning machine': 10, 'p:engineer learning': 20, 'p:engineer machine': 30 })[f] ?? 1_000;
    const cover = titlePairCover(four, size);
    assert.deepEqual(cover.slice(0, 2), ['p:learning machine', 'p:engineer learning']);
    assert.equal(cover.length, 3);
    assert.deepEqual(new Set(cover.flatMap((f) => f.slice(2).split(' '))), new Set(four));
    // Equal sizes: the order of the facets decides, so a query always reads the same ranges.
    assert.deepEqual(
      titlePairCover(['a', 'b', 'c'], () => 5),
      ['p:a b', 'p:a c'],
    );
  });

  it('gives types, regions and levels distinct bits, and none to ids it cannot hold', () => {
    const bits = ['t:1', 't:6', 'r:1', 'r:6', 'x:entry', 'x:mid', 'x:senior', 'x:executive'].map(attributeBit);
    assert.ok(bits.every((b) => b !== null && b > 0));
    assert.equal(new Set(bits).size, bits.length);
    assert.equal(attributeBit('t:999'), null);
    assert.equal(attributeBit('w:engineer'), null);
  });
});

for (const target of dbTargets) {
  describe(`jobs search index kept in step (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let service: JobService;
    const board = (count: number, patch: (i: number) => Partial<SourceListing> = () => ({})) =>
      Array.from({ length: count }, (_, i) => posting(i, patch(i)));
    const importBoard = (listings: SourceListing[], now: number) =>
      service.importer.importBoard(listings, { source: 'greenhouse', board: 'indexco', now });

    before(async () => {
      database = await target.open();
      service = new JobService({ db: database.db });
      await importBoard(board(40), NOW - DAY_MS);
    });
    after(() => database.destroy());

    it('a new import writes exactly the index its listings define', async () => {
      assert.deepEqual(await storedIndex(database.db), await expectedIndex(database.db));
      const pairs = await sql<{ n: number }>`select count(*) as n from job_facets where facet = 'p:data engineer'`.execute(database.db);
      assert.ok(Number(pairs.rows[0].n) > 0);
    });

    it('rewrites and expiry keep pairs, attributes and countries in step', async () => {
      // Changed titles, places, types; 5 listings gone.
      const next = board(40, (i) =>
        i % 5 === 0 ? { title: 'Principal Backend Engineer', location: 'Paris, France', employmentTypes: ['Internship'] } : {},
      ).filter((_, i) => i % 8 !== 3);
      const summary = await importBoard(next, NOW);
      assert.equal(summary.expired, 5);
      assert.ok(summary.updated > 0);
      assert.deepEqual(await storedIndex(database.db), await expectedIndex(database.db));
      assert.deepEqual(await textOutOfStep(database.db, target.name), [0, 0]);

      const find = (body: Parameters<JobService['search']>[0]) => service.search({ posted_within: 60, ...body }, NOW);
      const rewritten = next.filter((l) => l.title === 'Principal Backend Engineer');
      assert.equal((await find({ job_title: 'backend principal' })).total_count, rewritten.length);
      assert.equal(
        (await find({ job_title: 'engineer backend principal', country_id: 'FR', job_type_id: 4 })).total_count,
        rewritten.length,
      );
      assert.equal((await find({ job_title: 'backend principal', job_type_id: 1 })).total_count, 0);
      // The old title of a rewritten listing no longer finds it; the others still do.
      const stillSenior = next.filter((l) => l.title === 'Senior Data Engineer' && !l.location.startsWith('Remote')).length;
      assert.equal((await find({ job_title: 'senior data engineer' })).total_count, stillSenior);
      // Countries in the row: a listing in two countries is found by either.
      const twoCountries = next.filter((l) => l.location.startsWith('Toronto') && l.title !== 'Principal Backend Engineer').length;
      assert.equal((await find({ country_id: 'CA', job_title: 'software engineer' })).total_count, twoCountries);
      assert.equal((await find({ country_id: 'US', job_title: 'software engineer', job_type_id: 6 })).total_count, twoCountries);
      assert.equal((await find({ country_id: 'DE', job_title: 'software engineer' })).total_count, 0);
      // Full-text matches checked against the attributes in job_live.
      assert.equal((await find({ job_description: '"data pipelines"', region_id: 3, job_type_id: 4 })).total_count, rewritten.length);

      // Back on the board: everything as first imported.
      await importBoard(board(40), NOW + 1);
      assert.deepEqual(await storedIndex(database.db), await expectedIndex(database.db));
      assert.deepEqual(await textOutOfStep(database.db, target.name), [0, 0]);
      // Every listing says "data pipelines"; a quarter of them are remote.
      assert.equal((await find({ job_description: '"data pipelines"' })).total_count, 30);
      assert.equal((await find({ job_description: '"data pipelines"', has_remote: true })).total_count, 10);
    });

    it('a date window that starts inside a minute counts exactly', async () => {
      const lo = NOW - 7 * DAY_MS + 30_000;
      const edge = [
        posting(100, { publishedAt: lo - 10_000 }),
        posting(101, { publishedAt: lo + 10_000 }),
        posting(102, { publishedAt: lo + 70_000 }),
      ].map((l) => ({ ...l, location: 'Lisbon, Portugal', descriptionHtml: '<p>Edge of the window: quokka handling.</p>' }));
      await service.importer.importBoard(edge, { source: 'greenhouse', board: 'edgeco', now: NOW });
      const found = await service.search({ job_description: 'quokka', posted_within: 7 }, NOW + 30_000);
      assert.equal(found.total_count, 2);
      const withFacet = await service.search({ job_description: 'quokka', country_id: 'PT', posted_within: 7 }, NOW + 30_000);
      assert.equal(withFacet.total_count, 2);
    });

    it('description-only pages are in exact (published, id) order even within one minute', async () => {
      const minuteStart = NOW - 3 * DAY_MS;
      // Ids grow with i while the published times fall: key order (minute, id) differs from the result order.
      const wombats = Array.from({ length: 9 }, (_, i) =>
        posting(200 + i, {
          publishedAt: i < 7 ? minuteStart + 50_000 - i * 7_000 : minuteStart - (i - 6) * 60_000,
          location: 'Lisbon, Portugal',
          descriptionHtml: `<p>Wombat keeper ${i}.</p>`,
        }),
      );
      await service.importer.importBoard(wombats, { source: 'greenhouse', board: 'wombatco', now: NOW });
      const expected = wombats
        .map((w) => w.publishedAt!)
        .sort((a, b) => b - a)
        .map((t) => new Date(t).toISOString());
      // Alone (counted in FTS5), and with a filter checked on each match.
      for (const extra of [{}, { country_id: 'PT' }]) {
        const seen: string[] = [];
        for (let page = 1; page <= 5; page++) {
          const r = await service.search({ job_description: 'wombat', per_page: 2, page, ...extra }, NOW);
          assert.equal(r.total_count, 9);
          seen.push(...r.results.map((j) => j.published));
        }
        assert.deepEqual(seen, expected);
      }
    });

    it('compacting the search index after a load changes no answer', async () => {
      const queries = [
        { job_description: '"data pipelines"' },
        { job_description: 'wombat', per_page: 3, page: 2 },
        { job_title: 'senior data engineer' },
        { job_description: 'quokka', country_id: 'PT' },
      ];
      const before = await Promise.all(queries.map((q) => service.search({ posted_within: 60, ...q }, NOW)));
      await service.optimizeSearchIndex();
      const afterwards = await Promise.all(queries.map((q) => service.search({ posted_within: 60, ...q }, NOW)));
      assert.deepEqual(afterwards, before);
      assert.ok(before[0].total_count > 0);
      assert.deepEqual(await textOutOfStep(database.db, target.name), [0, 0]);
    });

    it('the 0006 migration rebuilds the index of an existing database from its jobs', async () => {
      const before = await storedIndex(database.db);
      await searchIndexV2.down(database.db);
      await searchIndexV2.up(database.db);
      assert.deepEqual(await storedIndex(database.db), before);
      assert.deepEqual(await textOutOfStep(database.db, target.name), [0, 0]);
      assert.equal((await service.search({ job_description: '"data pipelines"', posted_within: 60 }, NOW)).total_count, 30);
    });
  });
}
