import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompanyService } from '../../src/companies/service.ts';
import { connectorFor } from '../../src/ingest/jobs/index.ts';
import type { SourceListing } from '../../src/ingest/jobs/types.ts';
import { JobService } from '../../src/jobs/service.ts';
import type { JobsFinderBody } from '../../src/contract/jobs.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { fixture } from './support/board-server.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;

function parse(source: string, file: string, board: string): SourceListing[] {
  return connectorFor(source).parsePayload(fixture(file), { board, baseUrl: 'https://bergwerk.jobs.personio.de' });
}

/** Postings of a made-up board, one per day back from NOW, for paging and date filters. */
function dailyBoard(count: number, removed: Set<number> = new Set()): SourceListing[] {
  const out: SourceListing[] = [];
  for (let i = 0; i < count; i++) {
    if (removed.has(i)) continue;
    out.push({
      sourceId: `P${i}`,
      title: i % 2 ? 'Warehouse Associate' : 'Forklift Operator',
      location: i % 3 ? 'Dallas, TX' : 'Remote - US',
      employmentTypes: [i % 4 ? 'Full-time' : 'Part-time'],
      publishedAt: NOW - i * DAY - 3600_000,
      descriptionHtml: `<p>Shift ${i}. Operate forklifts safely in our distribution center.</p>`,
      applyUrl: `https://jobs.example/p${i}`,
      company: { name: 'Daily Freight', website: 'https://dailyfreight.example' },
    });
  }
  return out;
}

