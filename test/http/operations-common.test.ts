// One suite every charged operation runs, read from the operation descriptors
// (src/operations/catalogue.ts): a new charged operation without a sample request here is a compile
// error, and once it has one it is held to the same rules as the others.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { OPERATIONS, PRICE_OF, type ChargedOperationId } from '../../src/operations/catalogue.ts';
import { V1_ROUTES } from '../../src/http/routes/v1/v1.ts';

/** A valid request of each charged operation, and a body with a wrong type in it. */
const SAMPLES: Record<ChargedOperationId, { body: Record<string, unknown>; wrongType: Record<string, unknown> }> = {
  'email-validate': { body: { email: 'jane@mail.test' }, wrongType: { email: 42 } },
  'email-finder': {
    body: { first_name: 'Jane', last_name: 'Doe', domain: 'mail.test' },
    wrongType: { first_name: 5, last_name: 'Doe', domain: 'mail.test' },
  },
  'company-funding': { body: { company_domain: 'acme.test' }, wrongType: { company_domain: ['acme.test'] } },
  'company-search': { body: { company_domain: 'acme.test' }, wrongType: { profile_url: 12 } },
  'employee-finder': { body: { company_name: 'Acme' }, wrongType: { per_page: 500 } },
  'jobs-finder': { body: { job_title: 'engineer' }, wrongType: { per_page: 'twenty' } },
  'role-finder': { body: { job_title: 'CEO', company_domain: 'acme.test' }, wrongType: { job_title: true } },
  'mobile-finder': { body: { work_email: 'jane@mail.test' }, wrongType: { work_email: {} } },
  'b2b-profile-email': { body: { profile_url: 'https://www.linkedin.com/in/jane-doe' }, wrongType: { profile_url: 7 } },
  'b2b-profile': { body: { work_email: 'jane@mail.test' }, wrongType: { work_email: 7 } },
  'profile-search': { body: { profile_url: 'https://www.linkedin.com/in/jane-doe' }, wrongType: { profile_url: [] } },
  'personal-email-finder': { body: { profile_url: 'jane-doe' }, wrongType: { profile_url: false } },
  'people-search': { body: { company_filters: { company_domain: ['acme.test'] } }, wrongType: { per_page: 'many' } },
  'competitors-search': { body: { company_domain: 'acme.test' }, wrongType: { limit: 'many' } },
  technographics: { body: { company_domain: 'acme.test' }, wrongType: { company_domain: 42 } },
  'job-change-detector': {
    body: { profile_url: 'https://www.linkedin.com/in/jane-doe', company_domain: 'acme.test' },
    wrongType: { company_domain: 3, profile_url: 'jane-doe' },
  },
};

/** What the descriptor's price rule says the answer costs (millicredits). */
function expectedCost(id: ChargedOperationId, answer: Record<string, unknown>): number {
  switch (id) {
    case 'email-validate':
      return PRICE_OF[id](answer as { email_status: 'valid' });
    case 'jobs-finder':
      return PRICE_OF[id](answer as { results: unknown[] });
    case 'email-finder':
      return PRICE_OF[id](answer as { status: string });
    case 'employee-finder':
    case 'people-search':
      return PRICE_OF[id](answer as { data: unknown[] });
    default:
      return PRICE_OF[id](answer.message === OPERATIONS[id].messages.found);
  }
}

const CHARGED = Object.keys(SAMPLES) as ChargedOperationId[];

/** Every path of a charged operation: ours, and the LeadMagic v1 path onto it (the same rules hold). */
const PATHS = [
  ...CHARGED.map((id) => ({
    id,
    path: OPERATIONS[id].path,
    label: `${OPERATIONS[id].methods.join('|')} ${OPERATIONS[id].path}`,
  })),
  ...V1_ROUTES.filter((r) => r.answer).map((r) => ({
    id: r.operation as ChargedOperationId,
    path: r.path,
    label: `POST ${r.path}`,
  })),
];

describe('rules every charged operation follows', () => {
  let world: MailWorld;
  let t: TestApp;
  before(async () => {
    world = await startMailWorld();
    await world.domain('mail.test', { mailboxes: ['jane'] });
    t = await startTestApp(undefined, {
      credits: 1000,
      rateLimits: Object.fromEntries(CHARGED.map((id) => [id, 3])),
      deps: { email: { ...world.emailConfig, recheckPollMs: 60_000 } },
    });
  });
  after(async () => {
    await t.close();
    await world.close();
  });

  for (const { id, path, label } of PATHS) {
    const op = { ...OPERATIONS[id], path };
    const sample = SAMPLES[id];
    describe(label, () => {
      it('401 without a key and with a wrong key, in the envelope', async () => {
        const none = await t.inject({
          method: 'POST',
          url: op.path,
          headers: { 'content-type': 'application/json' },
          payload: sample.body,
        });
        assert.equal(none.statusCode, 401);
        assert.equal(none.json<{ error: string }>().error, 'missing_api_key');
        const wrong = await t.post(op.path, sample.body, { 'x-api-key': 'lb_not_a_key' });
        assert.equal(wrong.statusCode, 401);
        assert.equal(wrong.json<{ error: string }>().error, 'invalid_api_key');
      });

      it('400 invalid_request in the envelope for a wrong type', async () => {
        const res = await t.post(op.path, sample.wrongType);
        assert.equal(res.statusCode, 400);
        const body = res.json<{ error: string; message: string }>();
        assert.equal(body.error, 'invalid_request');
        assert.match(body.message, new RegExp(Object.keys(sample.wrongType)[0]));
      });

      it('402 before any engine work below the smallest charge', async () => {
        const poor = await t.services.keys.create('poor', op.charge.minimum - 1);
        const queries = world.dns.queries.length;
        const res = await t.post(op.path, sample.body, { 'x-api-key': poor.key });
        assert.equal(res.statusCode, 402);
        assert.equal(res.json<{ error: string }>().error, 'insufficient_credits');
        assert.equal(world.dns.queries.length, queries, 'no DNS lookup');
      });

      it('charges what the price rule says, and an idempotent retry replays without a second charge', async () => {
        const key = await t.services.keys.create('idem', 100_000);
        const headers = { 'x-api-key': key.key, 'idempotency-key': `common-${path}` };
        const first = await t.post(op.path, sample.body, headers);
        assert.equal(first.statusCode, 200, first.body);
        const answer = first.json<Record<string, unknown> & { credits_consumed: number }>();
        const cost = expectedCost(id, answer);
        assert.equal(Math.round(answer.credits_consumed * 1000), cost, 'credits_consumed follows the price rule');
        assert.equal(first.headers['x-credits-cost'], String(cost / 1000));
        const replay = await t.post(op.path, sample.body, headers);
        assert.equal(replay.headers['idempotent-replayed'], 'true');
        assert.equal(replay.body, first.body);
        assert.equal(await t.services.billing.balance(key.id), 100_000 - cost, 'charged once');
      });

      it(`429 with Retry-After and rate-limit headers past the per-minute limit`, async () => {
        const key = await t.services.keys.create('limited', 100_000);
        const answers = [];
        for (let i = 0; i < 4; i++) answers.push(await t.post(op.path, sample.body, { 'x-api-key': key.key }));
        const last = answers[3];
        assert.equal(last.statusCode, 429);
        assert.equal(last.json<{ error: string }>().error, 'rate_limited');
        assert.ok(Number(last.headers['retry-after']) > 0);
        for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-ratelimit-limit'])
          assert.ok(last.headers[header] !== undefined, header);
        assert.equal(last.headers['ratelimit-limit'], '3');
      });
    });
  }
});
