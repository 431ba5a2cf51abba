import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import { CompanyService } from '../../src/companies/service.ts';
import type { SourceListing } from '../../src/ingest/jobs/types.ts';
import { JobService } from '../../src/jobs/service.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;
const PLACES = [
  'Berlin, Germany',
  'Austin, TX',
  'Remote - US',
  'London, ON',
  'Paris, France or Remote',
  'Middle of nowhere',
  'Toronto, ON, Canada',
];
const TITLES = ['Senior Data Engineer', 'Werkstudent (m/w/d)', 'Head of Sales', 'Intern', 'Analyst'];
const TEXTS = [
  '<p>We are looking for an engineer to join our team and help us build the product.</p><ul><li>5+ years of experience</li></ul>',
  '<p>Wir suchen für unser Team eine Entwicklerin, die mit uns die Plattform weiterentwickelt.</p>',
  '&lt;p&gt;Nous recherchons un développeur pour rejoindre notre équipe.&lt;/p&gt; Salary: €60k–€75k',
  '<p>Must hold an active TS/SCI clearance. Pay: $120,000 - $150,000 per year. This role is fully remote.</p>',
  'Poszukujemy doświadczonego programisty do naszego zespołu w Warszawie. Oferujemy elastyczne godziny pracy i nowoczesne biuro.',
];

/** A board with several batches, refused postings, a repeated id and varied text. */
function board(count: number): SourceListing[] {
  const out: SourceListing[] = [];
  for (let i = 0; i < count; i++) {
    out.push({
      sourceId: i === 17 ? '' : `J${i % 150 === 149 ? 3 : i}`,
      title: i % 40 === 0 ? '  ' : TITLES[i % TITLES.length],
      location: PLACES[i % PLACES.length],
      remote: i % 11 === 0 ? true : null,
      employmentTypes: [['Full-time', 'Part-time', 'Contract'][i % 3]],
      publishedAt: NOW - (i % 30) * DAY,
      descriptionHtml: `${TEXTS[i % TEXTS.length]}<p>Posting ${i}.</p>`,
      applyUrl: i === 23 ? '' : `https://jobs.example/${i}`,
      company: i % 3 ? { name: `Firm ${i % 7}`, website: `https://firm${i % 7}.example` } : null,
    });
  }
  return out;
}

async function importAll(database: TestDatabase, workerAfter: number): Promise<{ summaries: string; rows: string; facets: string }> {
  const service = new JobService({ db: database.db, companies: new CompanyService({ db: database.db }), workerAfter });
  if (workerAfter === 0) {
    await service.importer.startNormalizationThread();
    assert.equal(service.importer.normalizationThreadReady, true);
  }
  const summaries = [];
  const postings = board(700);
  const batches: number[] = [];
  summaries.push(
    await service.importer.importBoard(postings, {
      source: 'lever',
      board: 'big',
      now: NOW,
      batchSize: 120,
      company: { name: 'Owner' },
      onBatch: (s) => batches.push(s.read),
    }),
  );
  summaries.push(
    await service.importer.importBoard(postings.slice(50, 400), { source: 'lever', board: 'big', now: NOW + 1, batchSize: 120 }),
  );
  summaries.push(await service.importer.importBoard(postings.slice(0, 9), { source: 'ashby', board: 'small', now: NOW }));
  await service.close();
  const rows = await sql`select * from jobs order by id`.execute(database.db);
  const facets =
    await sql`select facet, has_remote, published_at, job_id from job_facets order by facet, has_remote, published_at, job_id`.execute(
      database.db,
    );
  return { summaries: JSON.stringify([summaries, batches]), rows: JSON.stringify(rows.rows), facets: JSON.stringify(facets.rows) };
}

for (const target of dbTargets) {
  describe(`jobs import with the normalization thread (${target.name})`, { skip: target.skip }, () => {
    let here: TestDatabase;
    let there: TestDatabase;
    before(async () => {
      here = await target.open();
      there = await target.open();
    });
    after(async () => {
      await here?.destroy();
      await there?.destroy();
    });

    it('stores the same listings and reports the same summaries as normalizing on the importing thread', async () => {
      const alone = await importAll(here, Infinity);
      const shared = await importAll(there, 0);
      assert.equal(shared.summaries, alone.summaries);
      assert.equal(shared.rows, alone.rows);
      assert.equal(shared.facets, alone.facets);
      const [[first]] = JSON.parse(alone.summaries);
      assert.equal(first.read, 700);
      assert.ok(first.rejected >= 2);
    });
  });
}

describe('normalization thread lifetime', () => {
  /** Runs an import in a child process; `wait` waits for the thread first, else it is still loading when the import ends. */
  function importInChild(wait: boolean) {
    const script = `
      import { openDatabase } from './src/db/database.ts';
      import { migrateToLatest } from './src/db/migrate.ts';
      import { JobService } from './src/jobs/service.ts';
      const handle = openDatabase('sqlite::memory:');
      await migrateToLatest(handle.db);
      const jobs = new JobService({ db: handle.db, workerAfter: 0 });
      if (${wait}) {
        await jobs.importer.startNormalizationThread();
        if (!jobs.importer.normalizationThreadReady) throw new Error('no thread');
      }
      const listings = Array.from({ length: 50 }, (_, i) => ({ sourceId: 'x' + i, title: 'Engineer', location: 'Berlin', employmentTypes: [], publishedAt: 0, descriptionHtml: '<p>Hi</p>', applyUrl: 'https://x.example/' + i }));
      const summary = await jobs.importer.importBoard(listings, { source: 'lever', board: 'b', now: 1 });
      console.log(summary.inserted);
    `;
    return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../..', import.meta.url),
      encoding: 'utf8',
      timeout: 60_000,
    });
  }

  it('an import that used the thread lets the process exit without close()', () => {
    const run = importInChild(true);
    assert.equal(run.stderr, '');
    assert.equal(run.stdout.trim(), '50');
    assert.equal(run.status, 0);
  });

  it('a thread still loading when the import ends does not keep the process alive', () => {
    const run = importInChild(false);
    assert.equal(run.stderr, '');
    assert.equal(run.stdout.trim(), '50');
    assert.equal(run.status, 0);
  });
});
