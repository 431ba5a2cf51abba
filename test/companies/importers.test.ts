import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { runCompanyImport } from '../../src/ingest/companies/runner.ts';
import { readLines } from '../../src/ingest/companies/lines.ts';
import { parseCompanyJsonl } from '../../src/ingest/companies/jsonl.ts';
import { parsePdlNdjson, readPdlCsv } from '../../src/ingest/companies/pdl.ts';
import { readFormD } from '../../src/ingest/companies/formd.ts';
import { importFeed } from '../../src/ingest/companies/feed-import.ts';

const FIXTURES = 'test/fixtures/companies';
const jsonl = (service: CompanyService, batchSize = 1000) =>
  runCompanyImport({ service, source: 'jsonl', records: parseCompanyJsonl(readLines(`${FIXTURES}/companies.jsonl`).lines), batchSize });

for (const target of dbTargets) {
  describe(`company importers (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let companies: CompanyService;
    before(async () => {
      database = await target.open();
      companies = new CompanyService({ db: database.db });
    });
    after(async () => database?.destroy());

    it('imports our JSONL format, rejecting bad rows with their reasons', async () => {
      const summary = await jsonl(companies);
      assert.equal(summary.read, 9);
      assert.equal(summary.inserted, 4);
      assert.equal(summary.updated, 0);
      const reasons = summary.rejected.map((r) => `${r.line}: ${r.reason}`);
      assert.equal(summary.rejectedTotal, 5, reasons.join('\n'));
      assert.match(
        reasons.find((r) => r.startsWith('6:'))!,
        /a new company needs a name \(no stored company/,
      );
      assert.match(
        reasons.find((r) => r.startsWith('7:'))!,
        /domain is not a domain/,
      );
      assert.match(
        reasons.find((r) => r.startsWith('8:'))!,
        /founded_year/,
      );
      assert.match(
        reasons.find((r) => r.startsWith('9:'))!,
        /not valid JSON/,
      );
      assert.match(
        reasons.find((r) => r.startsWith('10:'))!,
        /company_type/,
      );

      const stripe = (await companies.findByDomain('https://stripe.dev/docs'))!;
      assert.equal(stripe.name, 'Stripe, Inc.');
      assert.equal(stripe.domain, 'stripe.com');
      assert.equal(stripe.revenue, 14_400_000_000);
      assert.equal(stripe.geo, '37.6547,-122.3942');
      assert.equal(stripe.prof_url, 'prof.example/company/stripe');
      assert.equal(stripe.social_b_handle, 'stripe');
      assert.equal(stripe.size_label, '5001-10000');
      assert.equal(stripe.continent, 'north america');
      const munich = await companies.findByDomain('xn--mnchen-rck-9dbh.example');
      assert.equal(munich?.name, 'Münchner Rück AG');
      assert.equal((await companies.findByDomain('münchen-rück.example'))?.id, munich?.id);
      const acme = await companies.findByDomain('acme.example');
      assert.equal(acme?.company_type, 'private');
      assert.equal(acme?.country, 'united states');
    });

    it('re-importing the same file updates nothing and duplicates nothing', async () => {
      const before = await companies.repository.count();
      const summary = await jsonl(companies, 2);
      assert.equal(summary.inserted, 0);
      assert.equal(summary.updated, 0);
      assert.equal(summary.unchanged, 4);
      assert.equal(await companies.repository.count(), before);
      const stripe = (await companies.findByDomain('stripe.com'))!;
      assert.equal((await companies.repository.fundingRoundsOf(stripe.id)).length, 2);
      assert.equal((await companies.repository.articlesOf(stripe.id)).length, 2);
    });

    it('imports the People Data Labs CSV and NDJSON formats into the same companies', async () => {
      const csv = readPdlCsv(`${FIXTURES}/pdl.csv`);
      const first = await runCompanyImport({ service: companies, source: 'pdl', records: csv.records });
      assert.equal(first.read, 5);
      assert.equal(first.inserted, 2, JSON.stringify(first.toJSON()));
      assert.equal(first.updated, 1); // stripe already came from our JSONL: PDL adds its id, keeps JSONL facts
      assert.deepEqual(
        first.rejected.map((r) => r.line),
        [5, 6],
      );
      const stripe = (await companies.findByDomain('stripe.com'))!;
      assert.equal(stripe.name, 'Stripe, Inc.', 'a lower-ranked source does not rename a curated company');
      assert.equal((await companies.repository.findByExternalId('pdl_id', 'tnHcNHbCv8MKeLh92946LAkX6PKg'))?.id, stripe.id);
      const initech = (await companies.findByDomain('initech.example'))!;
      assert.equal(initech.name, 'Initech, LLC');
      assert.equal(initech.industry_id, 1);
      assert.equal(initech.size_label, '201-500');
      assert.equal(initech.prof_url, 'linkedin.com/company/initech');

      const nd = await runCompanyImport({
        service: companies,
        source: 'pdl',
        records: parsePdlNdjson(readLines(`${FIXTURES}/pdl.ndjson`).lines),
      });
      assert.equal(nd.read, 4);
      assert.equal(nd.inserted, 1); // hooli
      assert.equal(nd.unchanged, 1); // globex, same facts as the CSV
      assert.equal(nd.rejectedTotal, 2);
      assert.equal((await companies.findByDomain('hooli.example'))?.industry_id, 2);
    });

    it('imports a SEC Form D data set into funding rounds, excluding pooled funds and test filings', async () => {
      const formD = await readFormD(`${FIXTURES}/formd`);
      const summary = await runCompanyImport({ service: companies, source: 'sec-formd', records: formD.records });
      const reasons = summary.rejected.map((r) => r.reason);
      assert.ok(
        reasons.some((r) => /pooled investment fund/.test(r)),
        reasons.join('\n'),
      );
      assert.ok(
        reasons.some((r) => /0001800009-24-000001: no FORMDSUBMISSION/.test(r)),
        reasons.join('\n'),
      );
      assert.equal(summary.rejectedTotal, 2);
      assert.equal(summary.inserted, 1, JSON.stringify(summary.toJSON())); // Nimbus
      assert.equal(summary.updated, 2); // Nimbus's amendment; Globex, matched by name and country to the PDL company

      const nimbus = (await companies.repository.findByExternalId('sec_cik', '1800001'))!;
      assert.equal(nimbus.name, 'Nimbus Robotics, Inc.');
      assert.equal(nimbus.region, 'massachusetts');
      assert.equal(nimbus.country_code, 'US');
      assert.equal(nimbus.founded_year, 2021);
      const rounds = await companies.repository.fundingRoundsOf(nimbus.id);
      assert.equal(rounds.length, 1, 'the amendment updates the original offering');
      assert.equal(rounds[0].amount, 11_500_000);
      assert.equal(rounds[0].round, 'Form D offering (Equity)');
      assert.equal(new Date(rounds[0].announced_at!).toISOString().slice(0, 10), '2023-12-20');
      const leaders = await companies.repository.leadersOf(nimbus.id);
      assert.deepEqual(leaders.map((l) => [l.role, l.first_name, l.last_name]).sort(), [
        ['ceo', 'Ada', 'Lovelace'],
        ['cfo', 'Charles', 'Babbage'],
        // A director the filing names without a chief role is leadership too, under a role of its own.
        ['related_3', 'Grace', 'Hopper'],
      ]);
      assert.equal(leaders.find((l) => l.last_name === 'Hopper')?.designation, 'Director');
      assert.equal((await companies.matchByName('Nimbus Labs'))?.id, nimbus.id, 'previous names become aliases');
      assert.equal(await companies.matchByName('Harbor Ventures Fund III'), null);
      assert.equal(await companies.matchByName('Test Filer Co'), null);

      const globex = (await companies.findByDomain('globex.example'))!;
      assert.equal((await companies.repository.findByExternalId('sec_cik', '1800003'))?.id, globex.id);
      assert.equal((await companies.repository.leadersOf(globex.id))[0]?.role, 'ceo');

      // A second import of the same quarter changes nothing.
      const again = await runCompanyImport({
        service: companies,
        source: 'sec-formd',
        records: (await readFormD(`${FIXTURES}/formd`)).records,
      });
      assert.equal(again.inserted, 0);
      assert.equal(again.updated, 0);
    });

    it('imports RSS as press releases of the feed site company and Atom as news', async () => {
      const rss = await importFeed({ service: companies, xml: readFileSync(`${FIXTURES}/stripe-newsroom.rss`, 'utf8') });
      assert.equal(rss.read, 3);
      assert.equal(rss.inserted, 1, JSON.stringify(rss.toJSON())); // the Series I item is already known
      assert.equal(rss.unchanged, 1);
      assert.equal(rss.rejectedTotal, 1);
      const stripe = (await companies.findByDomain('stripe.com'))!;
      const articles = await companies.repository.articlesOf(stripe.id);
      const tools = articles.find((a) => a.item_key === 'stripe-2024-tools')!;
      assert.equal(tools.kind, 'press_release');
      assert.equal(tools.title, 'Stripe & partners launch new tools');
      assert.equal(tools.publisher, 'Stripe Newsroom');
      assert.equal(new Date(tools.published_at!).toISOString(), '2024-04-23T16:00:00.000Z');

      const atom = await importFeed({
        service: companies,
        xml: readFileSync(`${FIXTURES}/fintech-news.atom`, 'utf8'),
        companyDomain: 'stripe.com',
      });
      assert.equal(atom.inserted, 2);
      const news = (await companies.repository.articlesOf(stripe.id)).filter((a) => a.kind === 'news');
      assert.equal(news.length, 3);
      assert.equal(news[0].title, 'Stripe’s valuation climbs');
      assert.equal(news[0].publisher, 'Fintech Daily');

      // A feed whose company is not stored makes it from its own site and the name its title spells.
      const own = await importFeed({ service: companies, xml: readFileSync(`${FIXTURES}/fintech-news.atom`, 'utf8') });
      assert.equal(own.inserted, 2, JSON.stringify(own.toJSON()));
      const daily = (await companies.findByDomain('fintech-daily.example'))!;
      assert.equal(daily.name, 'Fintech Daily');
      assert.ok((await companies.repository.articlesOf(daily.id)).every((a) => a.kind === 'press_release'));
    });
  });
}
