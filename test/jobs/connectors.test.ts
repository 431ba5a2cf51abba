import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PoliteFetcher, HttpStatusError } from '../../src/ingest/jobs/fetcher.ts';
import { connectorFor } from '../../src/ingest/jobs/index.ts';
import { normalizeListing } from '../../src/jobs/listing.ts';
import { BOARD_ROUTES, fixture, startBoardServer, type BoardServer } from './support/board-server.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');

describe('job board connectors over a local HTTP fake', () => {
  let server: BoardServer;
  const fetcher = () => new PoliteFetcher({ concurrency: 2, backoffMs: 5, timeoutMs: 2000 });

  before(async () => {
    server = await startBoardServer(BOARD_ROUTES);
  });
  after(() => server.close());

  const fetchBoard = (source: string, board: string) => connectorFor(source).fetchBoard(fetcher(), { board, baseUrl: server.origin });
  const normalize = (source: string, board: string, l: Parameters<typeof normalizeListing>[0]) =>
    normalizeListing(l, { source, board, now: NOW });

  it('Greenhouse: escaped HTML content, pay ranges, metadata types, offices', async () => {
    const listings = await fetchBoard('greenhouse', 'acmerobotics');
    assert.equal(listings.length, 3);
    const [planner, security, student] = listings.map((l) => normalize('greenhouse', 'acmerobotics', l));
    assert.equal(planner.sourceId, '4012345006');
    assert.equal(planner.companyName, 'Acme Robotics');
    assert.equal(planner.publishedAt, Date.parse('2026-11-08T14:30:00Z'));
    assert.match(planner.description, /^About Acme\n/);
    assert.match(planner.description, /• Design motion planning algorithms/);
    assert.doesNotMatch(planner.description, /<|&lt;/);
    assert.deepEqual([planner.salaryMin, planner.salaryMax, planner.salaryCurrency], [180000, 220000, 'USD']);
    assert.deepEqual(planner.typeIds, [1]);
    assert.equal(planner.experienceLevel, 'senior');
    assert.deepEqual(planner.cityIds, [5391959]);
    assert.deepEqual(planner.countryCodes, ['US']);
    assert.equal(planner.hasRemote, false);
    assert.equal(security.hasRemote, true);
    assert.equal(security.clearanceRequired, true);
    assert.deepEqual(security.countryCodes, ['US']);
    assert.equal(student.language, 'de');
    assert.deepEqual(student.typeIds, [4]);
    assert.equal(student.experienceLevel, 'entry');
    assert.deepEqual(student.cityIds, [2950159]);
  });

  it('Lever: all locations, workplace type, commitment, salary range, lists in the description', async () => {
    const [data, designer] = (await fetchBoard('lever', 'northwind')).map((l) => normalize('lever', 'northwind', l));
    assert.equal(data.title, 'Data Engineer');
    assert.equal(data.location, 'New York, NY; Toronto, ON');
    assert.deepEqual(data.countryCodes, ['US', 'CA']);
    assert.deepEqual(data.cityIds, [5128581, 6167865]);
    assert.deepEqual(data.regionIds, [5]);
    assert.equal(data.hasRemote, false);
    assert.match(data.description, /3\+ years of experience with Python/);
    assert.equal(data.publishedAt, 1794441600000);
    assert.equal(data.applicationUrl, 'https://jobs.lever.co/northwind/5ac21346-8e0c-4494-8e7a-3eb92ff77902/apply');
    assert.deepEqual([data.salaryMin, data.salaryMax, data.salaryCurrency], [130000, 160000, 'USD']);
    assert.equal(designer.hasRemote, true);
    assert.deepEqual(designer.typeIds, [6]);
    assert.equal(designer.experienceLevel, 'entry');
  });

  it('Ashby: unlisted jobs skipped, secondary locations, compensation, employment type', async () => {
    const listings = (await fetchBoard('ashby', 'lumen')).map((l) => normalize('ashby', 'lumen', l));
    assert.deepEqual(
      listings.map((l) => l.title),
      ['Head of Marketing', 'Software Engineering Intern'],
    );
    const [head, intern] = listings;
    assert.deepEqual(head.countryCodes, ['GB', 'IE']);
    assert.equal(head.experienceLevel, 'executive');
    assert.deepEqual([head.salaryMin, head.salaryMax, head.salaryCurrency], [120000, 150000, 'GBP']);
    assert.deepEqual(head.typeIds, [1]);
    assert.equal(intern.hasRemote, true);
    assert.deepEqual(intern.typeIds, [4]);
  });

  it('Workable: company name from the account, telecommuting flag, date-only published', async () => {
    const [tech, support] = (await fetchBoard('workable', 'helios')).map((l) => normalize('workable', 'helios', l));
    assert.equal(tech.companyName, 'Helios Energy');
    assert.equal(tech.publishedAt, Date.parse('2026-11-09T00:00:00Z'));
    assert.deepEqual(tech.countryCodes, ['ES']);
    assert.equal(tech.language, 'es');
    assert.equal(tech.experienceLevel, 'entry');
    assert.equal(support.hasRemote, true);
    assert.deepEqual(support.typeIds, [2]);
    assert.equal(support.salaryCurrency, 'EUR');
  });

  it('SmartRecruiters: paged list then each posting detail for the ad text', async () => {
    const [nurse, intern] = (await fetchBoard('smartrecruiters', 'MercyHealth')).map((l) => normalize('smartrecruiters', 'MercyHealth', l));
    assert.equal(nurse.companyName, 'Mercy Health');
    assert.match(nurse.description, /critical care nursing/);
    assert.match(nurse.description, /• Active RN license/);
    assert.equal(nurse.applicationUrl.startsWith('https://jobs.smartrecruiters.com/'), true);
    assert.equal(nurse.experienceLevel, 'senior');
    assert.deepEqual(nurse.cityIds, [4887398]);
    assert.deepEqual(intern.typeIds, [4]);
    assert.equal(intern.experienceLevel, 'entry');
    assert.equal(server.hits.get('/v1/companies/MercyHealth/postings/744000012345679'), 1);
  });

  it('Recruitee: salary fields, experience code, published_at with UTC suffix', async () => {
    const [dev] = (await fetchBoard('recruitee', 'tulip')).map((l) => normalize('recruitee', 'tulip', l));
    assert.equal(dev.publishedAt, Date.parse('2026-11-11T08:45:12Z'));
    assert.equal(dev.language, 'nl');
    assert.deepEqual([dev.salaryMin, dev.salaryMax, dev.salaryCurrency], [4500, 6000, 'EUR']);
    assert.equal(dev.experienceLevel, 'mid');
    assert.deepEqual(dev.typeIds, [1]);
    assert.deepEqual(dev.cityIds, [2759794]);
  });

  it('Personio XML: CDATA sections, additional offices, seniority and schedule', async () => {
    const [frontend, praktikum] = (await fetchBoard('personio', 'bergwerk')).map((l) => normalize('personio', 'bergwerk', l));
    assert.equal(frontend.companyName, 'Bergwerk Software GmbH');
    assert.equal(frontend.location, 'München; Hamburg');
    assert.ok(frontend.countryCodes.includes('DE'));
    assert.equal(frontend.language, 'de');
    assert.equal(frontend.experienceLevel, 'senior');
    assert.match(frontend.description, /Deine Aufgaben\n/);
    assert.equal(frontend.applicationUrl, `${server.origin}/job/1234567`);
    assert.deepEqual(praktikum.typeIds, [1, 4]);
    assert.equal(praktikum.experienceLevel, 'entry');
  });

  it('JSON-LD: @graph postings, expired ones dropped, organisation links, clearance, telecommute', async () => {
    const listings = await connectorFor('jsonld').fetchBoard(fetcher(), {
      board: 'https://orbitaldynamics.example/careers',
      baseUrl: server.origin,
    });
    assert.equal(listings.length, 2);
    const [systems, writer] = listings.map((l) => normalize('jsonld', 'https://orbitaldynamics.example/careers', l));
    assert.equal(systems.sourceId, 'OD-2291');
    assert.equal(systems.company?.website, 'https://orbitaldynamics.example');
    assert.equal(systems.company?.prof_url, 'https://www.linkedin.com/company/orbital-dynamics');
    assert.equal(systems.company?.code_host_url, 'https://github.com/orbitaldynamics');
    assert.equal(systems.clearanceRequired, true);
    assert.deepEqual(systems.countryCodes, ['US']);
    assert.deepEqual([systems.salaryMin, systems.salaryMax, systems.salaryCurrency], [125000, 165000, 'USD']);
    assert.equal(writer.hasRemote, true);
    assert.deepEqual(writer.typeIds, [2]);
  });

  it('parses a saved payload the same way as a fetched one', () => {
    const fromFile = connectorFor('greenhouse').parsePayload(fixture('greenhouse-jobs.json'), { board: 'acmerobotics' });
    assert.equal(fromFile.length, 3);
    assert.equal(fromFile[0].title, 'Senior Software Engineer, Motion Planning');
  });
});

