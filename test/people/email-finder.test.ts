// The email finder over HTTP, with the real engine against local fake DNS and SMTP servers: strict
// hosts, catch-all domains with and without evidence, a Microsoft-style host and greylisting.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type FakeMx, type MailWorld } from '../support/fake-smtp.ts';
import { runPeopleImport } from '../../src/ingest/people/runner.ts';
import type { PersonInput } from '../../src/people/input.ts';
import { until } from '../support/until.ts';
import { createLeadbaseClient, LeadbaseError } from '../../src/client/index.ts';

const known = (domain: string, pattern: (first: string, last: string) => string, names: [string, string][]): PersonInput[] =>
  names.map(([first, last], i) => ({
    id: `${domain}-${i}`,
    full_name: `${first} ${last}`,
    positions: [{ company_domain: domain, company_name: domain.split('.')[0], title: 'Engineer' }],
    emails: [{ email: `${pattern(first.toLowerCase(), last.toLowerCase())}@${domain}` }],
  }));

const PEOPLE: PersonInput[] = [
  // strict.test uses flast; its known people say so.
  ...known('strict.test', (f, l) => `${f[0]}${l}`, [
    ['Anna', 'Doe'],
    ['Bob', 'King'],
  ]),
  // patterned.test is catch-all; three known addresses follow first.last.
  ...known('patterned.test', (f, l) => `${f}.${l}`, [
    ['Ann', 'Lee'],
    ['Bo', 'Chan'],
    ['Cy', 'Ward'],
  ]),
  // An address the operator's own export says was verified, at a domain with no mail server here.
  {
    id: 'held-1',
    full_name: 'Rosa Parks',
    positions: [{ company_domain: 'held.test', company_name: 'Held', title: 'Engineer' }],
    emails: [{ email: 'rosa@held.test', status: 'valid' }],
  },
];

