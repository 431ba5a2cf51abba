// Competitors from the company store on both dialects: named ones first, then peers of the same
// industry in the same or an adjacent size band, the same market first, each with its reasons.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { CompanyService } from '../../src/companies/service.ts';
import type { CompanyInput } from '../../src/companies/input.ts';

const US = { country: 'United States' };
const company = (name: string, domain: string, rest: Partial<CompanyInput>): CompanyInput => ({
  name,
  domain,
  industry: 'industrial automation',
  ...rest,
});

const WORLD: CompanyInput[] = [
  company('Target Robotics', 'target.example', {
    size_label: '51-200',
    employee_count: 120,
    sectors: ['Robotics', 'Warehousing'],
    location: US,
    competitors: [{ name: 'Named Rival', website: 'https://named-rival.example', employees: '90' }],
  }),
  company('Same Band Sectors', 'a.example', { size_label: '51-200', employee_count: 150, sectors: ['robotics'], location: US }),
  company('Same Band', 'b.example', { size_label: '51-200', employee_count: 60, location: US }),
  company('Adjacent Band', 'c.example', { size_label: '201-500', employee_count: 250, location: US }),
  company('Other Market', 'd.example', { size_label: '51-200', employee_count: 110, location: { country: 'Germany' } }),
  company('Far Too Big', 'e.example', { size_label: '5001-10000', employee_count: 7000, location: US }),
  company('Other Industry', 'f.example', { industry: 'banking', size_label: '51-200', employee_count: 100, location: US }),
  company('Lonely Inc', 'lonely.example', { industry: 'beekeeping', size_label: '1-10', location: US }),
];

for (const target of dbTargets) {
  describe(`competitors (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let companies: CompanyService;

    before(async () => {
      database = await target.open();
      companies = new CompanyService({ db: database.db });
      for (const input of WORLD) await companies.upsertCompany(input, 'test');
    });
    after(() => database?.destroy());

    it('named competitors first, then peers ranked by market, size band and shared sectors, each with why', async () => {
      const found = await companies.competitors({ company_domain: 'target.example' }, 10);
      assert.ok(found);
      assert.deepEqual(
        found.competitors.map((c) => c.name),
        ['Named Rival', 'Same Band Sectors', 'Same Band', 'Adjacent Band', 'Other Market'],
      );
      assert.deepEqual(found.competitors[0].reasons, ['named as a competitor by test']);
      assert.equal(found.competitors[0].employee_count, 90);
      assert.deepEqual(found.competitors[1].reasons, [
        'same industry: industrial automation',
        'same market: US',
        'same size band: 51-200 employees',
        'shared sectors: robotics',
      ]);
      assert.deepEqual(found.competitors[4].reasons, ['same industry: industrial automation', 'same size band: 51-200 employees']);
      assert.equal(found.competitors[3].website, 'https://c.example');
    });

    it('limit bounds the list; a company with no named competitor and no peer, or unknown, finds none', async () => {
      const two = await companies.competitors({ company_name: 'Target Robotics' }, 2);
      assert.deepEqual(
        two?.competitors.map((c) => c.name),
        ['Named Rival', 'Same Band Sectors'],
      );
      assert.equal(await companies.competitors({ company_domain: 'lonely.example' }, 10), null);
      assert.equal(await companies.competitors({ company_domain: 'unknown.example' }, 10), null);
    });
  });
}