describe('polite fetcher', () => {
  it('retries 503 with backoff, then succeeds', async () => {
    const server = await startBoardServer({ '/flaky': { body: () => '{"ok":true}', failFirst: 2 } });
    try {
      const f = new PoliteFetcher({ backoffMs: 5, retries: 3 });
      assert.equal(await f.getText(`${server.origin}/flaky`), '{"ok":true}');
      assert.equal(server.hits.get('/flaky'), 3);
    } finally {
      await server.close();
    }
  });

  it('gives up after the retry budget and does not retry a 404', async () => {
    const server = await startBoardServer({ '/down': { body: () => '{}', failFirst: 100 } });
    try {
      const f = new PoliteFetcher({ backoffMs: 2, retries: 2 });
      await assert.rejects(f.getText(`${server.origin}/down`), (e: unknown) => e instanceof HttpStatusError && e.status === 503);
      assert.equal(server.hits.get('/down'), 3);
      await assert.rejects(f.getText(`${server.origin}/missing`), (e: unknown) => e instanceof HttpStatusError && e.status === 404);
      assert.equal(server.hits.get('/missing'), 1);
    } finally {
      await server.close();
    }
  });

  it('times out a silent server', async () => {
    const server = await startBoardServer({ '/slow': { body: () => '{}' } }, 400);
    try {
      const f = new PoliteFetcher({ timeoutMs: 100, retries: 0 });
      await assert.rejects(f.getText(`${server.origin}/slow`));
    } finally {
      await server.close();
    }
  });

  it('never has more requests in flight than its concurrency bound', async () => {
    const routes: Record<string, { body: () => string }> = {};
    for (let i = 0; i < 12; i++) routes[`/p${i}`] = { body: () => `${i}` };
    const server = await startBoardServer(routes, 20);
    try {
      const f = new PoliteFetcher({ concurrency: 3 });
      const bodies = await f.mapBounded([...Array(12).keys()], (i) => f.getText(`${server.origin}/p${i}`));
      assert.deepEqual(bodies, [...Array(12).keys()].map(String));
      assert.ok(server.peakInFlight <= 3, `peak ${server.peakInFlight}`);
      assert.equal(f.peakConcurrency, 3);
    } finally {
      await server.close();
    }
  });
});
