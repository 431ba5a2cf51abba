import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { CompanyService } from '../../src/companies/service.ts';

for (const target of dbTargets) {
  describe(`company store (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let companies: CompanyService;
    before(async () => {
      database = await target.open();
      companies = new CompanyService({ db: database.db });
    });
    after(async () => database?.destroy());

    it('creates a company once and updates it on a later report', async () => {
      const first = await companies.upsertCompany(
        {
          name: 'Stripe, Inc.',
          website: 'https://www.stripe.com/',
          industry: 'Financial Services',
          employee_count: 8000,
          location: { locality: 'San Francisco', region: 'California', country: 'United States' },
        },
        'jobs:test',
      );
      assert.equal(first.created, true);
      const again = await companies.upsertCompany({ name: 'Stripe', domain: 'stripe.com', founded_year: 2010 }, 'jobs:test');
      assert.deepEqual(again, { id: first.id, created: false });
      const row = await companies.findByDomain('ceo@STRIPE.com');
      assert.equal(row?.id, first.id);
      assert.equal(row?.founded_year, 2010);
      assert.equal(row?.industry, 'financial services');
      assert.equal(row?.industry_id, 5);
      assert.equal(row?.size_label, '5001-10000');
      assert.equal(row?.country, 'united states');
      assert.equal(row?.continent, 'north america');
      assert.equal((await companies.matchByName('stripe'))?.id, first.id);
      assert.equal((await companies.matchByName('STRIPE INC'))?.id, first.id);
      const enrichment = await companies.enrichmentByDomain('stripe.com');
      assert.equal(enrichment?.company_name, 'Stripe');
      assert.equal(enrichment?.company_location.locality, 'san francisco');
      assert.equal(await companies.funding({ company_domain: 'stripe.com' }), null);
    });

    it('keeps which source owns each fact of a new company, though a new row stores them as "every fact set"', async () => {
      const created = await companies.upsertCompany(
        { name: 'Owned Facts', domain: 'owned.example', industry: 'Retail', employee_count: 40 },
        'pdl',
      );
      const stored = async () => (await companies.getById(created.id))!;
      assert.deepEqual(JSON.parse((await stored()).field_sources), {
        pdl: { seen_at: JSON.parse((await stored()).field_sources).pdl.seen_at, fields: '*' },
      });
      // A lower-ranked source fills a missing fact but does not replace pdl's.
      await companies.upsertCompany({ domain: 'owned.example', industry: 'Internet', founded_year: 1999 }, 'jobs:board', 1000);
      assert.deepEqual([(await stored()).industry, (await stored()).founded_year], ['retail', 1999]);
      const sources = JSON.parse((await stored()).field_sources);
      assert.deepEqual(sources.pdl.fields.sort(), ['domain', 'employee_count', 'industry', 'industry_id', 'name', 'size_label', 'website']);
      assert.deepEqual(sources['jobs:board'], { seen_at: 1000, fields: ['founded_year'] });
      // A higher-ranked one takes the industry over; pdl keeps the employee count.
      await companies.upsertCompany({ domain: 'owned.example', industry: 'Internet' }, 'jsonl', 2000);
      await companies.upsertCompany({ domain: 'owned.example', industry: 'Construction', employee_count: 50 }, 'pdl', 3000);
      const row = await stored();
      assert.deepEqual([row.industry, row.employee_count], ['internet', 50]);
      assert.deepEqual(JSON.parse(row.field_sources).jsonl.fields.sort(), ['industry', 'industry_id', 'website']);
    });
  });
}
