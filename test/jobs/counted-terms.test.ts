// Counted description terms (src/jobs/counted-terms.ts, PostgreSQL): a search of one term made
// counted answers from the term's day counts and the matches of its window's two partial days, and
// must find what SQLite's full-text index finds, with the same totals and order, before and after
// the listings change. The counts themselves are held equal to a recount from job_terms after
// every change: listings rewritten with other texts, expired, added and left staged while a term
// joins the set, then merged. One term is found mostly in old listings, so its page is not in the
// newest stretch the search first asks. Taking migration 0035 back forgets every count.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { CompanyService } from '../../src/companies/service.ts';
import { JobService } from '../../src/jobs/service.ts';
import type { JobSearchFilters } from '../../src/jobs/search.ts';
import type { SourceListing } from '../../src/ingest/jobs/types.ts';
import { countTerm } from '../../src/jobs/counted-terms.ts';
import { migrations } from '../../src/db/migrate.ts';
import { openPostgres, openSqlite, PG_SKIP, type TestDatabase } from '../support/db.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;

const WORDS = ['machine', 'learning', 'data', 'pipelines', 'security', 'clearance', 'night', 'shift', 'the', 'on', 'react', 'kubernetes'];

function text(seed: number): string {
  const words: string[] = [];
  for (let n = 0; n < 20; n++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    words.push(WORDS[Math.floor(seed / 65_536) % WORDS.length]); // the high bits: the low ones of this generator repeat
  }
  return `${words.join(' ')}.`;
}

/** 160 listings over 70 days at times of day that vary, remote or not, of two types, in three countries. */
function listings(count = 160, from = 0): SourceListing[] {
  return Array.from({ length: count }, (_, n) => listing(from + n, `<p>${text((from + n) * 7919 + 17)}</p>`));
}

/**
 * A term found in 40 listings of 40 to 60 days ago and one of yesterday: the newest stretch that
 * should hold a page at the window's average rate holds one, so the page is looked for further back.
 */
function oldTerm(): SourceListing[] {
  return Array.from({ length: 41 }, (_, n) => ({
    ...listing(300 + n, '<p>Maintain our COBOL mainframe batch jobs.</p>'),
    publishedAt: n ? NOW - (40 + (n % 20)) * DAY - n * 60_000 : NOW - DAY,
  }));
}

function listing(i: number, descriptionHtml: string): SourceListing {
  return {
    sourceId: `c${i}`,
    title: i % 3 ? 'Data Engineer' : 'Shift Supervisor',
    location: ['Remote - US', 'Dallas, TX', 'London, UK', 'Berlin, Germany'][i % 4],
    employmentTypes: [i % 5 ? 'Full-time' : 'Part-time'],
    publishedAt: NOW - (i % 70) * DAY - ((i * 7_919_000) % DAY),
    descriptionHtml,
    applyUrl: `https://jobs.example/c${i}`,
    company: { name: 'Counted Works', website: 'https://counted.example' },
  };
}

const TERMS = ['machine', '"machine learning"', '"the night shift"', 'kubernetes', '"data pipelines"', '"cobol mainframe"'];
const FILTERS: JobSearchFilters[] = [
  {},
  { posted_within: 365 },
  { posted_within: 14 },
  { has_remote: true, posted_within: 60 },
  { job_type_id: 1 },
  { country_id: 'US', posted_within: 45 },
  { has_remote: 'any' },
  { posted_after: '2026-10-01', posted_before: '2026-11-10' },
  { posted_within: 90 },
];
const PAGES = [{ per_page: 50 }, { per_page: 3, page: 2 }, { per_page: 5, page: 4 }];

