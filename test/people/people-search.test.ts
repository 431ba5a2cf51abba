// People search on both dialects: company filters (domain, industry, country, size) and person
// filters (function, level, minimum seniority, has email), most senior first, paged.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { PeopleService } from '../../src/people/service.ts';
import { readPeopleJsonl } from '../../src/ingest/people/jsonl.ts';
import { runPeopleImport } from '../../src/ingest/people/runner.ts';
import { jobFunctionNamed, jobLevelNamed } from '../../src/people/people-search.ts';

const at = (domain: string, title: string, extra: Record<string, unknown> = {}) => ({
  positions: [{ company_domain: domain, title, start: '2022-01' }],
  ...extra,
});
const PEOPLE = [
  { id: 's1', full_name: 'Ada Chief', profile_url: 'ada-chief', ...at('north.example', 'Chief Revenue Officer') },
  {
    id: 's2',
    full_name: 'Ben Vp',
    profile_url: 'ben-vp',
    ...at('north.example', 'VP of Sales', { emails: [{ email: 'ben@north.example' }] }),
  },
  { id: 's3', full_name: 'Cy Director', profile_url: 'cy-director', ...at('north.example', 'Director of Marketing') },
  { id: 's4', full_name: 'Di Rep', profile_url: 'di-rep', ...at('north.example', 'Account Executive') },
  { id: 's5', full_name: 'Ed Engineer', profile_url: 'ed-engineer', ...at('south.example', 'Software Engineer') },
  {
    id: 's6',
    full_name: 'Flo Head',
    profile_url: 'flo-head',
    ...at('south.example', 'Head of Sales', { emails: [{ email: 'flo@south.example' }] }),
  },
];

for (const target of dbTargets) {
  describe(`people search (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let people: PeopleService;
    let companies: CompanyService;
    let north: number;

    before(async () => {
      database = await target.open();
      companies = new CompanyService({ db: database.db });
      people = new PeopleService({ db: database.db, companies });
      north = (
        await companies.upsertCompany(
          { name: 'North', domain: 'north.example', industry: 'software', size_label: '51-200', location: { country: 'United States' } },
          'test',
        )
      ).id;
      await companies.upsertCompany(
        { name: 'South', domain: 'south.example', industry: 'banking', size_label: '1001-5000', location: { country: 'Germany' } },
        'test',
      );
      const dir = mkdtempSync(join(tmpdir(), 'leadbase-search-'));
      try {
        const file = join(dir, 'people.jsonl');
        writeFileSync(file, PEOPLE.map((p) => JSON.stringify(p)).join('\n') + '\n');
        await runPeopleImport({ db: database.db, companies, source: 'jsonl', records: readPeopleJsonl(file).records });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
    after(() => database?.destroy());

    const names = async (query: Parameters<PeopleService['search']>[0]) => (await people.search(query)).people.map((p) => p.full_name);
    const page = { offset: 0, limit: 25 };
    const sales = [jobFunctionNamed('Sales')!.label];

    it('by company: most senior first, with the function label, level and whether we hold a work address', async () => {
      const found = await people.search({ companyIds: [north], ...page });
      assert.equal(found.total, 4);
      assert.deepEqual(
        found.people.map((p) => p.full_name),
        ['Ada Chief', 'Ben Vp', 'Cy Director', 'Di Rep'],
      );
      const ben = found.people[1];
      assert.deepEqual(
        [ben.job_function, ben.job_level, ben.has_email, ben.company_country],
        ['Sales & Business Development', 'vp', true, 'US'],
      );
      assert.equal(found.people[0].job_function, 'Sales & Business Development', 'chief revenue officer is sales');
    });

    it('by function, level, minimum seniority and has email, across companies', async () => {
      assert.deepEqual(await names({ functions: sales, ...page }), ['Ada Chief', 'Ben Vp', 'Flo Head', 'Di Rep']);
      assert.deepEqual(await names({ functions: sales, levels: [...jobLevelNamed('Director')!, ...jobLevelNamed('VP')!], ...page }), [
        'Ben Vp',
        'Flo Head',
      ]);
      assert.deepEqual(await names({ minRank: 60, ...page }), ['Ada Chief', 'Ben Vp', 'Cy Director', 'Flo Head']);
      assert.deepEqual(await names({ hasEmail: true, ...page }), ['Ben Vp', 'Flo Head']);
      assert.deepEqual(await names({ functions: [jobFunctionNamed('engineering')!.label], ...page }), ['Ed Engineer']);
      assert.equal(jobFunctionNamed('Advertising & Marketing')?.label, 'Advertising & Marketing');
      assert.equal(jobFunctionNamed('Astrology'), undefined);
    });

    it('by industry, country and size band; paged with the total', async () => {
      assert.deepEqual(await names({ industries: ['banking'], ...page }), ['Flo Head', 'Ed Engineer']);
      assert.deepEqual(await names({ countryCodes: ['US'], functions: sales, ...page }), ['Ada Chief', 'Ben Vp', 'Di Rep']);
      assert.deepEqual(await names({ sizeLabels: ['1001-5000'], ...page }), ['Flo Head', 'Ed Engineer']);
      const second = await people.search({ companyIds: [north], offset: 2, limit: 2 });
      assert.deepEqual(
        second.people.map((p) => p.full_name),
        ['Cy Director', 'Di Rep'],
      );
      assert.equal(second.total, 4);
      assert.deepEqual(await names({ companyIds: [], ...page }), [], 'an unknown company matches no one');
    });
  });
}
