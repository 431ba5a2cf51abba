// The LeadMagic v1 paths: each answer validates against the response schema of LeadMagic's
// published OpenAPI document (test/fixtures/real/leadmagic, with its origin), each accepts the
// request their document's examples make, each charges what our own path charges on the same
// ledger, and our own paths answer exactly as before.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { dbTargets } from '../support/db.ts';
import type { TestApp } from '../support/app.ts';
import { startSampleWorld, SAMPLE_POSTED_AFTER, type SampleWorld } from '../support/sample-world.ts';
import { V1_ROUTES } from '../../src/http/routes/v1/v1.ts';

interface DocumentPath {
  legacyPath: string;
  requestExample?: Record<string, unknown>;
  response: Record<string, unknown>;
}
const DOCUMENT = JSON.parse(readFileSync(new URL('../fixtures/real/leadmagic/v1-schemas.json', import.meta.url), 'utf8')) as {
  paths: Record<string, DocumentPath>;
  components: Record<string, unknown>;
};

// Their document types employee-finder's credits_consumed as an integer while pricing it at 0.05
// credits per employee: a page of 3 costs 0.15. We answer the price, a number.
const employeeFinder = DOCUMENT.paths['POST /v1/people/employee-finder'].response as { properties: Record<string, unknown> };
employeeFinder.properties.credits_consumed = { type: 'number' };

const ajv = new Ajv2020({ strict: false, allErrors: true });
// The document's $refs point at #/components/schemas/…: one schema holding them resolves them.
ajv.addSchema({ $id: 'leadmagic', components: { schemas: DOCUMENT.components } });
const rewriteRefs = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"leadmagic#/components/schemas/'));
const validators = new Map(Object.entries(DOCUMENT.paths).map(([key, p]) => [key, ajv.compile(rewriteRefs(p.response) as object)]));

