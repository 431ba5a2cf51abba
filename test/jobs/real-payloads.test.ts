// Payloads published by others (the sources' own documentation, recorded API responses in public
// repositories), under test/fixtures/real with their origin in ORIGINS.md. Each is read field by
// field as a user would judge it, and importing one twice changes nothing.
import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JOB_CONNECTORS } from '../../src/ingest/jobs/index.ts';
import { PayloadShapeError } from '../../src/ingest/jobs/shape.ts';
import { normalizeListing } from '../../src/jobs/listing.ts';
import { resolveLocation } from '../../src/jobs/geo.ts';
import { JobService } from '../../src/jobs/service.ts';
import { openSqlite, type TestDatabase } from '../support/db.ts';
import type { ExperienceLevel } from '../../src/contract/jobs.ts';

const REAL = new URL('../fixtures/real/jobs/', import.meta.url);
const read = (file: string) => readFileSync(fileURLToPath(new URL(file, REAL)), 'utf8');

/** What a user would check on one posting. Cities by name; types by our job-type ids (1 full time, 5 contract…). */
interface Expected {
  id: string;
  title: string;
  /** The company the payload itself names, or null when it names none. */
  company: string | null;
  countries: string[];
  cities: string[];
  remote: boolean;
  types: number[];
  level: ExperienceLevel;
  salary: [number | null, number | null, string | null] | null;
  published: string;
}

interface Case {
  file: string;
  source: string;
  board: string;
  /** The clock of the read, for sources that drop postings past their end date. */
  at?: string;
  postings: Expected[];
}

const cityId = (name: string) => {
  const city = resolveLocation(name).cities[0];
  assert.ok(city, `the gazetteer knows ${name}`);
  return city.geonameid;
};

const STRIPE = (id: string, title: string, cities: string[], level: ExperienceLevel, published: string, countries = ['US']): Expected => ({
  id,
  title,
  company: null,
  countries,
  cities,
  remote: false,
  types: [],
  level,
  salary: null,
  published,
});

const CASES: Case[] = [
  {
    file: 'greenhouse/generalassembly-jobs.json',
    source: 'greenhouse',
    board: 'generalassembly',
    postings: [
      STRIPE('721', 'Application developer', ['New York City, US'], 'mid', '2013-09-12'),
      STRIPE('722', 'Finance Analyst', ['New York City, US'], 'mid', '2013-09-12'),
    ],
  },
  {
    file: 'greenhouse/generalassembly-jobs-with-content.json',
    source: 'greenhouse',
    board: 'generalassembly',
    postings: [
      STRIPE('721', 'Application developer', ['New York City, US'], 'mid', '2013-09-12'),
      STRIPE('722', 'Finance Analyst', ['New York City, US'], 'mid', '2013-09-12'),
    ],
  },
  {
    file: 'greenhouse/vaulttec-docs-example.json',
    source: 'greenhouse',
    board: 'vaulttec',
    postings: [STRIPE('127817', 'Bad Cop', ['New York City, US'], 'mid', '2016-01-14')],
  },
  {
    file: 'greenhouse/stripe-board-2021.json',
    source: 'greenhouse',
    board: 'stripe',
    postings: [
      STRIPE('3173827', '1099 Tax Product Lead', ['Seattle, US'], 'senior', '2021-05-27'),
      STRIPE('3101591', '(2021) Account Executive, Growth', ['New York City, US'], 'senior', '2021-05-27'),
      STRIPE('3099911', 'ABM Field Marketing Lead', ['San Francisco, US', 'Seattle, US', 'New York City, US'], 'senior', '2021-05-27'),
      STRIPE('2937839', 'Account Associate', ['New York City, US'], 'entry', '2021-05-27'),
      STRIPE('3112361', 'Account Associate', ['Chicago, US'], 'entry', '2021-05-27'),
      STRIPE('3181126', 'Account Associate (German Speaking)', ['Dublin, Ireland'], 'entry', '2021-05-28', ['IE']),
    ],
  },
  {
    file: 'ashby/docs-example.json',
    source: 'ashby',
    board: 'example',
    postings: [
      {
        id: 'https://jobs.ashbyhq.com/example_job',
        title: 'Product Manager',
        company: null,
        countries: ['US'],
        cities: ['Houston, TX', 'San Francisco, US'],
        remote: true,
        types: [1],
        level: 'senior',
        salary: null,
        published: '2021-04-30',
      },
    ],
  },
  {
    file: 'smartrecruiters/docs-posting-object.json',
    source: 'smartrecruiters',
    board: 'smartrecruiters',
    postings: [
      {
        id: '75551135',
        title: 'Director, Customer Engagement',
        company: 'SmartRecruiters Inc',
        countries: ['US'],
        cities: ['San Francisco, US'],
        remote: true,
        types: [1],
        level: 'executive',
        salary: null,
        published: '2014-02-19',
      },
    ],
  },
  {
    file: 'jsonld/google-docs-software-engineer.html',
    source: 'jsonld',
    board: 'https://careers.google.example/jobs/1234567',
    at: '2024-02-01T00:00:00Z',
    postings: [
      {
        id: '1234567',
        title: 'Software Engineer',
        company: 'Google',
        countries: ['US'],
        cities: ['Mountain View, CA'],
        remote: false,
        types: [6],
        level: 'mid',
        salary: [40, 40, 'USD'],
        published: '2024-01-18',
      },
    ],
  },
];

