// Issue 40: with DNS sinkholed (every name NXDOMAIN), jane@gmail.com was answered invalid and charged
// 0.05. An NXDOMAIN is now believed only from a resolver that finds the canary name (EMAIL_DNS_CANARY,
// asked only after an NXDOMAIN, its answer kept briefly); from one that denies it too the answer is
// unknown, free, and /readyz says the DNS is down. The fake DNS server is the resolver: the mail
// world's holds the canary (a healthy resolver), a bare one answers NXDOMAIN to everything.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { startFakeDns, type FakeDns } from '../support/fake-dns.ts';
import { until } from '../support/until.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { DEFAULT_DNS_CANARY } from '../../src/email/config.ts';
import { DNS_FAILING_MESSAGE } from '../../src/email/messages.ts';
import type { BulkJobView } from '../../src/email/bulk.ts';

const balance = async (t: TestApp) => (await t.get('/credits')).json<{ credits: number }>().credits;

describe('a resolver that denies every name (sinkholed)', () => {
  let dns: FakeDns;
  let t: TestApp;
  before(async () => {
    dns = await startFakeDns();
    t = await startTestApp(undefined, {
      credits: 10,
      deps: {
        // The bulk job answers at once instead of asking again later (BULK_GREYLIST_DEADLINE_MS).
        config: loadConfig({ CRAWL_ENABLED: '0', BULK_GREYLIST_DEADLINE_MS: '0' }),
        email: { dnsServers: [dns.address], dnsTimeoutMs: 500, recheckPollMs: 60_000 },
      },
    });
  });
  after(async () => {
    await t?.close();
    await dns?.close();
  });

  it('answers unknown with the reason in its message, charges nothing, and /readyz shows the DNS degraded', async () => {
    const before = await balance(t);
    const [jane, bob] = await Promise.all([
      t.post('/email-validate', { email: 'jane@gmail.com' }),
      t.post('/email-validate', { email: 'bob@acme.com' }),
    ]);
    for (const res of [jane, bob]) {
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json<{ email_status: string; message: string; credits_consumed: number }>();
      assert.equal(body.email_status, 'unknown');
      assert.equal(body.message, DNS_FAILING_MESSAGE);
      assert.equal(body.credits_consumed, 0);
    }
    assert.equal(await balance(t), before, 'nothing charged');
    assert.equal(
      dns.queries.filter((q) => q === `MX ${DEFAULT_DNS_CANARY}`).length,
      1,
      'the canary is asked once for both (its answer is kept)',
    );
    const detail = await t.services.email.validateDetailed({ email: 'jane@gmail.com' });
    assert.equal(detail.reason, 'dns_resolver_failing');

    const ready = await t.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200, 'served, not unavailable: validations still answer');
    assert.deepEqual([ready.json().status, ready.json().checks.dns], ['degraded', 'unavailable']);
  });

  it('bulk validation: unknown and free too', async () => {
    const submitted = await t.post('/email-validate/bulk', { emails: ['ann@gmail.com', 'joe@acme.com'] });
    assert.equal(submitted.statusCode, 202, submitted.body);
    const id = submitted.json<BulkJobView>().id;
    await until(async () => (await t.get(`/email-validate/bulk/${id}`)).json<BulkJobView>().status === 'done', 30_000, 50);
    const job = (await t.get(`/email-validate/bulk/${id}`)).json<BulkJobView>();
    assert.equal(job.credits_consumed, 0);
    const rows = (await t.get(`/email-validate/bulk/${id}/results`)).body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { email_status: string; message: string; credits_consumed: number });
    assert.deepEqual(
      rows.map((r) => [r.email_status, r.message, r.credits_consumed]),
      [
        ['unknown', DNS_FAILING_MESSAGE, 0],
        ['unknown', DNS_FAILING_MESSAGE, 0],
      ],
    );
  });

  it('the email finder: not found, free, saying the resolver failed', async () => {
    const res = await t.post('/email-finder', { first_name: 'Jane', last_name: 'Doe', domain: 'acme.com' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json<{ status: string; message: string; credits_consumed: number }>();
    assert.equal(body.status, 'not_found');
    assert.equal(body.credits_consumed, 0);
    assert.match(body.message, /DNS resolver is failing/);
  });

  it('the resolver repaired: the canary is asked again once its answer is stale, and NXDOMAIN is a verdict again', async () => {
    dns.a(DEFAULT_DNS_CANARY, ['192.0.2.1']);
    // Still failing within the canary answer's lifetime (no query per validation)…
    assert.equal((await t.services.email.validateDetailed({ email: 'x@gone.test' })).reason, 'dns_resolver_failing');
    // …and believed again after it: clearCaches forgets it as a process restart would.
    t.services.email.clearCaches();
    const res = await t.post('/email-validate', { email: 'x@gone.test' });
    assert.deepEqual([res.json().email_status, res.json().credits_consumed], ['invalid', 0.05]);
    const ready = await t.inject({ method: 'GET', url: '/readyz' });
    assert.deepEqual([ready.json().status, ready.json().checks.dns], ['ready', 'ok']);
  });
});

describe('a resolver that finds the canary (healthy)', () => {
  let world: MailWorld;
  let t: TestApp;
  before(async () => {
    world = await startMailWorld();
    await world.domain('acme.test', { mailboxes: ['jane'] });
    t = await startTestApp(undefined, { credits: 10, deps: { email: { ...world.emailConfig, recheckPollMs: 60_000 } } });
  });
  after(async () => {
    await t?.close();
    await world?.close();
  });

  it("keeps a domain's NXDOMAIN invalid (charged as any invalid); /readyz ready", async () => {
    const res = await t.post('/email-validate', { email: 'jane@no-such-domain.test' });
    const body = res.json<{ email_status: string; message: string; credits_consumed: number }>();
    assert.deepEqual([body.email_status, body.message, body.credits_consumed], ['invalid', 'Email is invalid.', 0.05]);
    assert.equal(world.dns.queries.filter((q) => q === `MX ${DEFAULT_DNS_CANARY}`).length, 1, 'asked because of the NXDOMAIN');
    assert.equal((await t.post('/email-validate', { email: 'jane@acme.test' })).json().email_status, 'valid');
    const ready = await t.inject({ method: 'GET', url: '/readyz' });
    assert.deepEqual([ready.json().status, ready.json().checks.dns], ['ready', 'ok']);
  });

  it('a domain that resolves never asks the canary', async () => {
    const asked = world.dns.queries.filter((q) => q.endsWith(` ${DEFAULT_DNS_CANARY}`)).length;
    await world.domain('other.test', { mailboxes: ['ann'] });
    assert.equal((await t.post('/email-validate', { email: 'ann@other.test' })).json().email_status, 'valid');
    assert.equal(world.dns.queries.filter((q) => q.endsWith(` ${DEFAULT_DNS_CANARY}`)).length, asked);
  });
});
