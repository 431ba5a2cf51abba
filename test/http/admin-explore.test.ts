// The console's Explore calls: the price before a call (GET /admin/explore, POST /admin/explore/quote)
// and API calls made with a console session in place of the key — charged to the session's key (a
// customer) or to the key the operator names, with the session's CSRF token, never a cookie alone.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/platform/config.ts';
import { dbTargets } from '../support/db.ts';
import { startSampleWorld, SAMPLE_POSTED_AFTER, type SampleWorld } from '../support/sample-world.ts';

const ADMIN_TOKEN = 'explore-test-admin-token-0123456789';

interface Session {
  cookie: string;
  csrf: string;
}

for (const target of dbTargets) {
  describe(`Explore calls from the console (${target.name})`, { skip: target.skip }, () => {
    let sample: SampleWorld;
    let customer: Session;
    let operator: Session;
    let ip = 0;

    const signIn = async (token: string): Promise<Session> => {
      const res = await sample.t.inject({
        method: 'POST',
        url: '/admin/session',
        remoteAddress: `10.1.0.${++ip}`,
        headers: { 'content-type': 'application/json' },
        payload: { token },
      });
      assert.equal(res.statusCode, 200, res.body);
      return { cookie: String(res.headers['set-cookie']).split(';')[0], csrf: res.json().csrf_token };
    };
    /** A call with the session's cookie; its CSRF token unless `csrf` says otherwise. */
    const call = (s: Session, url: string, body: unknown, headers: Record<string, string> = {}, csrf: string | null = s.csrf) =>
      sample.t.inject({
        method: 'POST',
        url,
        headers: { cookie: s.cookie, 'content-type': 'application/json', ...(csrf === null ? {} : { 'x-csrf-token': csrf }), ...headers },
        payload: JSON.stringify(body),
      });
    const balance = async (id: number) => Number((await sample.t.services.keys.get(id))!.balance);
    const charges = (id: number) =>
      sample.t.database.db
        .selectFrom('credit_ledger')
        .select(['amount', 'operation'])
        .where('key_id', '=', id)
        .where('kind', '=', 'charge')
        .orderBy('id')
        .execute();
    const errorOf = (res: LightMyRequestResponse) => [res.statusCode, res.json().error];

    before(async () => {
      sample = await startSampleWorld(target, 100, { config: loadConfig({ CRAWL_ENABLED: '0', ADMIN_TOKEN }) });
      customer = await signIn(sample.t.key);
      operator = await signIn(ADMIN_TOKEN);
    });
    after(() => sample?.close());

    it('lists the operations with their fields and the most each call can cost', async () => {
      const res = await sample.t.inject({ method: 'GET', url: '/admin/explore', headers: { cookie: customer.cookie } });
      assert.equal(res.statusCode, 200, res.body);
      const { operations, call_as_header } = res.json();
      assert.equal(call_as_header, 'x-leadbase-call-as');
      const byId = Object.fromEntries(operations.map((op: { id: string }) => [op.id, op]));
      assert.deepEqual(byId['company-search'].price, { most_credits: 1, rule: '1 credits when the company is found, else 0' });
      assert.equal(byId['company-search'].path, '/company-search');
      assert.ok(byId['company-search'].body.properties.company_domain);
      assert.deepEqual(byId['jobs-finder'].price, { most_credits: 20, items: 20, each_credits: 1, rule: '1 credit per returned listing' });
      assert.equal(byId['people-search'].price.most_credits, 1.25);
      assert.equal(byId['employee-finder'].price.most_credits, 1);
    });

    it('quotes a call from its body, as the API reads it', async () => {
      const quote = (operation: string, body: unknown) => call(customer, '/admin/explore/quote', { operation, body });
      assert.deepEqual((await quote('jobs-finder', { per_page: 5 })).json(), {
        operation: 'jobs-finder',
        most_credits: 5,
        items: 5,
        each_credits: 1,
        rule: '1 credit per returned listing',
      });
      assert.equal((await quote('people-search', { per_page: 100 })).json().most_credits, 5);
      assert.equal((await quote('employee-finder', { limit: 200 })).json().most_credits, 10);
      assert.equal((await quote('mobile-finder', {})).json().most_credits, 5);
      const disagreeing = await quote('employee-finder', { limit: 10, per_page: 20 });
      assert.deepEqual(errorOf(disagreeing), [400, 'invalid_request']);
      assert.deepEqual(errorOf(await quote('email-validate-bulk', {})), [400, 'invalid_request']);
      assert.deepEqual(errorOf(await quote('jobs-finder', [1])), [400, 'invalid_request']);
    });

    it("charges a customer's console call to its key, exactly as the API key's own call", async () => {
      const before = await balance(sample.t.keyId);
      const res = await call(customer, '/company-search', { company_domain: 'acme-robotics.com' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().company_name, 'Acme Robotics, Inc.');
      assert.equal(res.json().credits_consumed, 1);
      assert.equal(before - (await balance(sample.t.keyId)), 1000);
      const direct = await sample.t.post('/company-search', { company_domain: 'acme-robotics.com' });
      assert.deepEqual(res.json(), direct.json());

      // A search: at most per_page credits, charged per listing returned.
      const jobsBefore = await balance(sample.t.keyId);
      const jobs = await call(customer, '/jobs-finder', { company_name: 'Acme Robotics', posted_after: SAMPLE_POSTED_AFTER, per_page: 5 });
      assert.equal(jobs.statusCode, 200, jobs.body);
      assert.equal(jobs.json().results.length, 1);
      assert.equal(jobs.json().credits_consumed, 1);
      assert.equal(jobsBefore - (await balance(sample.t.keyId)), 1000);
      const ledger = await charges(sample.t.keyId);
      assert.deepEqual(
        ledger.slice(0, 2).map((r) => [Number(r.amount), r.operation]),
        [
          [1000, 'company-search'],
          [1000, 'company-search'],
        ],
      );
      assert.deepEqual([Number(ledger.at(-1)!.amount), ledger.at(-1)!.operation], [1000, 'jobs-finder']);
    });

    it('never takes a cookie alone, a wrong CSRF token, or a customer calling as another key', async () => {
      const other = await sample.t.services.keys.create('other', 50_000);
      const body = { company_domain: 'acme-robotics.com' };
      assert.deepEqual(errorOf(await call(customer, '/company-search', body, {}, null)), [401, 'missing_api_key']);
      assert.deepEqual(errorOf(await call(customer, '/company-search', body, {}, 'forged')), [403, 'csrf_token_invalid']);
      assert.deepEqual(errorOf(await call(customer, '/company-search', body, { 'x-leadbase-call-as': String(other.id) })), [
        403,
        'forbidden',
      ]);
      assert.deepEqual(errorOf(await call(customer, '/company-search', body, { 'x-leadbase-call-as': 'x' })), [400, 'invalid_request']);
      assert.equal(await balance(other.id), 50_000);
      // Its own id is allowed.
      const own = await call(customer, '/company-search', body, { 'x-leadbase-call-as': String(sample.t.keyId) });
      assert.equal(own.statusCode, 200, own.body);
      // A revoked key's session calls nothing.
      const gone = await sample.t.services.keys.create('gone', 50_000);
      const goneSession = await signIn(gone.key);
      await sample.t.services.keys.revoke(gone.id);
      assert.deepEqual(errorOf(await call(goneSession, '/company-search', body)), [401, 'session_expired']);
    });

    it('lets the operator call as a key it names, and writes it to the audit log', async () => {
      const named = await sample.t.services.keys.create('named', 10_000);
      const body = { company_domain: 'acme-robotics.com' };
      assert.deepEqual(errorOf(await call(operator, '/company-search', body)), [400, 'invalid_request']);
      assert.deepEqual(errorOf(await call(operator, '/company-search', body, { 'x-leadbase-call-as': '999999' })), [404, 'not_found']);
      const res = await call(operator, '/company-search', body, { 'x-leadbase-call-as': String(named.id) });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(await balance(named.id), 9_000);
      const audit = await sample.t.inject({ method: 'GET', url: '/admin/audit', headers: { cookie: operator.cookie } });
      const entry = audit.json().entries.find((e: { action: string }) => e.action === 'POST /company-search');
      assert.ok(entry, audit.body);
      assert.equal(entry.actor, 'operator (console)');
      assert.equal(entry.target, String(named.id));
    });
  });
}
