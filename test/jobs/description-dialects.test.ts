// Description queries answer alike on both dialects: SQLite's FTS5 (positions) is the reference for
// PostgreSQL's index of words, pairs and triples (src/jobs/search-terms.ts). The listings hold each
// phrase both in order and with its pairs or triples apart, so a term set that matched more than
// the phrase would show.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompanyService } from '../../src/companies/service.ts';
import { JobService } from '../../src/jobs/service.ts';
import type { JobSearchFilters } from '../../src/jobs/search.ts';
import type { SourceListing } from '../../src/ingest/jobs/types.ts';
import { openPostgres, openSqlite, PG_SKIP, type TestDatabase } from '../support/db.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;

const WORDS = ['month', 'end', 'close', 'data', 'pipelines', 'machine', 'learning', 'on', 'the', 'night', 'shift', 'security', 'clearance'];

/** Fixed texts: phrases in order, and their pairs or triples found apart. */
const TEXTS = [
  'Own the Month-End Close for our EMEA entities.',
  'Month end reporting; the end close is owned by finance.',
  'Work on the night shift in our warehouse.',
  'Work on the night rota; the night shift is optional.',
  'Machine learning on data pipelines, security clearance required.',
  'Data, pipelines and machine-learning; no clearance.',
  'Café naïve über: the month end close, on the night shift.',
];

/** A deterministic text of the vocabulary's words, so that pairs and triples recur by chance too. */
function generated(i: number): string {
  let seed = i * 7919 + 17;
  const words: string[] = [];
  for (let n = 0; n < 24; n++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    words.push(WORDS[seed % WORDS.length]);
  }
  return `${words.join(' ')}.`;
}

function listings(): SourceListing[] {
  const texts = [...TEXTS, ...Array.from({ length: 60 }, (_, i) => generated(i))];
  return texts.map((text, i) => ({
    sourceId: `d${i}`,
    title: i % 3 ? 'Data Engineer' : 'Shift Supervisor',
    location: i % 4 ? 'Dallas, TX' : 'Remote - US',
    employmentTypes: [i % 5 ? 'Full-time' : 'Part-time'],
    publishedAt: NOW - (i % 45) * DAY - 3_600_000,
    descriptionHtml: `<p>${text}</p>`,
    applyUrl: `https://jobs.example/d${i}`,
    company: { name: 'Phrase Works', website: 'https://phrase.example' },
  }));
}

const QUERIES: JobSearchFilters[] = [
  { job_description: 'clearance' },
  { job_description: 'month close' },
  { job_description: '"machine learning"' },
  { job_description: '"month-end close"' },
  { job_description: '"end close"' },
  { job_description: '"on the night shift"' },
  { job_description: '"the night shift"' },
  { job_description: '"data pipelines machine learning"' },
  { job_description: '"security clearance" OR "night shift"' },
  { job_description: 'pipelines OR shift -clearance' },
  { job_description: 'month -"end close"' },
  { job_description: 'night -"the night shift"' },
  { job_description: 'night -"on the night shift"' },
  { job_description: 'data -"month end close"' },
  { job_description: '"month end close" shift', posted_within: 365 },
  { job_description: 'learning', has_remote: true, posted_within: 365 },
  { job_description: '"night shift"', job_type_id: 1, posted_within: 14 },
  { job_description: 'data', country_id: 'US', job_title: 'engineer', posted_after: '2026-10-01' },
  { job_description: '"the night shift" OR clearance', has_remote: 'any' },
  { job_description: 'pipelines', posted_before: '2026-10-20' },
];

describe('description queries on SQLite and PostgreSQL', { skip: PG_SKIP }, () => {
  const stores: { database: TestDatabase; jobs: JobService }[] = [];

  before(async () => {
    for (const open of [openSqlite, () => openPostgres()]) {
      const database = await open();
      const jobs = new JobService({ db: database.db, companies: new CompanyService({ db: database.db }) });
      await jobs.importer.importBoard(listings(), { source: 'lever', board: 'phrases', now: NOW - DAY });
      stores.push({ database, jobs });
    }
  });
  after(async () => {
    for (const { jobs, database } of stores) {
      await jobs.close();
      await database.destroy();
    }
  });

  it('find the same listings in the same order, with the same totals', async () => {
    // Deeper pages too: where PostgreSQL looks for a page in the newest weeks first, the listings'
    // seven weeks make it take one week, four, then all of them, and the count adds the weeks that
    // held the page to the older ones.
    const pages = [
      { per_page: 50 },
      { per_page: 3, page: 2 },
      { per_page: 2 },
      { per_page: 5, page: 2 },
      { per_page: 4, page: 4 },
      { per_page: 10, page: 9 },
    ];
    let found = 0;
    let compared = 0;
    for (const body of QUERIES) {
      for (const page of pages) {
        const [sqlite, postgres] = await Promise.all(
          stores.map(async ({ jobs }) => {
            const r = await jobs.search({ ...body, ...page }, NOW);
            return { total: r.total_count, urls: r.results.map((j) => j.application_url) };
          }),
        );
        assert.deepEqual(postgres, sqlite, JSON.stringify({ ...body, ...page }));
        found += sqlite.total;
        compared += sqlite.urls.length;
      }
    }
    assert.ok(found > 0);
    assert.ok(compared > 100, `${compared} listings compared`);
  });

  it('tell a phrase from its words, pairs or triples found apart', async () => {
    const sqlite = stores[0].jobs;
    const count = async (job_description: string) => (await sqlite.search({ job_description, posted_within: 365 }, NOW)).total_count;
    // Listings 0 and 6 hold "month end close" in order; listing 1 holds "month end" and "end close" apart.
    assert.ok((await count('month end close')) > (await count('"month end close"')));
    // Listings 2 and 6 hold "on the night shift"; listing 3 holds "on the night" and "the night shift" apart.
    assert.ok((await count('"on the night" "the night shift"')) > (await count('"on the night shift"')));
  });
});
