// Title and combined-filter searches answer the same on PostgreSQL as on SQLite: the same listings
// (the benchmark's generator plus listings placed on the window's edges), the same totals and the
// same pages, for windows that start and end inside a day and on day boundaries.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { CompanyService } from '../../src/companies/service.ts';
import * as facetsCovering from '../../src/db/migrations/0032_job_facets_covering.ts';
import { JobService } from '../../src/jobs/service.ts';
import type { JobSearchFilters } from '../../src/jobs/search.ts';
import type { SourceListing } from '../../src/ingest/jobs/types.ts';
import { generateBoards } from '../../bench/support/jobs-generator.ts';
import { openOwnPostgresDatabase, openSqlite, PG_SKIP, type TestDatabase } from '../support/db.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;
const DAY_START = Math.floor(NOW / DAY) * DAY;

/** Listings on the edges of the windows queried below: a millisecond either side of each bound. */
function edgeListings(): SourceListing[] {
  const times: number[] = [];
  for (const days of [7, 14, 30]) {
    const lo = NOW - days * DAY;
    times.push(lo - 1, lo, lo + 1);
    // The first whole day of the window, and the partial day before it.
    const firstDay = Math.ceil(lo / DAY) * DAY;
    times.push(firstDay - 1, firstDay, firstDay + 1);
  }
  // posted_after / posted_before days: their first and last millisecond and just outside.
  for (const day of [DAY_START - 20 * DAY, DAY_START - 3 * DAY]) times.push(day - 1, day, day + DAY - 1, day + DAY);
  times.push(NOW, NOW - 1, DAY_START, DAY_START - 1);
  const titles = ['Senior Backend Engineer', 'Data Engineer', 'Senior Software Engineer', 'Product Manager', 'Senior Quokka Engineer'];
  const places = ['Austin, TX', 'London, UK', 'Berlin, Germany', 'Remote - US'];
  return times.flatMap((publishedAt, i) =>
    [0, 1].map((k) => ({
      sourceId: `edge-${i}-${k}`,
      title: titles[(i + k) % titles.length],
      location: places[(i + 2 * k) % places.length],
      employmentTypes: [k ? 'Part-time' : 'Full-time'],
      publishedAt,
      descriptionHtml: '<p>On the edge of a window.</p>',
      applyUrl: `https://jobs.example/edge-${i}-${k}`,
      company: { name: 'Edge Co', website: 'https://edge.example' },
    })),
  );
}

function boards() {
  return [
    ...[...generateBoards({ listings: 4_000, companies: 40, now: NOW })].map((b) => ({
      source: b.source,
      board: b.board,
      listings: b.listings,
    })),
    { source: 'greenhouse', board: 'edgeco', listings: edgeListings() },
  ];
}

const TITLES = [
  'data engineer',
  'software engineer',
  'senior backend engineer',
  'engineer',
  'quokka',
  'senior quokka engineer',
  'senior machine learning engineer',
  'lead site reliability engineer',
];
const QUERIES: JobSearchFilters[] = [
  ...TITLES.map((job_title) => ({ job_title })),
  ...TITLES.map((job_title) => ({ job_title, posted_within: 7 })),
  ...TITLES.map((job_title) => ({ job_title, has_remote: true, posted_within: 30 })),
  { job_title: 'engineer', posted_after: '2026-10-31', posted_before: '2026-11-17' },
  { job_title: 'senior engineer', posted_after: '2026-10-31' },
  { job_title: 'data engineer', posted_before: '2026-11-17', posted_within: 60 },
  ...['US', 'GB', 'DE'].flatMap((country_id) =>
    ['engineer', 'manager', 'senior engineer', 'backend engineer'].map((job_title) => ({
      country_id,
      job_title,
      experience_level: 'senior' as const,
      job_type_id: 1,
      posted_within: 14,
    })),
  ),
  { country_id: 'US', job_title: 'engineer', job_type_id: 2, posted_within: 30 },
  // Windows on whole days, and one too short for whole days.
  { country_id: 'US', job_title: 'engineer', experience_level: 'senior', posted_after: '2026-10-31', posted_before: '2026-11-17' },
  { country_id: 'GB', job_title: 'quokka', job_type_id: 1, posted_after: '2026-10-31' },
  { country_id: 'US', job_title: 'engineer', experience_level: 'senior', posted_within: 1 },
  { country_id: 'DE', experience_level: 'senior', job_type_id: 4, posted_within: 14 },
  { region_id: 5, job_title: 'engineer', experience_level: 'senior', posted_within: 7 },
  { country_id: 'US', job_title: 'engineer', has_remote: true },
  { country_id: 'US', job_title: 'data engineer', has_remote: 'any' },
];
/** Pages compared for every query: the first, the second of a small page size, one past the end. */
const PAGES = [{}, { page: 2, per_page: 7 }, { page: 3, per_page: 50 }, { page: 400, per_page: 50 }];