describe('counted description terms on PostgreSQL', { skip: PG_SKIP }, () => {
  let sqlite: { database: TestDatabase; jobs: JobService };
  let postgres: { database: TestDatabase; jobs: JobService };

  before(async () => {
    const open = async (database: TestDatabase) => {
      const jobs = new JobService({
        db: database.db,
        companies: new CompanyService({ db: database.db }),
        // Every term searched is counted, and the matches drive even where a facet range is small.
        search: { countTermsAfterMs: 0, facetDrivesUpTo: 0 },
      });
      await jobs.importer.importBoard([...listings(), ...oldTerm()], { source: 'lever', board: 'counted', now: NOW - DAY });
      return { database, jobs };
    };
    sqlite = await open(await openSqlite());
    postgres = await open(await openPostgres());
  });
  after(async () => {
    for (const { jobs, database } of [sqlite, postgres]) {
      await jobs?.close();
      await database?.destroy();
    }
  });

  /** Every term, filter and page shape on both stores; returns how many listings were compared. */
  async function compare(): Promise<number> {
    let compared = 0;
    for (const job_description of TERMS)
      for (const filters of FILTERS)
        for (const page of PAGES) {
          const body = { job_description, ...filters, ...page };
          const [expected, actual] = await Promise.all(
            [sqlite, postgres].map(async ({ jobs }) => {
              const r = await jobs.search(body, NOW);
              return { total: r.total_count, urls: r.results.map((j) => j.application_url) };
            }),
          );
          assert.deepEqual(actual, expected, JSON.stringify(body));
          compared += expected.urls.length;
        }
    return compared;
  }

  /** The counts kept for each counted term against a recount of the live listings holding it. */
  async function assertCountsExact(): Promise<number> {
    const db = postgres.database.db;
    const terms = (await sql<{ term: string }>`select term from job_counted_terms order by term`.execute(db)).rows.map((r) => r.term);
    for (const term of terms) {
      const kept = await sql<{ key: string; n: string }>`
        select has_remote || ':' || day || ':' || attrs || ':' || countries as key, n::text as n from job_facet_attr_days
        where facet = ${`d:${term}`} and n <> 0 order by 1`.execute(db);
      const keptDays = await sql<{ key: string; n: string }>`
        select has_remote || ':' || day as key, n::text as n from job_facet_days where facet = ${`d:${term}`} and n <> 0 order by 1`.execute(
        db,
      );
      const holding = sql`select t.* from job_terms t join job_live l on l.job_id = t.job_id
        where exists (select 1 from unnest(t.terms) u where split_part(u.lexeme, '~', 1) = ${term})`;
      const recount = await sql<{ key: string; n: string }>`
        select has_remote || ':' || (published_at / ${DAY}) || ':' || attrs || ':' || countries as key, count(*)::text as n
        from (${holding}) h group by 1 order by 1`.execute(db);
      const recountDays = await sql<{ key: string; n: string }>`
        select has_remote || ':' || (published_at / ${DAY}) as key, count(*)::text as n from (${holding}) h group by 1 order by 1`.execute(
        db,
      );
      assert.deepEqual(kept.rows, recount.rows, `counts per attributes of "${term}"`);
      assert.deepEqual(keptDays.rows, recountDays.rows, `day counts of "${term}"`);
    }
    return terms.length;
  }

  it('counts the terms searched, and answers as SQLite does from their counts', async () => {
    const before = await compare();
    await postgres.jobs.searcher.settled();
    const counted = await assertCountsExact();
    assert.equal(counted, TERMS.length, 'every term searched is counted');
    // Now from the counts: the same listings, totals and order.
    assert.equal(await compare(), before);
    assert.ok(before > 200, `${before} listings compared`);
  });

  it('keeps the counts exact as listings are rewritten, expire and arrive, and while a term joins with listings staged', async () => {
    // Every third listing's text changes, the last 40 vanish (expired), 30 new ones arrive.
    const changed = listings(120).map((l, i) => (i % 3 ? l : { ...l, descriptionHtml: `<p>${text(i * 31 + 5)}</p>` }));
    const arriving = listings(30, 160);
    for (const store of [sqlite, postgres])
      await store.jobs.importer.importBoard([...changed, ...arriving], {
        source: 'lever',
        board: 'counted',
        now: NOW - DAY / 2,
        expireMissing: true,
      });
    assert.equal(await assertCountsExact(), TERMS.length);
    assert.ok((await compare()) > 100);

    // Listings staged and not merged while a term joins: their merge counts them.
    const staged = listings(20, 200);
    for (const store of [sqlite, postgres])
      await store.jobs.importer.importBoard(staged, { source: 'lever', board: 'late', now: NOW - DAY / 4, mergeIndex: false });
    const pending = await sql<{ n: string }>`select count(*)::text as n from job_facets_staged`.execute(postgres.database.db);
    assert.ok(Number(pending.rows[0].n) > 0, 'listings wait in the stage');
    const stagedHolding = await sql<{ n: string }>`
      select count(*)::text as n from job_facets_staged s join job_terms t on t.job_id = s.job_id
      where exists (select 1 from unnest(t.terms) u where split_part(u.lexeme, '~', 1) = 'security clearance')`.execute(
      postgres.database.db,
    );
    assert.ok(Number(stagedHolding.rows[0].n) > 0, 'staged listings hold the term that joins');
    assert.equal(await countTerm(postgres.database.db, 'security clearance'), 'added');
    assert.equal(await countTerm(postgres.database.db, 'security clearance'), 'counted', 'counted once');
    for (const store of [sqlite, postgres]) await store.jobs.mergeStagedIndex();
    assert.equal(await assertCountsExact(), TERMS.length + 1);
    const body = { job_description: '"security clearance"', posted_within: 365 };
    const [expected, actual] = await Promise.all([sqlite, postgres].map(({ jobs }) => jobs.search(body, NOW)));
    assert.ok(expected.total_count > 0);
    assert.deepEqual(
      { total: actual.total_count, urls: actual.results.map((j) => j.application_url) },
      { total: expected.total_count, urls: expected.results.map((j) => j.application_url) },
    );
    assert.ok((await compare()) > 100);
  });

  it('forgets every counted term when its migration is taken back, and counts them again when searched', async () => {
    const db = postgres.database.db;
    await migrations['0035_job_counted_terms'].down!(db);
    const left = await sql<{ n: string }>`
      select (select count(*) from job_facet_days where facet like 'd:%') + (select count(*) from job_facet_attr_days where facet like 'd:%') as n`.execute(
      db,
    );
    assert.equal(Number(left.rows[0].n), 0);
    await migrations['0035_job_counted_terms'].up(db);
    const index = await sql`select 1 from pg_indexes where schemaname = current_schema() and indexname = 'job_terms_published'`.execute(db);
    assert.equal(index.rows.length, 1, 'the time index is back');
    assert.ok((await compare()) > 100);
    await postgres.jobs.searcher.settled();
    assert.equal(await assertCountsExact(), TERMS.length);
    assert.ok((await compare()) > 100);
  });
});
