// A key whose balance is below the smallest non-zero charge of an endpoint is refused 402 before
// the endpoint's engine runs, on every charged endpoint; a replay of a paid answer stays free.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { PRICES } from '../../src/billing/prices.ts';

const CHARGED: [string, object, number][] = [
  ['/email-validate', { email: 'jane@acme.test' }, PRICES.emailValidationCharged],
  ['/company-funding', { company_domain: 'acme.test' }, PRICES.companyFundingFound],
  ['/jobs-finder', { job_title: 'engineer' }, PRICES.jobsFinderPerJob],
  ['/role-finder', { job_title: 'CEO', company_domain: 'acme.test' }, PRICES.roleFinderFound],
  ['/mobile-finder', { work_email: 'jane@acme.test' }, PRICES.mobileFinderFound],
  ['/b2b-profile-email', { profile_url: 'https://www.linkedin.com/in/jane-doe' }, PRICES.profileEmailFound],
];

describe('pay before work', () => {
  let world: MailWorld;
  let t: TestApp;
  before(async () => {
    world = await startMailWorld();
    await world.domain('acme.test', { acceptAll: true });
    await world.domain('paid.test', { mailboxes: ['x'] });
    t = await startTestApp(undefined, { credits: 0, deps: { email: { ...world.emailConfig, recheckPollMs: 60_000 } } });
  });
  after(async () => {
    await t.close();
    await world.close();
  });

  for (const [path, body, minimum] of CHARGED) {
    it(`${path}: 402 below ${minimum / 1000} credits, with no engine work`, async () => {
      const queries = world.dns.queries.length;
      for (const units of [0, minimum - 10]) {
        const key = await t.services.keys.create('poor', units);
        const res = await t.post(path, body, { 'x-api-key': key.key });
        assert.equal(res.statusCode, 402, res.body);
        assert.equal(res.json().error, 'insufficient_credits');
        assert.match(res.json().message, new RegExp(`costs at least ${minimum / 1000} credits`));
        assert.equal(await t.services.billing.balance(key.id), units, 'nothing charged');
      }
      assert.equal(world.dns.queries.length, queries, 'no DNS lookup made');
      const enough = await t.services.keys.create('enough', minimum);
      assert.notEqual((await t.post(path, body, { 'x-api-key': enough.key })).statusCode, 402);
    });
  }

  it('a replay of a paid answer is served even once the balance is spent', async () => {
    const key = await t.services.keys.create('exact', PRICES.emailValidationCharged);
    const headers = { 'x-api-key': key.key, 'idempotency-key': 'spent-1' };
    const first = await t.post('/email-validate', { email: 'x@paid.test' }, headers);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().email_status, 'valid');
    assert.equal(await t.services.billing.balance(key.id), 0, 'the balance is spent');
    const replay = await t.post('/email-validate', { email: 'x@paid.test' }, headers);
    assert.equal(replay.statusCode, 200);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.body, first.body);
  });
});
