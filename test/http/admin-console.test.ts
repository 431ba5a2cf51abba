// The admin API behind the console: sessions (cookie, CSRF, one refusal for every wrong token,
// rate-limited sign-in), what a customer's session may reach, keys, usage, the ledger and the audit log.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/platform/config.ts';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { registerChargeRoute } from '../support/charge-route.ts';
import { setSpendCap } from '../../src/billing/caps.ts';

const ADMIN_TOKEN = 'console-test-admin-token-0123456789';

interface Session {
  cookie: string;
  csrf: string;
}

function sessionOf(res: LightMyRequestResponse): Session {
  const set = String(res.headers['set-cookie']);
  assert.match(set, /HttpOnly/);
  assert.match(set, /SameSite=Strict/);
  return { cookie: set.split(';')[0], csrf: res.json().csrf_token };
}

for (const target of dbTargets) {
  describe(`admin API for the console (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let operator: Session;
    let ip = 0;
    // Each sign-in from its own address, so the rate limit is tested on its own.
    const signIn = (token: unknown, from = `10.0.0.${++ip}`) =>
      t.inject({
        method: 'POST',
        url: '/admin/session',
        remoteAddress: from,
        headers: { 'content-type': 'application/json' },
        payload: { token },
      });
    const call = (s: Session | undefined, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, csrf = true) =>
      t.inject({
        method,
        url,
        headers: {
          ...(s ? { cookie: s.cookie } : {}),
          ...(s && csrf && method !== 'GET' ? { 'x-csrf-token': s.csrf } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });

    before(async () => {
      t = await startTestApp(target, {
        credits: 5,
        deps: { config: loadConfig({ CRAWL_ENABLED: '0', ADMIN_TOKEN }) },
        routes: registerChargeRoute,
      });
      const res = await signIn(ADMIN_TOKEN);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().role, 'operator');
      operator = sessionOf(res);
    });
    after(() => t.close());

    it('refuses every wrong token with the same answer', async () => {
      const revoked = await t.services.keys.create('old', 0);
      await t.services.keys.revoke(revoked.id);
      const answers = [];
      for (const token of [`${ADMIN_TOKEN}x`, 'lb_nothing', revoked.key, 'x'.repeat(500)]) {
        const res = await signIn(token);
        answers.push([res.statusCode, res.body, res.headers['set-cookie']]);
      }
      for (const answer of answers) assert.deepEqual(answer, answers[0]);
      assert.equal(answers[0][0], 401);
      assert.equal(JSON.parse(answers[0][1] as string).error, 'sign_in_refused');
    });

    it('rate-limits sign-in attempts per address', async () => {
      const statuses = [];
      for (let i = 0; i < 12; i++) statuses.push((await signIn('wrong', '10.9.9.9')).statusCode);
      assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
      assert.equal(statuses[11], 429);
    });

    it('needs the CSRF token for every change made with a session', async () => {
      const res = await call(operator, 'POST', '/admin/keys', { name: 'no csrf' }, false);
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().error, 'csrf_token_invalid');
      const forged = await t.inject({
        method: 'POST',
        url: '/admin/keys',
        headers: { cookie: operator.cookie, 'x-csrf-token': 'guess', 'content-type': 'application/json' },
        payload: '{"name":"x"}',
      });
      assert.equal(forged.statusCode, 403);
    });

    it('lets the operator create a key, grant credits and read its usage, ledger and the audit log', async () => {
      const created = await call(operator, 'POST', '/admin/keys', { name: 'acme', credits: '10' });
      assert.equal(created.statusCode, 201, created.body);
      const { id, key } = created.json();
      assert.match(key, /^lb_/);
      // The new key works on the API.
      const credits = await t.inject({ method: 'GET', url: '/credits', headers: { 'x-api-key': key } });
      assert.equal(credits.statusCode, 200, credits.body);
      assert.equal(credits.json().credits, 10);

      const granted = await call(operator, 'POST', `/admin/keys/${id}/credits`, { credits: '2.5', note: 'trial extension' });
      assert.equal(granted.statusCode, 200, granted.body);
      assert.equal(granted.json().credits, 12.5);
      await t.services.billing.settle({ keyId: id, operation: 'email-validation', cost: 1000, requestId: 'r1' });
      await t.services.billing.settle({ keyId: id, operation: 'email-validation', cost: 1000, requestId: 'r2' });
      await t.services.billing.settle({ keyId: id, operation: 'company-search', cost: 500, requestId: 'r3' });

      const usage = (await call(operator, 'GET', `/admin/keys/${id}/usage?days=7`)).json();
      const today = new Date().toISOString().slice(0, 10);
      assert.deepEqual(
        usage.usage.map((r: { day: string; operation: string; calls: number; credits: number }) => [
          r.day,
          r.operation,
          r.calls,
          r.credits,
        ]),
        [
          [today, 'company-search', 1, 0.5],
          [today, 'email-validation', 2, 2],
        ],
      );
      assert.equal((await call(operator, 'GET', `/admin/keys/${id}/usage?days=8`)).statusCode, 400);

      const csv = await call(operator, 'GET', `/admin/keys/${id}/ledger?format=csv`);
      assert.equal(csv.statusCode, 200);
      assert.match(String(csv.headers['content-type']), /text\/csv/);
      const lines = csv.body.trim().split('\n');
      assert.equal(lines[0], 'id,at,kind,credits,operation,request_id,note');
      assert.equal(lines.length, 1 + 5);
      assert.ok(lines.some((line) => line.endsWith(',grant,2.5,,,trial extension')));

      const limit = await t.inject({
        method: 'PUT',
        url: `/admin/keys/${id}/limits`,
        headers: { cookie: operator.cookie, 'x-csrf-token': operator.csrf, 'content-type': 'application/json' },
        payload: JSON.stringify({ operation: 'email-validate', per_minute: 7 }),
      });
      assert.equal(limit.statusCode, 200, limit.body);
      const limits = (await call(operator, 'GET', `/admin/keys/${id}/limits`)).json();
      assert.equal(limits.own['email-validate'], 7);
      assert.ok(limits.defaults['email-validate'] > 0);
      const first = (await call(operator, 'GET', `/admin/keys/${id}/webhook-secret`)).json().webhook_secret;
      const rotated = (await call(operator, 'POST', `/admin/keys/${id}/webhook-secret`)).json().webhook_secret;
      assert.match(first, /^whsec_/);
      assert.notEqual(rotated, first);

      const revoked = await call(operator, 'POST', `/admin/keys/${id}/revoke`);
      assert.equal(revoked.statusCode, 200);
      assert.ok(revoked.json().revoked_at);

      const audit = (await call(operator, 'GET', '/admin/audit')).json().entries as {
        action: string;
        actor: string;
        target: string | null;
      }[];
      const actions = audit.map((e) => `${e.action} ${e.target ?? ''}`.trim());
      assert.ok(actions.includes(`POST /admin/keys/:id/revoke ${id}`), actions.join('; '));
      assert.ok(actions.includes(`POST /admin/keys/:id/credits ${id}`));
      assert.ok(actions.includes('POST /admin/keys'));
      assert.ok(actions.includes('sign in'));
      assert.ok(audit.every((e) => e.actor.startsWith('operator')));
      // Secrets are never written to the log.
      assert.ok(!JSON.stringify(audit).includes(key));
    });

    it('keeps a customer to its own key, by the console and by direct requests', async () => {
      const other = await t.services.keys.create('other customer', 1000);
      const res = await signIn(t.key);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual([res.json().role, res.json().key_id], ['customer', t.keyId]);
      const customer = sessionOf(res);

      const keys = (await call(customer, 'GET', '/admin/keys')).json().keys as { id: number }[];
      assert.deepEqual(
        keys.map((k) => k.id),
        [t.keyId],
      );
      assert.equal((await call(customer, 'GET', `/admin/keys/${t.keyId}/usage?days=30`)).statusCode, 200);
      for (const url of [
        `/admin/keys/${other.id}`,
        `/admin/keys/${other.id}/usage?days=7`,
        `/admin/keys/${other.id}/ledger?format=csv`,
        `/admin/keys/${other.id}/lists`,
      ])
        assert.equal((await call(customer, 'GET', url)).statusCode, 404, url);
      for (const [method, url] of [
        ['GET', '/admin/status'],
        ['GET', '/admin/sources'],
        ['GET', '/admin/audit'],
        ['POST', '/admin/keys'],
        ['POST', `/admin/keys/${other.id}/revoke`],
        ['POST', `/admin/keys/${t.keyId}/credits`],
        ['POST', '/admin/sources/1/pause'],
        ['GET', `/admin/keys/${t.keyId}/webhook-secret`],
      ] as const) {
        const answer = await call(customer, method, url, method === 'POST' ? { name: 'x', credits: '100' } : undefined);
        assert.equal(answer.statusCode, 403, `${method} ${url}: ${answer.body}`);
        assert.equal(answer.json().error, 'forbidden');
      }
      // Nor may it run a list on another key.
      const list = await call(customer, 'POST', `/admin/keys/${other.id}/lists`, { csv: 'email\na@b.test' });
      assert.equal(list.statusCode, 404);
      // An API key is not an admin token.
      const direct = await t.inject({ method: 'GET', url: '/admin/status', headers: { authorization: `Bearer ${t.key}` } });
      assert.equal(direct.statusCode, 401);
      // A revoked key's session ends.
      await t.services.keys.revoke(t.keyId);
      assert.equal((await call(customer, 'GET', '/admin/keys')).statusCode, 401);
    });

    it('enforces a daily spend cap in the charge: 402 with a clear message, nothing charged', async () => {
      const capped = await t.services.keys.create('capped', 10_000);
      const set = await call(operator, 'POST', `/admin/keys/${capped.id}/spend-cap`, { period: 'day', cap: '1' });
      assert.equal(set.statusCode, 404, 'PUT, not POST');
      const put = await t.inject({
        method: 'PUT',
        url: `/admin/keys/${capped.id}/spend-cap`,
        headers: { cookie: operator.cookie, 'x-csrf-token': operator.csrf, 'content-type': 'application/json' },
        payload: JSON.stringify({ period: 'day', cap: '1', alert_at: '0.5' }),
      });
      assert.equal(put.statusCode, 200, put.body);
      const charge = (cost: number) =>
        t.inject({
          method: 'POST',
          url: '/test/charge',
          headers: { 'x-api-key': capped.key, 'content-type': 'application/json' },
          payload: JSON.stringify({ cost }),
        });
      assert.equal((await charge(600)).statusCode, 200);
      const state = (await call(operator, 'GET', `/admin/keys/${capped.id}/spend-cap`)).json().spend_cap;
      assert.deepEqual([state.spent, state.alert, state.reached], [0.6, true, false]);
      const refused = await charge(500);
      assert.equal(refused.statusCode, 402, refused.body);
      assert.equal(refused.json().error, 'spend_cap_reached');
      assert.match(refused.json().message, /at most 1 credits per UTC day; 0\.6 are spent and this call costs 0\.5/);
      assert.equal((await t.services.keys.get(capped.id))!.balance, 10_000 - 600, 'nothing charged');
      assert.equal(await t.services.billing.ledgerBalance(capped.id), 10_000 - 600);
      assert.equal((await charge(400)).statusCode, 200, 'up to the cap exactly');

      // Concurrent charges never pass the cap together: 20 at once of 0.1 under a cap of 1 → 10 served.
      const busy = await t.services.keys.create('busy', 10_000);
      await setSpendCap(t.services.db, busy.id, { period: 'month', capUnits: 1000, alertUnits: null });
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          t.inject({
            method: 'POST',
            url: '/test/charge',
            headers: { 'x-api-key': busy.key, 'content-type': 'application/json' },
            payload: JSON.stringify({ cost: 100 }),
          }),
        ),
      );
      assert.equal(answers.filter((a) => a.statusCode === 200).length, 10);
      assert.equal(answers.filter((a) => a.statusCode === 402).length, 10);
      assert.equal((await t.services.keys.get(busy.id))!.balance, 9_000);
      // Removed, the key spends again; a customer cannot change it.
      const removed = await t.inject({
        method: 'PUT',
        url: `/admin/keys/${capped.id}/spend-cap`,
        headers: { cookie: operator.cookie, 'x-csrf-token': operator.csrf, 'content-type': 'application/json' },
        payload: JSON.stringify({ cap: null }),
      });
      assert.equal(removed.statusCode, 200);
      assert.equal((await charge(500)).statusCode, 200);
    });

    it('shows the status: store counts, health, sources', async () => {
      const res = await call(operator, 'GET', '/admin/status');
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.empty, true);
      assert.equal(body.health.database, 'ok');
      assert.equal(body.stores.companies.total, 0);
      // The email prober's one outbound identity (the server's own address), not quarantined.
      assert.deepEqual(
        body.outbound_identities.map((i: { id: string; state: string }) => [i.id, i.state]),
        [['default', 'active']],
      );
      // This instance's traffic: 96 buckets of 15 minutes; the refusals of the tests above are in them.
      assert.equal(body.traffic.buckets.length, 96);
      const total = (field: string) => body.traffic.buckets.reduce((n: number, b: Record<string, number>) => n + b[field], 0);
      assert.ok(total('requests') > 20);
      assert.ok(total('client_errors') >= 10);
      const bearer = await t.inject({ method: 'GET', url: '/admin/status', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      assert.equal(bearer.statusCode, 200);
    });

    it('signs out by clearing the cookie', async () => {
      const res = await call(operator, 'DELETE', '/admin/session');
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['set-cookie']), /Max-Age=0/);
      assert.equal((await t.inject({ method: 'GET', url: '/admin/session' })).statusCode, 401);
    });
  });
}