describe('title and combined searches on PostgreSQL answer as on SQLite', { skip: PG_SKIP }, () => {
  let sqlite: TestDatabase;
  let postgres: TestDatabase;
  const service = (db: TestDatabase) => new JobService({ db: db.db, companies: new CompanyService({ db: db.db }), workerAfter: Infinity });

  before(async () => {
    sqlite = await openSqlite();
    // A database of its own: the import's vacuum must not wait on other test files' transactions.
    postgres = await openOwnPostgresDatabase();
    for (const db of [sqlite, postgres]) {
      const jobs = service(db);
      await jobs.importer.importBoards(boards(), { now: NOW, groupSize: 1_000 });
      // Then a second import of a few boards: some listings gone (expired), some rewritten with
      // another title, place and type, so the index and the counts also change in place.
      for (const board of boards().slice(0, 6)) {
        const listings = board.listings
          .filter((_, i) => i % 7 !== 3)
          .map((l, i) =>
            i % 5 === 0 ? { ...l, title: 'Senior Quokka Engineer', location: 'Munich, Germany', employmentTypes: ['Contract'] } : l,
          );
        await jobs.importer.importBoard(listings, { source: board.source, board: board.board, now: NOW + 1_000 });
      }
    }
  });
  after(async () => {
    await sqlite?.destroy();
    await postgres?.destroy();
  });

  it('gives the same totals and the same pages, newest first', async () => {
    const reference = service(sqlite);
    const tested = service(postgres);
    // A listing is named by its link, the same in both stores (ids may differ).
    const answer = async (jobs: JobService, query: JobSearchFilters, now: number) => {
      try {
        const r = await jobs.search(query, now);
        return { ...r, results: r.results.map((j) => `${j.published} ${j.application_url}`) };
      } catch (error) {
        return { refused: (error as Error).message };
      }
    };
    let found = 0;
    // At noon (windows start mid-day), just after midnight, and just before it.
    for (const now of [NOW, DAY_START + 1, DAY_START + DAY - 1]) {
      for (const query of QUERIES) {
        for (const page of PAGES) {
          const q = { ...query, ...page };
          const expected = await answer(reference, q, now);
          assert.deepEqual(await answer(tested, q, now), expected, `${JSON.stringify(q)} at ${new Date(now).toISOString()}`);
          found += 'results' in expected ? expected.results.length : 0;
        }
      }
    }
    assert.ok(found > 1_000, `the queries find listings (${found})`);
  });

  it('an import leaves the index pages all-visible on PostgreSQL, so counts read the index alone', async () => {
    const [pages] = (
      await sql<{
        visible: number;
        pages: number;
      }>`select relallvisible as visible, relpages as pages from pg_class where oid = to_regclass('job_facets')`.execute(postgres.db)
    ).rows;
    assert.ok(pages.pages > 0 && pages.visible === pages.pages, JSON.stringify(pages));
    const count = await sql<{
      'QUERY PLAN': string;
    }>`explain select count(*) from job_facets where facet = 'w:engineer' and has_remote = 0 and published_at > 0 and (attrs & 1) = 1 and strpos(countries, 'US') > 0`.execute(
      postgres.db,
    );
    assert.match(count.rows.map((r) => r['QUERY PLAN']).join('\n'), /Index Only Scan/);
  });

  it('migration 0032 counts the title days (and on PostgreSQL the days per attributes) of a store as its imports counted them', async () => {
    for (const db of [sqlite, postgres]) {
      const days = async () =>
        (
          await sql<{
            row: string;
          }>`select facet || ' ' || has_remote || ' ' || day || ' ' || n as row from job_facet_days where n <> 0 order by facet, has_remote, day`.execute(
            db.db,
          )
        ).rows.map((r) => r.row);
      // PostgreSQL: the counts per attributes and countries too.
      const attrDays = async () =>
        db.dialect === 'postgres'
          ? (
              await sql<{
                row: string;
              }>`select facet || ' ' || has_remote || ' ' || day || ' ' || attrs || ' ' || countries || ' ' || n as row from job_facet_attr_days where n <> 0 order by facet, has_remote, day, attrs, countries`.execute(
                db.db,
              )
            ).rows.map((r) => r.row)
          : [];
      const imported = await days();
      const importedAttrs = await attrDays();
      assert.ok(imported.some((row) => row.startsWith('p:engineer senior ')));
      assert.ok(db.dialect === 'sqlite' || importedAttrs.some((row) => row.startsWith('w:quokka ')));
      await facetsCovering.down(db.db);
      assert.ok(!(await days()).some((row) => /^[wp]:/.test(row)));
      await facetsCovering.up(db.db);
      assert.deepEqual(await days(), imported);
      assert.deepEqual(await attrDays(), importedAttrs);
    }
  });
});
