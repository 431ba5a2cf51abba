import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CompanyFundingResponse, FundingResult } from '../../src/contract/companies.ts';
import { runCompanyImport } from '../../src/ingest/companies/runner.ts';
import { readLines } from '../../src/ingest/companies/lines.ts';
import { parseCompanyJsonl } from '../../src/ingest/companies/jsonl.ts';
import { readFormD } from '../../src/ingest/companies/formd.ts';

const FIXTURES = 'test/fixtures/companies';

for (const target of dbTargets) {
  describe(`company funding (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { credits: 10 });
      const service = t.services.companies;
      await runCompanyImport({ service, source: 'jsonl', records: parseCompanyJsonl(readLines(`${FIXTURES}/companies.jsonl`).lines) });
      await runCompanyImport({ service, source: 'sec-formd', records: (await readFormD(`${FIXTURES}/formd`)).records });
    });
    after(async () => t?.close());

    it('composes the company-funding result from the stored facts', async () => {
      const r = (await t.services.companies.funding({ company_domain: 'https://stripe.com' }))!;
      assert.ok(Value.Check(FundingResult, r), JSON.stringify([...Value.Errors(FundingResult, r)].slice(0, 3)));
      assert.equal(r.basicInfo.companyName, 'Stripe, Inc.');
      assert.equal(r.basicInfo.shortName, 'Stripe');
      assert.equal(r.basicInfo.primaryDomain, 'stripe.com');
      assert.equal(r.basicInfo.founded, '2010');
      assert.equal(r.basicInfo.ownership, 'Privately Held');
      assert.deepEqual(r.basicInfo.headquarters, {
        city: 'South San Francisco',
        state: 'California',
        country: 'United States',
        fullAddress: '354 Oyster Point Blvd, South San Francisco, California 94080, United States',
      });
      assert.equal(r.financialInfo.totalFunding, 2_200_000_000);
      assert.equal(r.financialInfo.formattedFunding, '$2.2B');
      assert.equal(r.financialInfo.formattedRevenue, '$14.4B');
      assert.deepEqual(r.financialInfo.lastFundingRound, { round: 'Series I', date: '2023-03-15T00:00:00.000Z', amount: 6_870_000_000 });
      assert.deepEqual(
        r.fundingHistory.map((h) => [h.round, h.amount]),
        [
          ['Series I', '$6,870,000,000'],
          ['Series H', '$600,000,000'],
        ],
      );
      assert.deepEqual(r.fundingHistory[1].investors, ['Allianz X', 'Axa', 'Baillie Gifford']);
      assert.deepEqual(r.companySize, { employees: 8000, employeeRange: '5001-10000', employeeGrowth: '+5% YoY' });
      assert.equal(r.leadership.ceo?.lastName, 'Collison');
      assert.equal(r.leadership.ceo?.prof, 'https://prof.example/in/patrickcollison');
      assert.equal((r.leadership as Record<string, { firstName: string | null } | null>).president?.firstName, 'John');
      assert.deepEqual(r.industryAndSectors, {
        industrySectors: ['Payments', 'Fintech'],
        industries: ['Financial Services'],
        technologyStack: 'Ruby, Go, React',
      });
      assert.equal(r.topCompetitors[0].name, 'Adyen');
      assert.equal(r.topCompetitors[0].founded, '2006-01-01T00:00:00.000Z');
      assert.equal(r.topCompetitors[0].website, 'https://adyen.com');
      assert.deepEqual(r.acquisitions[0], {
        companyName: 'TaxJar',
        acquisitionDate: '2021-04-27T00:00:00.000Z',
        description: 'Sales tax compliance',
        source: 'https://stripe.com/newsroom/news/taxjar',
      });
      assert.deepEqual(
        r.socialMedia.map((s) => s.platform),
        ['prof', 'social_a', 'social_b', 'code_host'],
      );
      assert.equal(r.socialMedia[0].url, 'https://prof.example/company/stripe');
      assert.deepEqual(r.news, [{ title: 'Stripe raises $6.5B', source: 'Example Times', date: '2023-03-15T12:00:00.000Z' }]);
      assert.equal(r.pressReleases[0].title, 'Stripe announces Series I');
      assert.equal(r.keyHighlights[0].type, 'funding');
      assert.equal(
        r.summarySection,
        'Stripe, Inc. is a private company founded in 2010, headquartered in South San Francisco, California, United States. ' +
          'It operates in financial services with about 8,000 employees. ' +
          'It has raised $2.2B in total funding across 2 rounds. ' +
          'The latest round was Series I ($6.9B) in March 2023, with Andreessen Horowitz, Founders Fund, Thrive Capital and others. ' +
          'Its annual revenue is about $14.4B. Patrick Collison is the Chief Executive Officer. ' +
          'It has made 1 recorded acquisition. Competitors include Adyen.',
      );
    });

    it('a Form D company: total funding summed from its rounds', async () => {
      const r = (await t.services.companies.funding({ company_name: 'Nimbus Robotics' }))!;
      assert.equal(r.financialInfo.totalFunding, 11_500_000);
      assert.equal(r.financialInfo.formattedFunding, '$11.5M');
      assert.equal(r.fundingHistory.length, 1);
      assert.equal(r.leadership.ceo?.firstName, 'Ada');
      assert.equal(r.basicInfo.headquarters?.fullAddress, '100 Main Street, Suite 400, Boston, Massachusetts 02110, United States');
    });

    it('POST /company-funding charges 4 credits when found', async () => {
      const res = await t.post('/company-funding', { company_name: 'stripe' });
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(Value.Check(CompanyFundingResponse, res.json()));
      const body = res.json();
      assert.equal(body.message, 'Funding data found.');
      assert.equal(body.credits_consumed, 4);
      assert.equal(body.financialInfo.formattedFunding, '$2.2B');
      assert.equal(body.leadership.president.firstName, 'John');
      assert.equal(res.headers['x-credits-cost'], '4');
      assert.equal(res.headers['x-credits-remaining'], '6');
    });

    it('POST /company-funding answers the not-found body for free', async () => {
      for (const body of [
        { company_domain: 'acme.example' },
        { company_name: 'Acme' },
        { company_domain: 'nobody.example', company_name: 'Nobody' },
      ]) {
        const res = await t.post('/company-funding', body);
        assert.equal(res.statusCode, 200);
        const json = res.json();
        assert.equal(json.message, 'No funding data found for this company.');
        assert.equal(json.credits_consumed, 0);
        for (const field of Object.keys(FundingResult.properties)) assert.equal(json[field], null, field);
        assert.equal(res.headers['x-credits-cost'], '0');
      }
      assert.equal(await t.services.billing.balance(t.keyId), 6000);
    });

    it('POST /company-funding needs a name or a domain', async () => {
      for (const body of [{}, { company_name: '  ' }, { company_domain: '' }]) {
        const res = await t.post('/company-funding', body);
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().error, 'invalid_request');
      }
    });

    it('POST /company-funding refuses with 402 when the balance cannot cover 4 credits, serving nothing', async () => {
      await t.post('/company-funding', { company_domain: 'stripe.com' }); // balance 6 → 2
      const res = await t.post('/company-funding', { company_domain: 'stripe.com' });
      assert.equal(res.statusCode, 402);
      assert.equal(res.json().error, 'insufficient_credits');
      assert.equal(res.json().basicInfo, undefined);
      assert.equal(await t.services.billing.balance(t.keyId), 2000);
    });
  });
}
