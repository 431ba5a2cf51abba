// The OpenAPI document's examples are real answers: each operation of the sample world is called
// and its answer compared with the example the document shows (src/http/openapi-examples.json).
// `npm run openapi:examples` records them again after a change of the answers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { startSampleWorld, SAMPLE_POSTED_AFTER, type SampleWorld } from '../support/sample-world.ts';
import { EXAMPLES, type OperationExample } from '../../src/http/examples.ts';
import { OPERATIONS } from '../../src/operations/catalogue.ts';
import { V1_ROUTES } from '../../src/http/routes/v1/v1.ts';

const RECORD = process.env.RECORD_OPENAPI_EXAMPLES === '1';
const FILE = new URL('../../src/http/openapi-examples.json', import.meta.url);

type Call = { method: 'GET' | 'POST'; path: string; request?: Record<string, unknown> };

/** Our operations' example calls, in order (the balance shown by /credits is the first call's). */
const OURS: Call[] = [
  { method: 'GET', path: '/credits' },
  { method: 'POST', path: '/email-validate', request: { email: 'jane@acme-robotics.com' } },
  { method: 'POST', path: '/email-finder', request: { first_name: 'Jane', last_name: 'Roe', domain: 'acme-robotics.com' } },
  { method: 'POST', path: '/company-funding', request: { company_domain: 'acme-robotics.com' } },
  { method: 'POST', path: '/company-search', request: { company_domain: 'acme-robotics.com' } },
  {
    method: 'POST',
    path: '/jobs-finder',
    request: { job_title: 'robotics engineer', country_id: 'US', posted_after: SAMPLE_POSTED_AFTER },
  },
  { method: 'POST', path: '/role-finder', request: { job_title: 'VP of Sales', company_domain: 'acme-robotics.com' } },
  { method: 'POST', path: '/employee-finder', request: { company_domain: 'acme-robotics.com', per_page: 3 } },
  { method: 'POST', path: '/mobile-finder', request: { work_email: 'john.smith@acme-robotics.com' } },
  { method: 'POST', path: '/b2b-profile-email', request: { profile_url: 'https://www.linkedin.com/in/maria-de-la-cruz' } },
  { method: 'POST', path: '/b2b-profile', request: { work_email: 'john.smith@acme-robotics.com' } },
  { method: 'POST', path: '/profile-search', request: { profile_url: 'https://www.linkedin.com/in/john-smith-42' } },
  { method: 'POST', path: '/personal-email-finder', request: { profile_url: 'https://www.linkedin.com/in/maria-de-la-cruz' } },
  {
    method: 'POST',
    path: '/job-change-detector',
    request: { profile_url: 'https://www.linkedin.com/in/john-smith-42', company_domain: 'globex.example.com' },
  },
  {
    method: 'POST',
    path: '/people-search',
    request: {
      company_filters: { company_domain: ['acme-robotics.com'] },
      people_filters: { contact_job_function: ['Sales'] },
      per_page: 2,
    },
  },
  { method: 'POST', path: '/competitors-search', request: { company_domain: 'acme-robotics.com' } },
  { method: 'POST', path: '/technographics', request: { company_domain: 'acme-robotics.com' } },
  { method: 'GET', path: '/job-types' },
  { method: 'GET', path: '/job-country' },
];

/** The calls whose answers become the examples: ours, then each v1 path with the request of the operation it is. */
const CALLS: Call[] = [
  ...OURS,
  ...V1_ROUTES.map((route) => ({
    method: route.method,
    path: route.path,
    request: OURS.find((call) => call.path === OPERATIONS[route.operation].path)?.request,
  })),
];

/** Long lists (every country) shown by their first three entries. */
function shortened(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 3).map(shortened);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shortened(v)]));
  return value;
}

describe('the OpenAPI examples are real answers', () => {
  let sample: SampleWorld;
  before(async () => {
    sample = await startSampleWorld(undefined);
  });
  after(() => sample?.close());

  it('each example is what the operation answers to its example request', async () => {
    const { t } = sample;
    const key = await t.services.keys.create('examples', 1_000_000);
    const headers = { 'x-api-key': key.key };
    const recorded: Record<string, OperationExample> = {};
    for (const call of CALLS) {
      const res = call.method === 'GET' ? await t.get(call.path, headers) : await t.post(call.path, call.request ?? {}, headers);
      assert.equal(res.statusCode, 200, `${call.path}: ${res.body}`);
      recorded[`${call.method} ${call.path}`] = { ...(call.request ? { request: call.request } : {}), response: shortened(res.json()) };
    }
    if (RECORD) {
      writeFileSync(FILE, `${JSON.stringify(recorded, null, 2)}\n`);
      return;
    }
    assert.deepEqual(EXAMPLES, recorded, 'the answers changed: npm run openapi:examples records them again');
  });

  it('the served document shows them, as the example of each request and answer', async () => {
    type Media = { content: Record<string, { example?: unknown }> };
    const doc = (await sample.t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { requestBody?: Media; responses: Record<string, Media> }>>;
    }>();
    const funding = doc.paths['/company-funding'].post;
    assert.deepEqual(funding.requestBody!.content['application/json'].example, { company_domain: 'acme-robotics.com' });
    assert.equal((funding.responses['200'].content['application/json'].example as { credits_consumed: number }).credits_consumed, 4);
    const v1 = doc.paths['/v1/people/mobile-finder'].post;
    assert.equal((v1.responses['200'].content['application/json'].example as { mobile_number: string }).mobile_number, '+14155550199');
  });
});