for (const target of dbTargets) {
  describe(`jobs store and search (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let service: JobService;
    let companies: CompanyService;
    const search = (body: JobsFinderBody) => service.search(body, NOW);

    before(async () => {
      database = await target.open();
      companies = new CompanyService({ db: database.db });
      service = new JobService({ db: database.db, companies });
      const boards: [string, string, string][] = [
        ['greenhouse', 'greenhouse-jobs.json', 'acmerobotics'],
        ['lever', 'lever-postings.json', 'northwind'],
        ['ashby', 'ashby-board.json', 'lumen'],
        ['workable', 'workable-account.json', 'helios'],
        ['smartrecruiters', 'smartrecruiters-postings.json', 'MercyHealth'],
        ['recruitee', 'recruitee-offers.json', 'tulip'],
        ['personio', 'personio.xml', 'bergwerk'],
        ['jsonld', 'careers-jsonld.html', 'https://orbitaldynamics.example/careers'],
      ];
      for (const [source, file, board] of boards) {
        const company = source === 'lever' ? { name: 'Northwind Analytics', website: 'https://northwind.example' } : null;
        await service.importer.importBoard(parse(source, file, board), { source, board, now: NOW - DAY, company });
      }
      await service.importer.importBoard(dailyBoard(45), { source: 'lever', board: 'dailyfreight', now: NOW - DAY });
    });
    after(() => database.destroy());

    it('links listings to companies, creating them with website and social handles', async () => {
      const orbital = await companies.findByDomain('orbitaldynamics.example');
      assert.ok(orbital);
      assert.equal(orbital.name, 'Orbital Dynamics');
      assert.equal(orbital.social_b_handle, 'orbitaldyn');
      const { results } = await search({ company_name: 'orbital dynamics', has_remote: false });
      assert.equal(results.length, 1);
      assert.equal(results[0].company.name, 'Orbital Dynamics');
      assert.equal(results[0].company.social_b_handle, 'orbitaldyn');
      assert.match(results[0].company.website_url ?? '', /orbitaldynamics\.example/);
    });

    it('serves the listing shape of part 2.4', async () => {
      const { results, total_count } = await search({ job_title: 'motion planning' });
      assert.equal(total_count, 1);
      const job = results[0];
      assert.equal(job.title, 'Senior Software Engineer, Motion Planning');
      assert.deepEqual(job.types, [{ id: 1, name: 'Full Time' }]);
      assert.deepEqual(job.cities, [
        {
          geonameid: 5391959,
          asciiname: 'San Francisco',
          name: 'San Francisco',
          country: { code: 'US', name: 'United States', region: { id: 5, name: 'North America' } },
          timezone: 'America/Los_Angeles',
          latitude: '37.77493',
          longitude: '-122.41942',
        },
      ]);
      assert.deepEqual(job.countries, [{ code: 'US', name: 'United States', region: { id: 5, name: 'North America' } }]);
      assert.deepEqual(job.regions, [{ id: 5, name: 'North America' }]);
      assert.equal(job.has_remote, false);
      assert.equal(job.published, '2026-11-08T14:30:00.000Z');
      assert.equal(job.experience_level, 'Senior Level');
      assert.equal(job.salary_min, 180000);
      assert.equal(job.salary_currency, 'USD');
      assert.equal(job.language, 'en');
      assert.equal(job.clearance_required, false);
      assert.equal(job.application_url, 'https://boards.greenhouse.io/acmerobotics/jobs/4012345006');
    });

    it('has_remote false serves non-remote listings only, true remote only', async () => {
      const onsite = await search({ per_page: 50 });
      const remote = await search({ has_remote: true, per_page: 50 });
      assert.ok(onsite.results.every((j) => !j.has_remote));
      assert.ok(remote.results.every((j) => j.has_remote));
      assert.ok(remote.results.some((j) => j.title === 'Security Engineer (TS/SCI)'));
      assert.ok(onsite.total_count > 0 && remote.total_count > 0);
    });

    it('title matching ignores case and word order', async () => {
      const a = await search({ job_title: 'ENGINEER software senior' });
      assert.deepEqual(
        a.results.map((j) => j.title),
        ['Senior Software Engineer, Motion Planning'],
      );
      const b = await search({ job_title: 'data engineer' });
      assert.deepEqual(
        b.results.map((j) => j.title),
        ['Data Engineer'],
      );
    });

    it('country, region, type, level and location filters', async () => {
      const de = await search({ country_id: 'de' });
      assert.deepEqual(de.results.map((j) => j.title).sort(), [
        'Praktikum Vertrieb',
        'Senior Frontend Engineer (m/w/d)',
        'Werkstudent Datenanalyse (m/w/d)',
      ]);
      const europe = await search({ region_id: 3, per_page: 50 });
      assert.ok(europe.results.every((j) => j.regions.some((r) => r.id === 3)));
      assert.ok(europe.results.some((j) => j.title === 'Head of Marketing'));
      const interns = await search({ job_type_id: 4, per_page: 50 });
      assert.deepEqual(interns.results.map((j) => j.title).sort(), [
        'Pharmacy Intern',
        'Praktikum Vertrieb',
        'Werkstudent Datenanalyse (m/w/d)',
      ]);
      const executives = await search({ experience_level: 'executive' });
      assert.deepEqual(
        executives.results.map((j) => j.title),
        ['Head of Marketing'],
      );
      const toronto = await search({ location: 'toronto' });
      assert.deepEqual(
        toronto.results.map((j) => j.title),
        ['Data Engineer'],
      );
      const sf = await search({ location: 'San Francisco, CA' });
      assert.deepEqual(
        sf.results.map((j) => j.title),
        ['Senior Software Engineer, Motion Planning'],
      );
      const combined = await search({ country_id: 'US', job_type_id: 1, experience_level: 'senior', job_title: 'engineer' });
      assert.deepEqual(
        combined.results.map((j) => j.title),
        ['Senior Software Engineer, Motion Planning'],
      );
    });

    it('description keywords and quoted phrases', async () => {
      const phrase = await search({ job_description: '"motion planning algorithms"' });
      assert.equal(phrase.total_count, 1);
      const words = await search({ job_description: 'algorithms motion' });
      assert.equal(words.total_count, 1);
      const wrongOrder = await search({ job_description: '"algorithms planning motion"' });
      assert.equal(wrongOrder.total_count, 0);
      const forklifts = await search({ job_description: 'forklifts', per_page: 5 });
      assert.ok(forklifts.total_count > 5);
      const excluded = await search({ job_description: 'forklifts -"shift 4"', per_page: 50 });
      assert.equal(excluded.total_count, forklifts.total_count - 1);
      const orGroup = await search({ job_description: 'pipelines OR dashboards' });
      assert.deepEqual(orGroup.results.map((j) => j.title).sort(), ['Data Engineer', 'Werkstudent Datenanalyse (m/w/d)']);
    });

    it('posted_within, posted_after and posted_before', async () => {
      const week = await search({ company_name: 'Daily Freight', posted_within: 7, per_page: 50 });
      const month = await search({ company_name: 'Daily Freight', per_page: 50 });
      const all = await search({ company_name: 'Daily Freight', posted_within: 365, per_page: 50 });
      const count = (days: number) => dailyBoard(45).filter((l) => l.publishedAt! >= NOW - days * DAY && !/Remote/.test(l.location)).length;
      assert.equal(week.total_count, count(7));
      assert.equal(month.total_count, count(30));
      assert.equal(all.total_count, count(365));
      const window = await search({
        company_name: 'Daily Freight',
        posted_within: 365,
        posted_after: '2026-11-01',
        posted_before: '2026-11-10',
        per_page: 50,
      });
      for (const j of window.results) assert.ok(j.published >= '2026-11-01' && j.published < '2026-11-11', j.published);
      assert.equal(
        window.total_count,
        dailyBoard(45).filter(
          (l) => l.publishedAt! >= Date.parse('2026-11-01') && l.publishedAt! < Date.parse('2026-11-11') && !/Remote/.test(l.location),
        ).length,
      );
      // Explicit dates replace the 30-day default: posted_after reaches back further than 30 days.
      const since = await search({ company_name: 'Daily Freight', posted_after: '2026-10-10', per_page: 50 });
      assert.equal(
        since.total_count,
        dailyBoard(45).filter((l) => l.publishedAt! >= Date.parse('2026-10-10') && !/Remote/.test(l.location)).length,
      );
      assert.ok(since.total_count > month.total_count);
      const before = await search({ company_name: 'Daily Freight', posted_before: '2026-10-15', per_page: 50 });
      assert.equal(
        before.total_count,
        dailyBoard(45).filter((l) => l.publishedAt! < Date.parse('2026-10-16') && !/Remote/.test(l.location)).length,
      );
      // An explicit posted_within still narrows explicit dates.
      const both = await search({ company_name: 'Daily Freight', posted_within: 7, posted_after: '2026-10-10', per_page: 50 });
      assert.equal(both.total_count, week.total_count);
    });

    it('newest first, stable pages, exact totals, a page past the end is empty', async () => {
      const body = { company_name: 'daily freight', posted_within: 365, per_page: 7 } as const;
      const first = await search({ ...body, page: 1 });
      const expected = dailyBoard(45).filter((l) => !/Remote/.test(l.location)).length;
      assert.equal(first.total_count, expected);
      assert.equal(first.total_pages, Math.ceil(expected / 7));
      const seen: string[] = [];
      for (let page = 1; page <= first.total_pages; page++) {
        const r = await search({ ...body, page });
        assert.equal(r.page, page);
        seen.push(...r.results.map((j) => j.published));
      }
      assert.equal(seen.length, expected);
      assert.equal(new Set(seen).size, expected);
      assert.deepEqual(seen, [...seen].sort().reverse());
      const beyond = await search({ ...body, page: first.total_pages + 1 });
      assert.deepEqual(beyond.results, []);
      assert.equal(beyond.total_count, expected);
      assert.equal(beyond.total_pages, first.total_pages);
    });

    it('company size, type and industry filters go through the company store', async () => {
      await companies.upsertCompany(
        {
          name: 'Daily Freight',
          domain: 'dailyfreight.example',
          employee_count: 2500,
          company_type: 'public',
          industry: 'Transportation & Logistics',
        },
        'test',
        NOW,
      );
      const row = await companies.findByDomain('dailyfreight.example');
      assert.equal(row?.employee_count, 2500);
      const big = await search({ min_employees: 1000, posted_within: 365, per_page: 50 });
      assert.ok(big.total_count > 0);
      assert.ok(big.results.every((j) => j.company.name === 'Daily Freight'));
      assert.equal((await search({ max_employees: 1000, min_employees: 1, posted_within: 365 })).total_count, 0);
      assert.equal((await search({ company_type_id: 5, posted_within: 365 })).total_count, big.total_count);
      assert.equal((await search({ company_type_id: 4, posted_within: 365 })).total_count, big.total_count);
      assert.equal((await search({ company_type_id: 7, posted_within: 365 })).total_count, 0);
      assert.equal(row?.industry_id, 23, 'Transportation & Logistics in the job_industries list');
      assert.equal((await search({ company_industry_id: 23, posted_within: 365 })).total_count, big.total_count);
      assert.equal((await search({ company_industry_id: 1, posted_within: 365 })).total_count, 0);
      const byWebsite = await search({ company_website: 'https://www.dailyfreight.example/careers', posted_within: 365 });
      assert.equal(byWebsite.total_count, big.total_count);
      assert.equal((await search({ company_website: 'unknown-company.example' })).total_count, 0);
      // A description with a company-store filter: the text matches drive, each checked against its company.
      const forklifts = await search({ job_description: 'forklifts', min_employees: 1000, posted_within: 365, per_page: 50 });
      assert.ok(forklifts.total_count > 0);
      assert.equal(
        forklifts.total_count,
        (await search({ job_description: 'forklifts', company_name: 'Daily Freight', posted_within: 365 })).total_count,
      );
      assert.ok(forklifts.results.every((j) => j.company.name === 'Daily Freight'));
    });

    it('re-import updates in place and expires listings that vanished from the board', async () => {
      const before = await search({ company_name: 'Daily Freight', posted_within: 365, per_page: 50 });
      const next = dailyBoard(45, new Set([1, 2]));
      next[2].title = 'Senior Forklift Operator';
      const summary = await service.importer.importBoard(next, { source: 'lever', board: 'dailyfreight', now: NOW });
      assert.equal(summary.inserted, 0);
      assert.equal(summary.updated, 1);
      assert.equal(summary.unchanged, 42);
      assert.equal(summary.expired, 2);
      const after = await search({ company_name: 'Daily Freight', posted_within: 365, per_page: 50 });
      const removedOnsite = [1, 2].filter((i) => i % 3 !== 0).length;
      assert.equal(after.total_count, before.total_count - removedOnsite);
      assert.ok(after.results.some((j) => j.title === 'Senior Forklift Operator'));
      assert.equal((await search({ job_title: 'senior forklift' })).total_count, 1);
      // Back on the board: served again.
      const revived = await service.importer.importBoard(dailyBoard(45), { source: 'lever', board: 'dailyfreight', now: NOW + 1 });
      assert.equal(revived.updated, 3);
      assert.equal(revived.expired, 0);
      assert.equal((await search({ company_name: 'Daily Freight', posted_within: 365, per_page: 50 })).total_count, before.total_count);
      assert.equal((await search({ job_description: '"shift 2."', posted_within: 365, has_remote: false })).total_count, 1);
    });
  });
}
