// The price of a bulk product's list before the console sends it to POST /bulk
// (POST /admin/keys/:id/bulk/preview, docs/console.md "Lists"): its rows read as POST /bulk reads a
// csv, at most every row found at the product's price rule; a customer prices only on its own key.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/platform/config.ts';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const ADMIN_TOKEN = 'lists-bulk-admin-token-0123456789';

interface Session {
  cookie: string;
  csrf: string;
}

for (const target of dbTargets) {
  describe(`bulk list preview (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let customer: Session;
    let operator: Session;
    let ip = 0;

    const signIn = async (token: string): Promise<Session> => {
      const res = await t.inject({
        method: 'POST',
        url: '/admin/session',
        remoteAddress: `10.2.0.${++ip}`,
        headers: { 'content-type': 'application/json' },
        payload: { token },
      });
      assert.equal(res.statusCode, 200, res.body);
      return { cookie: String(res.headers['set-cookie']).split(';')[0], csrf: res.json().csrf_token };
    };
    const preview = (s: Session, keyId: number, body: unknown, csrf: string | null = s.csrf) =>
      t.inject({
        method: 'POST',
        url: `/admin/keys/${keyId}/bulk/preview`,
        headers: { cookie: s.cookie, 'content-type': 'application/json', ...(csrf === null ? {} : { 'x-csrf-token': csrf }) },
        payload: JSON.stringify(body),
      });

    before(async () => {
      t = await startTestApp(target, { deps: { config: loadConfig({ CRAWL_ENABLED: '0', ADMIN_TOKEN }) } });
      customer = await signIn(t.key);
      operator = await signIn(ADMIN_TOKEN);
    });
    after(() => t?.close());

    it('reads the rows and prices each product at its rule, every row found', async () => {
      const csv = 'company_domain,note\nacme.example,a\n\nbeta.example,b\ngamma.example,c\n';
      const res = await preview(operator, t.keyId, { product: 'company_search', csv });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.operation, 'company-search');
      assert.deepEqual(body.header, ['company_domain', 'note']);
      assert.equal(body.rows, 3);
      assert.deepEqual(body.sample[0], ['acme.example', 'a']);
      assert.ok(body.fields.includes('company_domain'));
      assert.equal(body.price_per_row, 1);
      assert.equal(body.max_credits, 3);

      const perRow: Record<string, number> = { email_finder: 1, mobile_finder: 5, profile_search: 1, email_validation: 0.05 };
      for (const [product, price] of Object.entries(perRow)) {
        const r = (await preview(customer, t.keyId, { product, csv: 'x\n1\n2\n' })).json();
        assert.equal(r.price_per_row, price, product);
        assert.equal(r.max_credits, price * 2, product);
      }
      // Nothing is queued or charged by a preview.
      assert.deepEqual(await t.services.bulkJobs.list(t.keyId), []);
    });

    it('refuses a bad product, an empty or unreadable list, a missing CSRF token and another key', async () => {
      const errorOf = async (s: Session, keyId: number, body: unknown, csrf?: string | null) => {
        const res = await preview(s, keyId, body, csrf === undefined ? s.csrf : csrf);
        return [res.statusCode, res.json().error];
      };
      assert.deepEqual(await errorOf(operator, t.keyId, { product: 'nope', csv: 'a\n1' }), [400, 'invalid_request']);
      assert.deepEqual(await errorOf(operator, t.keyId, { product: 'company_search', csv: ' ' }), [400, 'invalid_request']);
      assert.deepEqual(await errorOf(operator, t.keyId, { product: 'company_search', csv: 'a\n"open' }), [400, 'invalid_request']);
      assert.deepEqual(await errorOf(customer, t.keyId, { product: 'company_search', csv: 'a\n1' }, null), [403, 'csrf_token_invalid']);
      const other = await t.services.keys.create('other', 1000);
      assert.deepEqual(await errorOf(customer, other.id, { product: 'company_search', csv: 'a\n1' }), [404, 'not_found']);
      assert.equal((await preview(operator, other.id, { product: 'company_search', csv: 'a\n1' })).statusCode, 200);
    });
  });
}
