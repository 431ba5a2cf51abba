// POST /email-validate end to end: HTTP → auth → engine (local DNS + SMTP) → billing, on both databases.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';

/** The contract's fields, then our extensions (documented as such in the OpenAPI). */
const RESULT_FIELDS = [
  'email',
  'email_status',
  'credits_consumed',
  'message',
  'is_domain_catch_all',
  'mx_record',
  'mx_provider',
  'mx_security_gateway',
  'company_name',
  'company_industry',
  'company_size',
  'company_founded',
  'company_location',
  'company_prof_url',
  'company_prof_id',
  'company_social_a_url',
  'company_social_b_url',
  'company_type',
  'is_disposable',
  'is_role_account',
  'is_free_email',
  'did_you_mean',
  // The original API's names beside the neutral ones (docs/leadmagic-v1.md, "Field names").
  'company_linkedin_url',
  'company_linkedin_id',
  'company_facebook_url',
  'company_twitter_url',
].sort();

for (const target of dbTargets) {
  describe(`POST /email-validate (${target.name})`, { skip: target.skip }, () => {
    let world: MailWorld;
    let t: TestApp;

    before(async () => {
      world = await startMailWorld();
      await world.domain('initech.test', { mailboxes: ['peter.gibbons'] });
      await world.domain('anything.test', { acceptAll: true });
      world.dns.servfail('broken.test');
      t = await startTestApp(target, {
        credits: 1,
        deps: { email: { ...world.emailConfig, commandTimeoutMs: 2000, recheckPollMs: 60_000 } },
      });
      await t.services.companies.upsertCompany(
        {
          name: 'Initech',
          domain: 'initech.test',
          industry: 'software',
          size_label: '201-500',
          founded_year: 1998,
          company_type: 'private',
          location: { locality: 'Austin', region: 'Texas', country: 'United States' },
        },
        'test',
      );
    });
    after(async () => {
      await t.close();
      await world.close();
    });

    const balance = async () => (await t.get('/credits')).json().credits as number;

    it('valid: every result field, company data, 0.05 credits charged', async () => {
      const res = await t.post('/email-validate', { email: 'peter.gibbons@initech.test', first_name: 'Peter', last_name: 'Gibbons' });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), RESULT_FIELDS);
      assert.equal(body.email_status, 'valid');
      assert.equal(body.message, 'Email is valid.');
      assert.equal(body.credits_consumed, 0.05);
      assert.equal(res.headers['x-credits-cost'], '0.05');
      assert.equal(body.mx_record, 'mx.initech.test');
      assert.equal(body.company_name, 'Initech');
      assert.equal(body.company_size, '201-500');
      assert.equal(body.company_location.locality, 'austin');
      assert.deepEqual([body.is_disposable, body.is_role_account, body.is_free_email, body.did_you_mean], [false, false, false, null]);
      assert.equal(await balance(), 0.95);
    });

    it('invalid (user unknown and malformed) is charged; catch_all and unknown are free', async () => {
      const invalid = (await t.post('/email-validate', { email: 'bill.lumbergh@initech.test' })).json();
      assert.equal(invalid.email_status, 'invalid');
      assert.equal(invalid.credits_consumed, 0.05);
      const malformed = (await t.post('/email-validate', { email: 'not an email' })).json();
      assert.equal(malformed.email_status, 'invalid');
      assert.equal(malformed.message, 'Email is invalid (malformed address).');
      assert.equal(malformed.credits_consumed, 0.05);
      const catchAll = (await t.post('/email-validate', { email: 'x@anything.test' })).json();
      assert.equal(catchAll.email_status, 'catch_all');
      assert.equal(catchAll.is_domain_catch_all, true);
      assert.equal(catchAll.credits_consumed, 0);
      assert.equal(catchAll.company_name, null);
      const unknown = (await t.post('/email-validate', { email: 'x@broken.test' })).json();
      assert.equal(unknown.email_status, 'unknown');
      assert.equal(unknown.credits_consumed, 0);
      assert.equal(await balance(), 0.85);
    });

    it('a cached result is served and charged the same', async () => {
      const again = await t.post('/email-validate', { email: 'peter.gibbons@initech.test' });
      assert.equal(again.json().email_status, 'valid');
      assert.equal(again.json().credits_consumed, 0.05);
      assert.equal(await balance(), 0.8);
    });

    it('delivery webhooks are off without EMAIL_WEBHOOK_TOKEN', async () => {
      const res = await t.inject({
        method: 'POST',
        url: '/webhooks/postmark',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().error, 'not_found');
    });

    it('email is required', async () => {
      const res = await t.post('/email-validate', { email: '  ' });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error, 'invalid_request');
    });

    it('a balance below 0.05 gets 402 before any probing, even for an address whose answer would be free', async () => {
      // Issue 11 item 8: an answer that ends free (catch_all, unknown) used to be served on an empty key,
      // which let it drive the prober without limit. Now nothing runs below the smallest non-zero charge.
      const poor = await startTestApp(target, {
        database: t.database,
        credits: 0,
        deps: { email: { ...world.emailConfig, recheckPollMs: 60_000 } },
      });
      try {
        const queriesBefore = world.dns.queries.length;
        const charged = await poor.post('/email-validate', { email: 'peter.gibbons@initech.test' });
        assert.equal(charged.statusCode, 402);
        assert.equal(charged.json().error, 'insufficient_credits');
        const free = await poor.post('/email-validate', { email: 'y@anything.test' });
        assert.equal(free.statusCode, 402);
        assert.match(free.json().message, /costs at least 0\.05 credits and the balance is 0/);
        assert.equal(world.dns.queries.length, queriesBefore, 'no DNS lookup, hence no SMTP session, was made');
      } finally {
        await poor.close();
      }
    });
  });
}