function parse(c: Case) {
  if (c.at) mock.timers.enable({ apis: ['Date'], now: Date.parse(c.at) });
  try {
    return JOB_CONNECTORS[c.source].parsePayload(read(c.file), { board: c.board });
  } finally {
    if (c.at) mock.timers.reset();
  }
}

describe('real payloads, field by field', () => {
  for (const c of CASES) {
    it(`${c.source}: ${c.file}`, () => {
      const listings = parse(c);
      assert.deepEqual(
        listings.map((l) => l.sourceId),
        c.postings.map((p) => p.id),
        'every posting of the payload, in order',
      );
      for (const [i, want] of c.postings.entries()) {
        const raw = listings[i];
        const got = normalizeListing(raw, { source: c.source, board: c.board, now: Date.UTC(2026, 10, 1) });
        const where = `${c.file} #${want.id}`;
        assert.equal(got.title, want.title, `${where}: title`);
        assert.equal(raw.company?.name ?? null, want.company, `${where}: company`);
        assert.deepEqual(got.countryCodes, want.countries, `${where}: countries`);
        assert.deepEqual(got.cityIds, want.cities.map(cityId), `${where}: cities`);
        assert.equal(got.hasRemote, want.remote, `${where}: remote`);
        assert.deepEqual(got.typeIds, want.types, `${where}: types`);
        assert.equal(got.experienceLevel, want.level, `${where}: level`);
        assert.deepEqual(
          got.salaryMin === null && got.salaryMax === null ? null : [got.salaryMin, got.salaryMax, got.salaryCurrency],
          want.salary,
          `${where}: salary`,
        );
        assert.equal(new Date(got.publishedAt).toISOString().slice(0, 10), want.published, `${where}: published`);
      }
    });
  }

  it("refuses a single posting's detail saved in place of a board (Greenhouse's own gem recorded one)", () => {
    assert.throws(
      () => JOB_CONNECTORS.greenhouse.parsePayload(read('greenhouse/generalassembly-job-721-detail.json'), { board: 'generalassembly' }),
      PayloadShapeError,
    );
  });
});

describe('re-importing a real payload', () => {
  let database: TestDatabase;
  before(async () => {
    database = await openSqlite();
  });
  after(async () => {
    await database.close();
  });

  it('changes nothing the second time, and exactly what changed after an edit', async () => {
    const service = new JobService({ db: database.db });
    const board = { source: 'greenhouse', board: 'stripe', now: Date.UTC(2026, 10, 1) };
    const payload = read('greenhouse/stripe-board-2021.json');
    const first = await service.importer.importBoard(JOB_CONNECTORS.greenhouse.parsePayload(payload, board), board);
    assert.deepEqual([first.inserted, first.updated, first.unchanged, first.rejectedTotal], [6, 0, 0, 0]);
    const again = await service.importer.importBoard(JOB_CONNECTORS.greenhouse.parsePayload(payload, board), {
      ...board,
      now: board.now + 3_600_000,
    });
    assert.deepEqual([again.inserted, again.updated, again.unchanged, again.expired ?? 0], [0, 0, 6, 0]);
    const edited = JSON.parse(payload) as { jobs: { id: number; title: string }[] };
    edited.jobs[1].title = '(2021) Account Executive, Growth (Toronto)';
    const changed = await service.importer.importBoard(JOB_CONNECTORS.greenhouse.parsePayload(JSON.stringify(edited), board), {
      ...board,
      now: board.now + 7_200_000,
    });
    assert.deepEqual([changed.inserted, changed.updated, changed.unchanged, changed.expired ?? 0], [0, 1, 5, 0]);
  });
});
