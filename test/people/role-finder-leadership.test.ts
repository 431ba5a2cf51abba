// /role-finder answers from a company's leadership (here what the Wikidata source wrote) when no
// person record holds the role: same response and price as a person found.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/platform/config.ts';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startWikidataUpstream, type WikidataUpstream } from '../support/upstreams/wikidata.ts';

for (const target of dbTargets) {
  describe(`role finder from company leadership (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let upstream: WikidataUpstream;
    const balance = async () => (await t.get('/credits')).json().credits as number;

    before(async () => {
      upstream = await startWikidataUpstream();
      t = await startTestApp(target, {
        credits: 10,
        deps: {
          config: loadConfig({ CRAWL_ENABLED: '0', CRAWL_HOST_INTERVAL_MS: '0', CRAWL_USER_AGENT: 'leadbase-test (ops@example.test)' }),
          crawlAllowPrivateHosts: [new URL(upstream.url).host],
        },
      });
      const { source } = await t.services.sources.registry.add({ type: 'wikidata', base_url: upstream.url });
      const run = (await t.services.sources.scheduler.runNow(Number(source.id)))!;
      assert.ok(run.counts.inserted >= 4, run.error ?? JSON.stringify(run.counts));
    });
    after(async () => {
      await t?.close();
      await upstream?.close();
    });

    it('finds the CEO by the company domain and charges the found price', async () => {
      const res = await t.post('/role-finder', { company_domain: 'apple.com', job_title: 'CEO' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        name: 'Tim Cook',
        profile_url: null,
        first_name: 'Tim',
        last_name: 'Cook',
        message: 'Role found.',
        company_name: 'Apple Inc.',
        company_website: 'https://www.apple.com/',
        credits_consumed: 2,
      });
      assert.equal(await balance(), 8);
    });

    it('finds a founder by the company name, and says not found (free) for a role nobody holds', async () => {
      const founder = (await t.post('/role-finder', { company_name: 'Apple Inc.', job_title: 'Founder' })).json();
      assert.equal(founder.message, 'Role found.');
      assert.ok(['Steve Jobs', 'Steve Wozniak'].includes(founder.name), founder.name);
      assert.equal(founder.credits_consumed, 2);
      const cfo = (await t.post('/role-finder', { company_domain: 'apple.com', job_title: 'Chief Financial Officer' })).json();
      assert.equal(cfo.message, 'Role not found.');
      assert.equal(cfo.credits_consumed, 0);
      assert.equal(await balance(), 6);
    });

    it('the company profile carries what the source read (professional-network page from P4264)', async () => {
      const res = await t.post('/company-search', { profile_url: 'https://www.linkedin.com/company/apple' });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body.message, 'Company found.', JSON.stringify(body));
      assert.equal(body.company_name, 'Apple Inc.');
      assert.equal(body.domain, 'apple.com');
      assert.equal(body.url, 'https://www.linkedin.com/company/apple');
      assert.equal(body.universal_name, 'apple');
      assert.deepEqual(body.founded_on, { year: 1976, month: null, day: null });
      assert.equal(body.company_type, 'public');
      assert.equal(body.employee_count, 161000);
      assert.deepEqual(
        [body.locations[0].country, body.locations[0].city, body.locations[0].latitude, body.locations[0].longitude],
        ['US', 'cupertino', 37.3175, -122.0419],
      );
      assert.equal(body.credits_consumed, 1);
    });
  });
}