for (const target of dbTargets) {
  describe(`email finder (${target.name})`, { skip: target.skip }, () => {
    let world: MailWorld;
    let database: TestDatabase;
    let t: TestApp;
    const mx: Record<string, FakeMx> = {};

    before(async () => {
      world = await startMailWorld();
      mx.strict = await world.domain('strict.test', { mailboxes: ['adoe', 'bking', 'jvanderberg', 'dsokolov', 'jpmartin', 'zoe.nunez'] });
      mx.plain = await world.domain('plain.test', { mailboxes: ['maria.garcia'] });
      mx.catchall = await world.domain('catchall.test', { acceptAll: true });
      mx.patterned = await world.domain('patterned.test', { acceptAll: true });
      mx.m365 = await world.domain('contoso.test', {
        mxHost: 'contoso-test.mail.protection.outlook.com',
        mailboxes: ['ella.fitz'],
        oneRcptPerSession: true,
        blockMs: 50,
      });
      mx.grey = await world.domain('grey.test', { mailboxes: ['tom.hardy'], greylist: true, greylistMs: 100 });
      database = await target.open();
      const records = async function* () {
        let line = 0;
        for (const input of PEOPLE) yield { line: ++line, input };
      };
      t = await startTestApp(target, {
        database,
        credits: 100,
        deps: { email: { ...world.emailConfig, greylistRecheckMs: 150, recheckPollMs: 50 } },
      });
      await runPeopleImport({ db: database.db, companies: t.services.companies, source: 'test', records: records() });
      await t.services.companies.upsertCompany({ name: 'Plain Industries', domain: 'plain.test' }, 'test');
    });
    after(async () => {
      await t.close();
      await database.destroy();
      await world.close();
    });

    const find = async (body: Record<string, unknown>) => {
      const res = await t.post('/email-finder', body);
      assert.equal(res.statusCode, 200, res.body);
      return { ...res.json(), cost: Number(res.headers['x-credits-cost']) };
    };

    it("finds the address on a strict host, trying the domain's known pattern first; 1 credit", async () => {
      const found = await find({ first_name: 'Jan', last_name: 'van der Berg', domain: 'https://www.strict.test/about' });
      assert.equal(found.email, 'jvanderberg@strict.test');
      assert.equal(found.status, 'valid');
      assert.equal(found.domain, 'strict.test');
      assert.equal(found.cost, 1);
      assert.equal(found.credits_consumed, 1);
      assert.equal(found.mx_record, 'mx.strict.test');
      assert.equal(
        mx.strict.rcpts.find((r) => r.startsWith('j')),
        'jvanderberg@strict.test',
        'the known pattern is asked first',
      );
    });

    it('handles accents, hyphens and non-Latin scripts by transliterating to the ASCII pattern', async () => {
      assert.equal((await find({ first_name: 'Дмитрий', last_name: 'Соколов', domain: 'strict.test' })).email, 'dsokolov@strict.test');
      assert.equal((await find({ first_name: 'Jean-Pierre', last_name: 'Martin', domain: 'strict.test' })).email, 'jpmartin@strict.test');
      assert.equal((await find({ first_name: 'Zoë', last_name: 'Núñez', domain: 'strict.test' })).email, 'zoe.nunez@strict.test');
    });

    it('resolves a company name through the company store', async () => {
      const found = await find({ first_name: 'María', last_name: 'García', company_name: 'Plain Industries' });
      assert.equal(found.email, 'maria.garcia@plain.test');
      assert.equal(found.company_name, 'Plain Industries');
      const unknown = await find({ first_name: 'A', last_name: 'B', company_name: 'Nobody Ltd' });
      assert.equal(unknown.status, 'not_found');
      assert.equal(unknown.cost, 0);
    });

    it('serves an address the people store holds as verified, without asking a mail server; same price', async () => {
      const found = await find({ first_name: 'rosa', last_name: 'PARKS', domain: 'held.test' });
      assert.deepEqual([found.email, found.status, found.cost, found.credits_consumed], ['rosa@held.test', 'valid', 1, 1]);
      // held.test has no mail server in this world: a validation would have found nothing.
      const other = await find({ first_name: 'Ann', last_name: 'Other', domain: 'held.test' });
      assert.deepEqual([other.email, other.status, other.cost], [null, 'not_found', 0]);
    });

    it('nobody there: not_found, free', async () => {
      const none = await find({ first_name: 'Nobody', last_name: 'Here', domain: 'strict.test' });
      assert.deepEqual([none.email, none.status, none.cost, none.credits_consumed], [null, 'not_found', 0, 0]);
    });

    it('a catch-all domain without evidence: not_found, never a guess', async () => {
      const guess = await find({ first_name: 'Carl', last_name: 'Sagan', domain: 'catchall.test' });
      assert.deepEqual([guess.email, guess.status, guess.is_domain_catch_all, guess.cost], [null, 'not_found', true, 0]);
    });

    it("a catch-all domain with evidence: the domain's known pattern, or an address with delivery evidence", async () => {
      const patterned = await find({ first_name: 'Dee', last_name: 'Long', domain: 'patterned.test' });
      assert.deepEqual([patterned.email, patterned.status, patterned.cost], ['dee.long@patterned.test', 'valid_catch_all', 1]);
      assert.match(patterned.message, /known address pattern \(first\.last\)/);
      const now = Date.now();
      await t.services.email.engagement.record(
        Array.from({ length: 10 }, (_, i) => ({
          source: 'test',
          eventId: `e${i}`,
          address: 'rsmith@catchall.test',
          kind: 'delivered' as const,
          occurredAt: now + i,
        })),
      );
      const engaged = await find({ first_name: 'Rita', last_name: 'Smith', domain: 'catchall.test' });
      assert.deepEqual([engaged.email, engaged.status, engaged.cost], ['rsmith@catchall.test', 'valid_catch_all', 1]);
    });

    it('a Microsoft-style host (one recipient per session) still gives the right address', async () => {
      const found = await find({ first_name: 'Ella', last_name: 'Fitz', domain: 'contoso.test' });
      assert.deepEqual([found.email, found.status, found.mx_provider], ['ella.fitz@contoso.test', 'valid', 'Microsoft']);
    });

    it('greylisting: not found for now (free), found once the engine has asked again', async () => {
      const first = await find({ first_name: 'Tom', last_name: 'Hardy', domain: 'grey.test' });
      assert.equal(first.cost, 0);
      if (first.status === 'valid') return; // the engine waited the greylist out within the call
      assert.equal(first.status, 'not_found');
      assert.match(first.message, /try again later/);
      await until(async () => (await find({ first_name: 'Tom', last_name: 'Hardy', domain: 'grey.test' })).status === 'valid', 10_000, 100);
    });

    it('works through the typed client (leadbase/client) on a live server', async () => {
      const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const leadbase = createLeadbaseClient({ baseUrl, apiKey: t.key });
      const { data, response } = await leadbase.POST('/email-finder', {
        body: { first_name: 'Bob', last_name: 'King', domain: 'strict.test' },
      });
      assert.deepEqual([data?.email, data?.status, data?.credits_consumed], ['bking@strict.test', 'valid', 1]);
      assert.equal(response.headers.get('x-credits-cost'), '1');
      await assert.rejects(
        leadbase.POST('/email-finder', { body: { first_name: 'Bob', last_name: 'King' } }),
        (error: unknown) => error instanceof LeadbaseError && error.code === 'invalid_request',
      );
    });

    it('refuses a request without a domain or company name, and blank names, in the envelope', async () => {
      const res = await t.post('/email-finder', { first_name: 'A', last_name: 'B' });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error, 'invalid_request');
      const blank = await t.post('/email-finder', { first_name: ' ', last_name: 'B', domain: 'strict.test' });
      assert.equal(blank.statusCode, 400);
    });
  });
}