function assertMatchesDocument(key: string, body: unknown): void {
  const validate = validators.get(key)!;
  assert.ok(validate(body), `${key}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
}

for (const target of dbTargets) {
  describe(`LeadMagic v1 paths (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let sample: SampleWorld;

    before(async () => {
      sample = await startSampleWorld(target);
      t = sample.t;
    });
    after(() => sample?.close());

    /** Calls a v1 path and the document's schema for it; returns the body. */
    async function v1(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>) {
      const res = method === 'GET' ? await t.get(path) : await t.post(path, body ?? {});
      assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
      const json = res.json<Record<string, unknown>>();
      assertMatchesDocument(`${method} ${path}`, json);
      return { json, res };
    }

    it('every v1 path of the document is served, and accepts the request its examples make', async () => {
      const served = new Set(V1_ROUTES.map((r) => `${r.method} ${r.path}`));
      for (const key of Object.keys(DOCUMENT.paths)) assert.ok(served.has(key), `${key} is served`);
      for (const [key, p] of Object.entries(DOCUMENT.paths)) {
        const [method, path] = key.split(' ') as ['GET' | 'POST', string];
        await v1(method, path, p.requestExample);
      }
    });

    it('GET /v1/credits: the balance', async () => {
      const { json } = await v1('GET', '/v1/credits');
      assert.equal(typeof json.credits, 'number');
      assert.deepEqual(Object.keys(json), ['credits']);
    });

    it('email-validation: company fields under their network names, unknown ones left out; our path keeps its names and adds theirs', async () => {
      const { json } = await v1('POST', '/v1/people/email-validation', { email: 'jane@acme-robotics.com' });
      assert.equal(json.email_status, 'valid');
      assert.equal(json.credits_consumed, 0.05);
      assert.equal(json.company_name, 'Acme Robotics, Inc.');
      assert.equal(json.company_linkedin_url, 'www.linkedin.com/company/acme-robotics');
      assert.equal(json.company_linkedin_id, '1035');
      assert.equal(json.company_twitter_url, 'https://twitter.com/acmerobotics');
      assert.equal(json.company_facebook_url, null, 'nullable in their document: kept as null');
      assert.equal((json.company_location as Record<string, unknown>).locality, 'austin');
      assert.ok(
        !('address_line_2' in (json.company_location as object)) ||
          (json.company_location as { address_line_2: unknown }).address_line_2 === null,
      );
      assert.ok(!('company_prof_url' in json));
      const ours = (await t.post('/email-validate', { email: 'jane@acme-robotics.com' })).json<Record<string, unknown>>();
      assert.equal(ours.company_prof_url, 'www.linkedin.com/company/acme-robotics');
      assert.equal(ours.company_linkedin_url, ours.company_prof_url, 'the original name beside ours, same value');
    });

    it('email-finder: found and not found', async () => {
      const found = await v1('POST', '/v1/people/email-finder', { first_name: 'Jane', last_name: 'Roe', domain: 'acme-robotics.com' });
      assert.equal(found.json.status, 'valid');
      assert.equal(found.json.email, 'jane@acme-robotics.com');
      assert.equal(found.json.credits_consumed, 1);
      assert.equal(found.json.company_linkedin_id, '1035');
      const none = await v1('POST', '/v1/people/email-finder', { first_name: 'Nobody', last_name: 'Here', domain: 'acme-robotics.com' });
      assert.equal(none.json.status, 'not_found');
      assert.equal(none.json.credits_consumed, 0);
      assert.equal(none.json.email, '', 'their document requires a string: "" when none');
    });

    it('company-search: the profile from the company store, by domain, page URL or name; 1 credit', async () => {
      const byDomain = await v1('POST', '/v1/companies/company-search', { company_domain: 'acme-robotics.com' });
      assert.deepEqual(
        { ...byDomain.json },
        {
          company_name: 'Acme Robotics, Inc.',
          company_id: 1035,
          industry: 'industrial automation',
          website_url: 'https://acme-robotics.com',
          domain: 'acme-robotics.com',
          employee_count: 140,
          employee_count_range: { start: 51, end: 200 },
          follower_count: 5120,
          founded_on: { year: 2015, month: null, day: null },
          company_type: 'private',
          locations: [
            {
              country: 'US',
              city: 'austin',
              geographic_area: 'texas',
              postal_code: '78701',
              line2: null,
              headquarter: true,
              latitude: 30.27,
              longitude: -97.74,
            },
          ],
          universal_name: 'acme-robotics',
          url: 'https://www.linkedin.com/company/acme-robotics',
          message: 'Company found.',
          credits_consumed: 1,
        },
      );
      const byPage = await v1('POST', '/v1/companies/company-search', { profile_url: 'linkedin.com/company/ACME-robotics?trk=x' });
      assert.equal(byPage.json.company_name, 'Acme Robotics, Inc.');
      const byName = await v1('POST', '/v1/companies/company-search', { company_name: 'Acme Robotics' });
      assert.equal(byName.json.company_id, 1035);
      const none = await v1('POST', '/v1/companies/company-search', { company_domain: 'nowhere.example' });
      assert.deepEqual(none.json, { message: 'Company not found.', credits_consumed: 0 });
      const ours = (await t.post('/company-search', { company_domain: 'nowhere.example' })).json<Record<string, unknown>>();
      assert.equal(ours.company_name, null, 'our own path answers null fields');
    });

    it('employee-finder: current people at the company, most senior first; 0.05 credits each', async () => {
      const { json } = await v1('POST', '/v1/people/employee-finder', { company_name: 'Acme Robotics', per_page: 3 });
      const data = json.data as Record<string, unknown>[];
      assert.equal(json.returned_count, 3);
      assert.ok((json.total_count as number) >= 4);
      assert.equal(json.credits_consumed, 0.15);
      assert.equal(data[0].title, 'Co-Founder & CEO');
      assert.equal(data[0].company_name, 'Acme Robotics, Inc.');
      assert.equal(data[0].website, 'https://acme-robotics.com');
      const next = await v1('POST', '/v1/people/employee-finder', { company_domain: 'acme-robotics.com', limit: 3, page: 2 });
      const names = new Set(data.map((d) => d.full_name));
      for (const person of next.json.data as Record<string, unknown>[]) assert.ok(!names.has(person.full_name), 'pages do not overlap');
      const none = await v1('POST', '/v1/people/employee-finder', { company_name: 'Nobody Ltd' });
      assert.equal(none.json.credits_consumed, 0);
      assert.equal(none.json.message, 'No employees found for the given company.');
    });

    it('company-funding: renamed leadership links and social platforms, whole-dollar revenue', async () => {
      const { json } = await v1('POST', '/v1/companies/company-funding', { company_domain: 'acme-robotics.com' });
      assert.equal(json.credits_consumed, 4);
      const ceo = (json.leadership as Record<string, Record<string, unknown>>).ceo;
      assert.equal(ceo.linkedin, 'https://www.linkedin.com/in/maria-de-la-cruz');
      assert.ok(!('prof' in ceo));
      const platforms = (json.socialMedia as { platform: string }[]).map((s) => s.platform);
      assert.ok(platforms.includes('linkedin') && platforms.includes('twitter'), platforms.join());
      assert.equal(Number.isInteger((json.financialInfo as { revenue: number }).revenue), true);
    });

    it('jobs-finder: company links under their names, salaries as strings, expired null', async () => {
      const { json } = await v1('POST', '/v1/jobs/jobs-finder', { company_name: 'Acme Robotics', posted_after: SAMPLE_POSTED_AFTER });
      const job = (json.results as Record<string, unknown>[])[0];
      assert.equal(job.salary_min, '120000');
      assert.equal(job.salary_max, '150000');
      assert.equal(job.expired, null);
      assert.equal((job.company as Record<string, unknown>).linkedin_url, 'https://www.linkedin.com/company/acme-robotics');
      assert.equal(json.credits_consumed, 1);
      const ours = (await t.post('/jobs-finder', { company_name: 'Acme Robotics', posted_after: SAMPLE_POSTED_AFTER })).json<{
        results: Record<string, unknown>[];
      }>();
      assert.equal(ours.results[0].salary_min, 120000);
    });

    it('role-finder (also by the company page URL), mobile-finder (E.164 text) and b2b-profile-email (work_email, status)', async () => {
      const role = await v1('POST', '/v1/people/role-finder', {
        job_title: 'VP of Sales',
        company_profile_url: 'https://linkedin.com/company/acme-robotics',
      });
      assert.equal(role.json.name, 'John Smith');
      assert.equal(role.json.credits_consumed, 2);
      const mobile = await v1('POST', '/v1/people/mobile-finder', { work_email: 'john.smith@acme-robotics.com' });
      assert.equal(mobile.json.mobile_number, '+14155550199');
      const noMobile = await v1('POST', '/v1/people/mobile-finder', { work_email: 'nobody@acme-robotics.com' });
      assert.equal(noMobile.json.mobile_number, null);
      const email = await v1('POST', '/v1/people/b2b-profile-email', { profile_url: 'https://www.linkedin.com/in/maria-de-la-cruz' });
      assert.equal(email.json.work_email, 'maria@acme-robotics.com');
      assert.equal(email.json.status, 'found');
      const noEmail = await v1('POST', '/v1/people/b2b-profile-email', { profile_url: 'https://www.linkedin.com/in/no-such-person' });
      assert.deepEqual([noEmail.json.work_email, noEmail.json.status, noEmail.json.credits_consumed], [null, 'not_found', 0]);
    });

    it('a v1 call is charged on the same ledger and counted against the same per-minute limit as ours', async () => {
      const key = await t.services.keys.create('shared', 10_000);
      await t.services.keys.setRateLimit(key.id, 'company-search', 2);
      const headers = { 'x-api-key': key.key };
      assert.equal((await t.post('/company-search', { company_domain: 'acme-robotics.com' }, headers)).statusCode, 200);
      assert.equal((await t.post('/v1/companies/company-search', { company_domain: 'acme-robotics.com' }, headers)).statusCode, 200);
      const third = await t.post('/v1/companies/company-search', { company_domain: 'acme-robotics.com' }, headers);
      assert.equal(third.statusCode, 429);
      assert.equal(await t.services.billing.balance(key.id), 10_000 - 2 * 1000);
      const rows = await t.database.db
        .selectFrom('credit_ledger')
        .select(['operation'])
        .where('key_id', '=', key.id)
        .where('operation', '=', 'company-search')
        .execute();
      assert.equal(rows.length, 2);
    });

    it('the people store: email to profile, profile search, personal emails and job change, found and not found', async () => {
      const profile = await v1('POST', '/v1/people/b2b-profile', { work_email: 'john.smith@acme-robotics.com' });
      assert.equal(profile.json.profile_url, 'https://www.linkedin.com/in/john-smith-42');
      assert.equal(profile.json.credits_consumed, 10);
      const noProfile = await v1('POST', '/v1/people/b2b-profile', { work_email: 'nobody@acme-robotics.com' });
      assert.equal(noProfile.json.credits_consumed, 0);
      assert.ok(!('profile_url' in noProfile.json), 'unknown values are left out');
      const search = await v1('POST', '/v1/people/profile-search', { profile_url: 'https://www.linkedin.com/in/john-smith-42' });
      assert.equal(search.json.full_name, 'John Smith');
      assert.equal(search.json.company_size, '140', 'a string in their document');
      assert.deepEqual(search.json.experiences, [
        { title: 'VP of Sales', subtitle: 'Acme Robotics, Inc.', caption: '2020-01 - Present' },
        { title: 'Sales Director', subtitle: 'Globex', caption: '2015-01 - 2019-12' },
      ]);
      assert.equal(search.json.credits_consumed, 1);
      const personal = await v1('POST', '/v1/people/personal-email-finder', { profile_url: 'maria-de-la-cruz' });
      assert.deepEqual(
        [personal.json.status, personal.json.personal_email, personal.json.credits_consumed],
        ['found', 'maria.cruz@gmail.com', 2],
      );
      const noPersonal = await v1('POST', '/v1/people/personal-email-finder', { profile_url: 'john-smith-42' });
      assert.deepEqual([noPersonal.json.status, noPersonal.json.personal_email, noPersonal.json.credits_consumed], ['not_found', null, 0]);
      const moved = await t.post('/v1/people/job-change-detector', { profile_url: 'john-smith-42', company_domain: 'globex.example.com' });
      const change = moved.json<Record<string, unknown>>();
      assert.deepEqual(
        [change.status, change.job_change_detected, change.changed_at, change.credits_consumed],
        ['JOB_CHANGE_DETECTED', true, '2019-12', 3],
      );
      assert.equal((change.current_position as { company_name: string }).company_name, 'Acme Robotics, Inc.');
      const stays = await t.post('/v1/people/job-change-detector', { profile_url: 'john-smith-42', company_domain: 'acme-robotics.com' });
      assert.equal(stays.json<{ status: string }>().status, 'NO_CHANGE');
      const unknown = await t.post('/v1/people/job-change-detector', { profile_url: 'john-smith-42', company_domain: 'nowhere.example' });
      assert.deepEqual(unknown.json(), { message: 'Profile or company not found.', credits_consumed: 0 });
      const noCompany = await t.post('/v1/people/job-change-detector', { profile_url: 'john-smith-42' });
      assert.equal(noCompany.statusCode, 400);
    });

    it('competitors-search: the peer of the same industry and market, with why; an unknown company is free', async () => {
      const res = await t.post('/v1/companies/competitors-search', { company_url: 'https://acme-robotics.com/about' });
      const answer = res.json<{ competitors: { name: string; reasons: string[] }[]; credits_consumed: number }>();
      assert.equal(answer.competitors[0].name, 'Borealis Automation');
      assert.deepEqual(answer.competitors[0].reasons, [
        'same industry: industrial automation',
        'same market: US',
        'adjacent size band: 201-500 employees (theirs 51-200)',
      ]);
      assert.equal(answer.credits_consumed, 5);
      const none = await t.post('/v1/companies/competitors-search', { company_domain: 'nowhere.example' });
      assert.deepEqual(none.json(), { message: 'No competitors found for this company.', credits_consumed: 0 });
    });

    it('technographics: the technologies the listings name, each with its evidence; an unknown company is free', async () => {
      const res = await t.post('/v1/companies/technographics', { company_url: 'https://acme-robotics.com/about' });
      const answer = res.json<{
        technologies: { name: string; postings: number; posting_url: string; last_seen: string }[];
        data: unknown[];
        credits_consumed: number;
      }>();
      assert.deepEqual(answer.data, answer.technologies, 'the same list as data (the n8n templates read it there)');
      assert.deepEqual(
        answer.technologies.map((tech) => [tech.name, tech.postings, tech.posting_url, tech.last_seen]),
        ['Amazon Web Services', 'PostgreSQL', 'Python'].map((name) => [name, 1, 'https://jobs.example/j1', '2026-01-15T09:30:00.000Z']),
      );
      assert.equal(answer.credits_consumed, 1);
      const none = await t.post('/v1/companies/technographics', { company_domain: 'nowhere.example' });
      assert.deepEqual(none.json(), { message: 'No technologies found for this company.', credits_consumed: 0, data: [] });
    });

    it('paths that need data we do not have are absent', async () => {
      for (const path of ['/v1/ads/google-ads-search', '/v1/ads/meta-ads-search', '/v1/ads/b2b-ads-search']) {
        const res = await t.post(path, { company_domain: 'acme-robotics.com' });
        assert.equal(res.statusCode, 404, path);
        assert.equal(res.json<{ error: string }>().error, 'not_found');
      }
    });
  });
}
