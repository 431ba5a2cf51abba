import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { prepareCompany } from '../../src/companies/input.ts';

for (const target of dbTargets) {
  describe(`company matching (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let companies: CompanyService;
    const ids: Record<string, number> = {};
    before(async () => {
      database = await target.open();
      companies = new CompanyService({ db: database.db });
      ids.stripe = (
        await companies.upsertCompany({ name: 'Stripe, Inc.', domain: 'stripe.com', aliases: ['Stripe Payments'] }, 'jsonl')
      ).id;
      ids.acmeAz = (
        await companies.upsertCompany({ name: 'Acme Corporation', domain: 'acme.example', location: { country: 'US' } }, 'jsonl')
      ).id;
      ids.acmeTx = (
        await companies.upsertCompany({ name: 'Acme Corp', domain: 'acme-rockets.example', location: { country: 'US' } }, 'jsonl')
      ).id;
      ids.meta = (
        await companies.upsertCompany({ name: 'Meta Platforms, Inc.', domain: 'meta.example', aliases: ['Facebook'] }, 'jsonl')
      ).id;
    });
    after(async () => database?.destroy());

    it('finds by domain, URL or email, exactly after normalization', async () => {
      for (const q of ['stripe.com', 'STRIPE.COM', 'https://www.stripe.com/pricing', 'jane@stripe.com', 'www.stripe.com.']) {
        assert.equal((await companies.findByDomain(q))?.id, ids.stripe, q);
      }
      assert.equal(await companies.findByDomain('blog.stripe.com'), null, 'a subdomain is not guessed up to its parent');
      assert.equal(await companies.findByDomain('stripe.co'), null);
      assert.equal(await companies.findByDomain('not a domain'), null);
    });

    it('matches "Stripe, Inc." and "stripe" and aliases to the same company', async () => {
      for (const q of ['stripe', 'Stripe, Inc.', 'STRIPE INC', 'Stripe LLC', ' stripe. ', 'Stripe Payments', 'stripe payments inc']) {
        assert.equal((await companies.matchByName(q))?.id, ids.stripe, q);
      }
      assert.equal((await companies.matchByName('facebook'))?.id, ids.meta);
      assert.equal((await companies.matchByName('Meta'))?.id, undefined, '"Meta" is not "Meta Platforms"');
    });

    it('never guesses between two companies with the same name and different domains', async () => {
      assert.equal(await companies.matchByName('acme'), null);
      assert.equal(await companies.matchByName('ACME Inc.'), null);
      assert.equal((await companies.matchByName('Acme Corporation'))?.id, ids.acmeAz, 'one exact display-name match disambiguates');
      assert.equal((await companies.matchByName('acme corp'))?.id, ids.acmeTx);
      assert.equal((await companies.findByDomain('acme.example'))?.id, ids.acmeAz);
      assert.equal((await companies.resolve({ company_name: 'Acme', company_domain: 'acme-rockets.example' }))?.id, ids.acmeTx);
      assert.equal(await companies.resolve({ company_name: 'Acme' }), null);
    });

    it('an upsert by name alone never merges into one of several same-named companies', async () => {
      const r = await companies.upsertCompany({ name: 'ACME, Inc.', location: { country: 'US' } }, 'jobs:test');
      assert.equal(r.created, true);
      assert.notEqual(r.id, ids.acmeAz);
      assert.notEqual(r.id, ids.acmeTx);
      // An unambiguous name (and no conflicting country) does merge.
      const s = await companies.upsertCompany({ name: 'Stripe', industry: 'Financial Services' }, 'jobs:test');
      assert.deepEqual(s, { id: ids.stripe, created: false });
      // Same name, another country: a different company.
      const t = await companies.upsertCompany({ name: 'Meta Platforms', location: { country: 'Germany' } }, 'jobs:test');
      assert.equal(t.created, false, 'the stored Meta has no country: nothing contradicts the match');
      const u = await companies.upsertCompany({ name: 'Stripe GmbH', location: { country: 'DE' } }, 'jobs:test');
      assert.equal(u.id, ids.stripe, 'stored Stripe had no country either');
    });

    it('a new domain completes a domain-less namesake instead of creating a twin, never one with another domain', async () => {
      const byName = await companies.upsertCompany({ name: 'Lumen Robotics' }, 'jobs:greenhouse');
      assert.equal(byName.created, true);
      const withDomain = await companies.upsertCompany({ name: 'Lumen Robotics, Inc.', domain: 'lumen-robotics.example' }, 'people:jsonl');
      assert.deepEqual(withDomain, { id: byName.id, created: false });
      assert.equal((await companies.findByDomain('lumen-robotics.example'))?.id, byName.id);
      // Stripe already has a domain: a "Stripe" with another domain is another company.
      const other = await companies.upsertCompany({ name: 'Stripe', domain: 'stripe-plumbing.example' }, 'people:jsonl');
      assert.equal(other.created, true);
      assert.notEqual(other.id, ids.stripe);
      assert.equal((await companies.findByDomain('stripe.com'))?.id, ids.stripe);
    });

    it('a domain held by one company is never moved to another', async () => {
      const r = await companies.upsertCompany({ name: 'Impostor', domain: 'stripe.com' }, 'jobs:test');
      assert.equal(r.id, ids.stripe, 'a report with a known domain is about that company');
      assert.equal((await companies.getById(ids.stripe))?.name, 'Stripe, Inc.', 'a lower-ranked source does not rename it');
    });
  });
}

for (const target of dbTargets) {
  describe(`company upsert by name then domain (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let companies: CompanyService;
    before(async () => {
      database = await target.open();
      companies = new CompanyService({ db: database.db });
    });
    after(async () => database?.destroy());

    it('a report with a domain completes the one namesake that has none, never two', async () => {
      const byName = await companies.upsertCompany({ name: 'Zephyr Labs', location: { country: 'US' } }, 'jobs:test');
      assert.equal(byName.created, true);
      const [a, b] = await companies.upsertPrepared(
        [
          prepareCompany({ name: 'Zephyr Labs, Inc.', domain: 'zephyr.example', location: { country: 'US' } }),
          prepareCompany({ name: 'Zephyr Labs LLC', domain: 'zephyr-other.example', location: { country: 'US' } }),
        ],
        'pdl',
      );
      assert.equal(a.id, byName.id, 'the domain completes the name-only company');
      assert.equal(a.created, false);
      assert.notEqual(b.id, byName.id, 'another domain of the same name is another company');
      assert.equal(b.created, true);
      assert.equal((await companies.findByDomain('zephyr.example'))?.id, byName.id);
      assert.equal((await companies.getById(byName.id))?.domain, 'zephyr.example');
      // A namesake that already has a domain is never completed with another one.
      const c = await companies.upsertCompany({ name: 'Zephyr Labs', domain: 'zephyr-third.example' }, 'jobs:test');
      assert.equal(c.created, true);
    });
  });
}
