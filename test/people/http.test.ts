import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { readPeopleJsonl } from '../../src/ingest/people/jsonl.ts';
import { runPeopleImport } from '../../src/ingest/people/runner.ts';

const fixture = fileURLToPath(new URL('../fixtures/people/people.jsonl', import.meta.url));

for (const target of dbTargets) {
  describe(`people routes (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    const balance = async () => (await t.get('/credits')).json().credits as number;

    before(async () => {
      t = await startTestApp(target, { credits: 20 });
      await runPeopleImport({
        db: t.database.db,
        companies: t.services.companies,
        source: 'jsonl',
        records: readPeopleJsonl(fixture).records,
        defaultCountry: 'US',
      });
    });
    after(() => t?.close());

    it('POST /role-finder charges 2 credits when found', async () => {
      const res = await t.post('/role-finder', { company_domain: 'acme-robotics.com', job_title: 'CEO' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        name: 'Dr. Maria de la Cruz',
        profile_url: 'https://www.linkedin.com/in/maria-de-la-cruz',
        first_name: 'Maria',
        last_name: 'de la Cruz',
        message: 'Role found.',
        company_name: 'Acme Robotics, Inc.',
        company_website: 'https://acme-robotics.com',
        credits_consumed: 2,
      });
      assert.equal(res.headers['x-credits-cost'], '2');
      assert.equal(res.headers['x-credits-remaining'], '18');
    });

    it('POST /role-finder not found: 200, null fields, 0 credits', async () => {
      const res = await t.post('/role-finder', { company_name: 'Acme Robotics', job_title: 'Head of Marketing' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), {
        name: null,
        profile_url: null,
        first_name: null,
        last_name: null,
        message: 'Role not found.',
        company_name: null,
        company_website: null,
        credits_consumed: 0,
      });
      assert.equal(await balance(), 18);
    });

    it('POST /role-finder requires job_title and a company', async () => {
      assert.equal((await t.post('/role-finder', { job_title: 'CEO' })).json().error, 'invalid_request');
      assert.equal((await t.post('/role-finder', { company_domain: 'acme-robotics.com', job_title: ' ' })).statusCode, 400);
      assert.equal((await t.post('/role-finder', { company_domain: 'acme-robotics.com' })).statusCode, 400);
    });

    it('POST /mobile-finder answers the number as a JSON number and charges 5 credits', async () => {
      const res = await t.post('/mobile-finder', { work_email: 'john.smith@acme-robotics.com' });
      assert.equal(res.statusCode, 200);
      assert.match(res.body, /"mobile_number":14155550199[,}]/);
      assert.deepEqual(res.json(), {
        profile_url: 'https://www.linkedin.com/in/john-smith-42',
        mobile_number: 14155550199,
        message: 'Mobile found.',
        credits_consumed: 5,
      });
      assert.equal(await balance(), 13);
    });

    it('POST /mobile-finder not found and validation', async () => {
      const res = await t.post('/mobile-finder', { profile_url: 'kenadams' });
      assert.deepEqual(res.json(), { profile_url: null, mobile_number: null, message: 'Mobile not found.', credits_consumed: 0 });
      const bad = await t.post('/mobile-finder', {});
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error, 'invalid_request');
      assert.equal(await balance(), 13);
    });

    it('POST /b2b-profile-email serves a verified address for 5 credits', async () => {
      const res = await t.post('/b2b-profile-email', { profile_url: 'maria-de-la-cruz' });
      assert.deepEqual(res.json(), {
        profile_url: 'https://www.linkedin.com/in/maria-de-la-cruz',
        credits_consumed: 5,
        message: 'Email found.',
        email: 'maria@acme-robotics.com',
        work_email: 'maria@acme-robotics.com',
        status: 'found',
      });
      assert.equal(await balance(), 8);
    });

    it('POST /b2b-profile-email not found and validation', async () => {
      const res = await t.post('/b2b-profile-email', { profile_url: 'nobody-at-all' });
      assert.deepEqual(res.json(), {
        profile_url: null,
        credits_consumed: 0,
        message: 'No email found for this profile.',
        email: null,
        work_email: null,
        status: 'not_found',
      });
      assert.equal((await t.post('/b2b-profile-email', {})).statusCode, 400);
    });

    it('refuses a found result the balance cannot cover, serving nothing', async () => {
      // 8 credits left: one more profile email (5) fits, the next does not.
      assert.equal((await t.post('/b2b-profile-email', { profile_url: 'maria-de-la-cruz' })).statusCode, 200);
      const res = await t.post('/b2b-profile-email', { profile_url: 'maria-de-la-cruz' });
      assert.equal(res.statusCode, 402);
      assert.equal(res.json().error, 'insufficient_credits');
      assert.equal(res.body.includes('maria@'), false);
      assert.equal(await balance(), 3);
    });
  });
}
