// The whole engine against local DNS and SMTP servers that behave like real ones.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { openSqlite, type TestDatabase } from '../support/db.ts';
import { createEmailValidationService, type EmailValidationService } from '../../src/email/service.ts';
import type { EmailConfig } from '../../src/email/config.ts';
import { startFakeSocks } from '../support/fake-socks.ts';

describe('email validation pipeline', () => {
  let world: MailWorld;
  let database: TestDatabase;
  const services: EmailValidationService[] = [];

  const service = (
    config: Partial<EmailConfig> = {},
    extra: Parameters<typeof createEmailValidationService>[0] extends infer D ? Partial<D> : never = {},
  ) => {
    const s = createEmailValidationService({
      db: database.db,
      dialect: database.dialect,
      config: {
        ...world.emailConfig,
        commandTimeoutMs: 2000,
        connectTimeoutMs: 1000,
        dnsTimeoutMs: 600,
        ...config,
      },
      recheckWorker: false,
      ...extra,
    });
    services.push(s);
    return s;
  };

  before(async () => {
    world = await startMailWorld();
    database = await openSqlite();
  });
  after(async () => {
    for (const s of services) await s.close();
    await world.close();
    await database.destroy();
  });

  it('valid mailbox: STARTTLS, provider named by the MX domain, no catch-all', async () => {
    const mx = await world.domain('acme.test', { mailboxes: ['jane.doe'] });
    const result = await service().validate({ email: 'Jane.Doe@acme.test' });
    assert.equal(result.email_status, 'valid');
    assert.equal(result.message, 'Email is valid.');
    assert.equal(result.email, 'Jane.Doe@acme.test');
    assert.equal(result.mx_record, 'mx.acme.test');
    assert.equal(result.mx_provider, 'acme.test');
    assert.equal(result.mx_security_gateway, false);
    assert.equal(result.is_domain_catch_all, false);
    assert.equal(result.company_name, null);
    assert.ok(mx.tlsSessions() >= 1, 'upgraded with STARTTLS');
    assert.equal(mx.rcpts.length, 2, 'the address and one random address in the same session');
  });

  it('unknown user (550 5.1.1) is invalid; the catch-all verdict is not probed again', async () => {
    const s = service();
    const mx = await world.domain('beta.test', { mailboxes: ['ann'] });
    assert.equal((await s.validate({ email: 'ann@beta.test' })).email_status, 'valid');
    const result = await s.validate({ email: 'nobody@beta.test' });
    assert.equal(result.email_status, 'invalid');
    assert.equal(result.message, 'Email is invalid.');
    assert.equal(mx.rcpts.length, 3);
  });

  it('malformed addresses are invalid without any network', async () => {
    const s = service();
    for (const email of ['not-an-email', 'a@b', 'Jane <jane@acme.test>', `${'x'.repeat(65)}@acme.test`, 'a@-bad-.test', 'a@[127.0.0.1]']) {
      const result = await s.validate({ email });
      assert.equal(result.email_status, 'invalid', email);
      assert.equal(result.message, 'Email is invalid (malformed address).');
      assert.equal(result.mx_record, null);
    }
  });

  it('IDN domains are probed in their ASCII form', async () => {
    await world.domain('xn--bcher-kva.test', { mailboxes: ['info'] });
    const result = await service().validate({ email: 'info@bücher.test' });
    assert.equal(result.email_status, 'valid');
    assert.equal(result.mx_record, 'mx.xn--bcher-kva.test');
  });

  it('DNS: NXDOMAIN and null MX are invalid; SERVFAIL and timeouts are unknown', async () => {
    world.dns.nxdomain('gone.test').servfail('broken.test').timeout('slow.test');
    world.dns.mx('nomail.test', [{ exchange: '.', priority: 0 }]);
    world.dns.txt('empty.test', ['v=spf1 -all']);
    const s = service();
    assert.equal((await s.validate({ email: 'a@gone.test' })).email_status, 'invalid');
    assert.equal((await s.validate({ email: 'a@nomail.test' })).email_status, 'invalid');
    assert.equal((await s.validate({ email: 'a@empty.test' })).email_status, 'invalid');
    assert.equal((await s.validate({ email: 'a@broken.test' })).email_status, 'unknown');
    const slow = await s.validate({ email: 'a@slow.test' });
    assert.equal(slow.email_status, 'unknown');
    assert.equal(slow.message, 'Unable to determine email validity.');
  });

  it('no MX: the domain address is the implicit MX (RFC 5321)', async () => {
    await world.domain('implicit.test', { mailboxes: ['bob'], implicitMx: true });
    const result = await service().validate({ email: 'bob@implicit.test' });
    assert.equal(result.email_status, 'valid');
    assert.equal(result.mx_record, 'implicit.test');
  });

  it('catch-all domains: detected with a random address and remembered per domain', async () => {
    const s = service();
    const mx = await world.domain('anything.test', { acceptAll: true });
    const first = await s.validate({ email: 'someone@anything.test' });
    assert.equal(first.email_status, 'catch_all');
    assert.equal(first.message, 'Domain accepts all emails (catch-all). Unable to verify specific address.');
    assert.equal(first.is_domain_catch_all, true);
    const connections = mx.connections();
    const second = await s.validate({ email: 'other@anything.test' });
    assert.equal(second.email_status, 'catch_all');
    assert.equal(mx.connections(), connections, 'known catch-all: no new session');
  });

  it('engagement evidence turns a catch-all address into valid_catch_all (bounce rate under 5%)', async () => {
    const s = service({ engagementMinDeliveries: 3 });
    await world.domain('engaged.test', { acceptAll: true });
    const now = Date.now();
    await s.engagement.record(
      Array.from({ length: 20 }, (_, i) => ({
        source: 'test',
        eventId: `d${i}`,
        address: 'Ceo@Engaged.test',
        kind: 'delivered' as const,
        occurredAt: now + i,
      })),
    );
    const engaged = await s.validate({ email: 'ceo@engaged.test' });
    assert.equal(engaged.email_status, 'valid_catch_all');
    assert.equal(engaged.message, 'Email is valid (catch-all domain with engagement data).');
    assert.equal(engaged.is_domain_catch_all, true);
    await s.engagement.record([
      ...Array.from({ length: 4 }, (_, i) => ({
        source: 'test',
        eventId: `x${i}`,
        address: 'cfo@engaged.test',
        kind: 'delivered' as const,
        occurredAt: now,
      })),
      { source: 'test', eventId: 'b1', address: 'cfo@engaged.test', kind: 'hard_bounce' as const, occurredAt: now },
    ]);
    assert.equal((await s.validate({ email: 'cfo@engaged.test' })).email_status, 'catch_all', '1 bounce in 5 is 20%');
    assert.equal((await s.validate({ email: 'new@engaged.test' })).email_status, 'catch_all');
  });

  it('greylisting: unknown now, re-checked later in the background, then served from the database', async () => {
    const s = service({ greylistRecheckMs: 50 });
    await world.domain('grey.test', { mailboxes: ['pat'], greylist: true });
    const first = await s.validateDetailed({ email: 'pat@grey.test' });
    assert.equal(first.validation.email_status, 'unknown');
    assert.equal(first.reason, 'greylisted');
    assert.equal((await s.rechecks.state('pat@grey.test'))?.state, 'pending');
    // The re-check gets past greylisting for the mailbox, then for the catch-all probe address.
    for (let pass = 0; pass < 3 && (await s.rechecks.state('pat@grey.test'))?.state !== 'done'; pass += 1) {
      assert.equal(await s.runDueRechecks(Date.now() + 10_000), 1);
    }
    assert.equal((await s.rechecks.state('pat@grey.test'))?.state, 'done');
    // Another instance (fresh memory) serves the stored answer.
    const again = await service().validateDetailed({ email: 'pat@grey.test' });
    assert.equal(again.validation.email_status, 'valid');
    assert.equal(again.source, 'recheck');
  });

  it('421 at the banner, a dropped connection and a tarpit are unknown', async () => {
    const s = service({ commandTimeoutMs: 300 });
    await world.domain('busy.test', { banner421: true });
    await world.domain('drop.test', { dropAtRcpt: true });
    await world.domain('tarpit.test', { mailboxes: ['a'], tarpitMs: 2000 });
    const started = Date.now();
    for (const email of ['a@busy.test', 'a@drop.test', 'a@tarpit.test'])
      assert.equal((await s.validate({ email })).email_status, 'unknown', email);
    assert.ok(Date.now() - started < 3000);
  });

  it('reply table end to end: full mailbox and policy blocks are unknown, disabled mailboxes invalid', async () => {
    // No quarantine: the blocklist reply would keep the one identity from every later test's mail server.
    const s = service({ quarantineMs: 0 });
    await world.domain('replies.test', {
      mailboxes: ['ok'],
      replies: {
        full: { code: 552, text: '5.2.2 Mailbox full' },
        gone: { code: 550, text: '5.2.1 The email account that you tried to reach is disabled' },
        policy: { code: 550, text: '5.7.1 Recipient address rejected: Access denied by policy' },
        rbl: { code: 554, text: '5.7.1 Service unavailable; Client host [1.2.3.4] blocked using zen.spamhaus.org' },
      },
    });
    assert.equal((await s.validate({ email: 'full@replies.test' })).email_status, 'unknown');
    assert.equal((await s.validate({ email: 'gone@replies.test' })).email_status, 'invalid');
    assert.equal((await s.validate({ email: 'policy@replies.test' })).email_status, 'unknown');
    assert.equal((await s.validate({ email: 'rbl@replies.test' })).email_status, 'unknown');
  });

  it('Microsoft-hosted domains get one RCPT per session (a second one would get us blocked)', async () => {
    const s = service();
    const mx = await world.domain('contoso.test', {
      mailboxes: ['megan'],
      oneRcptPerSession: true,
      mxHost: 'contoso-test.mail.protection.outlook.com',
    });
    const valid = await s.validate({ email: 'megan@contoso.test' });
    assert.equal(valid.email_status, 'valid');
    assert.equal(valid.mx_provider, 'Microsoft');
    assert.ok(mx.connections() >= 2, 'address and catch-all probe in separate sessions');
    assert.equal((await s.validate({ email: 'nobody@contoso.test' })).email_status, 'invalid', 'not blocked afterwards');
  });

  it('one-RCPT-per-session hosts: a burst keeps one spare greeted connection ready, and uses it once', async () => {
    const s = service({ sessionIdleMs: 700 });
    const mx = await world.domain('fabrikam.test', {
      mailboxes: ['ann', 'bob'],
      oneRcptPerSession: true,
      startTls: false,
      mxHost: 'fabrikam-test.mail.protection.outlook.com',
    });
    // (smtp-server sends its banner after ~100 ms: the pauses let a spare get ready.)
    const pause = () => new Promise((resolve) => setTimeout(resolve, 200));
    // The address, then the catch-all probe in its own session: the second conversation starts a spare.
    assert.equal((await s.validate({ email: 'ann@fabrikam.test' })).email_status, 'valid');
    await pause();
    const afterFirst = mx.connections();
    assert.equal(afterFirst, 3, 'address session, probe session, one spare');
    for (const email of ['bob@fabrikam.test', 'carl@fabrikam.test', 'dora@fabrikam.test']) {
      await s.validate({ email });
      await pause();
    }
    // Each validation took the spare (one round trip) and readied the next one: one new connection each.
    assert.equal(mx.connections(), afterFirst + 3);
    assert.equal(mx.rcpts.length, 5, 'one RCPT per validation and one probe');
    assert.equal(
      (await s.validate({ email: 'erin@fabrikam.test' })).email_status,
      'invalid',
      'never a second RCPT in a session (the host would have banned us)',
    );
    // Past the idle time the spare is closed and a lone validation opens only its own session.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const quiet = mx.connections();
    assert.equal((await s.validate({ email: 'fred@fabrikam.test' })).email_status, 'invalid');
    await pause();
    assert.equal(mx.connections(), quiet + 1);
  });

  it('a mail server that refused our only identity (blocklisted IP) is not asked again for a while; rate limits are not remembered', async () => {
    // An identity of its own: its quarantine (stored in the shared database) must not reach the other tests.
    const own = { quarantineMs: 2500, outbound: [{ id: 'listed-test' }] };
    const s = service(own);
    const mx = await world.domain('listed.test', {
      rcptReply: { code: 554, text: '5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org' },
    });
    const first = await s.validateDetailed({ email: 'a@listed.test' });
    assert.equal(first.validation.email_status, 'unknown');
    assert.equal(first.reason, 'outbound_blocked');
    const rcpts = mx.rcpts.length;
    const connections = mx.connections();
    const second = await s.validateDetailed({ email: 'b@listed.test' });
    assert.equal(second.validation.email_status, 'unknown');
    assert.equal(second.reason, 'outbound_blocked');
    assert.equal(second.validation.mx_record, 'mx.listed.test');
    assert.equal(mx.rcpts.length, rcpts, 'answered without asking');
    assert.equal(mx.connections(), connections);
    // Another instance on the same database knows of the quarantine; once it is over, the host is asked again.
    await s.outbound.flush();
    assert.equal((await service(own).validateDetailed({ email: 'c@listed.test' })).reason, 'outbound_blocked');
    assert.equal(mx.rcpts.length, rcpts);
    await new Promise((resolve) => setTimeout(resolve, 2600));
    assert.equal((await s.validate({ email: 'd@listed.test' })).email_status, 'unknown');
    assert.ok(mx.rcpts.length > rcpts, 'asked again after EMAIL_QUARANTINE_MS');

    const busy = await world.domain('busy-rcpt.test', { rcptReply: { code: 452, text: '4.5.3 Too many recipients' } });
    const t = service();
    await t.validate({ email: 'a@busy-rcpt.test' });
    const seen = busy.rcpts.length;
    await t.validate({ email: 'b@busy-rcpt.test' });
    assert.ok(busy.rcpts.length > seen, 'a rate limit is not a refusal of our address');
  });

  it('security gateways are reported', async () => {
    await world.domain('guarded.test', { mailboxes: ['x'], mxHost: 'mx0a-001.pphosted.com' });
    const result = await service().validate({ email: 'x@guarded.test' });
    assert.equal(result.mx_security_gateway, true);
    assert.equal(result.mx_provider, 'Proofpoint');
  });

  it('SSRF guard: MX hosts on loopback are refused unless the test setting allows them', async () => {
    const mx = await world.domain('internal.test', { acceptAll: true });
    const before = mx.connections();
    const result = await service({ allowPrivateMx: false }).validateDetailed({ email: 'a@internal.test' });
    assert.equal(result.validation.email_status, 'unknown');
    assert.equal(result.reason, 'mx_not_public');
    assert.equal(mx.connections(), before);
  });

  it('the global deadline answers unknown on time', async () => {
    await world.domain('silent.test', { silent: true });
    const started = Date.now();
    const result = await service({ deadlineMs: 400, commandTimeoutMs: 10_000 }).validateDetailed({ email: 'a@silent.test' });
    assert.equal(result.validation.email_status, 'unknown');
    assert.equal(result.reason, 'deadline');
    assert.ok(Date.now() - started < 1500);
  });

  it('company fields come from the company store; free-mail domains get none', async () => {
    await world.domain('gmail.com', { acceptAll: true });
    await world.domain('initech.test', { mailboxes: ['peter'] });
    const lookedUp: string[] = [];
    const s = service(
      {},
      {
        enrichmentByDomain: async (domain) => {
          lookedUp.push(domain);
          return domain === 'initech.test'
            ? {
                company_name: 'Initech',
                company_industry: 'software',
                company_size: '51-200',
                company_founded: 1999,
                company_location: {
                  name: 'austin, tx',
                  locality: 'austin',
                  region: 'texas',
                  metro: null,
                  country: 'united states',
                  continent: 'north america',
                  street_address: null,
                  address_line_2: null,
                  postal_code: null,
                  geo: null,
                },
                company_prof_url: 'prof.example/company/initech',
                company_prof_id: '42',
                company_social_a_url: null,
                company_social_b_url: null,
                company_type: 'private',
              }
            : null;
        },
      },
    );
    const result = await s.validate({ email: 'peter@initech.test' });
    assert.equal(result.company_name, 'Initech');
    assert.equal(result.company_location?.locality, 'austin');
    const free = await s.validate({ email: 'someone@gmail.com' });
    assert.equal(free.company_name, null);
    assert.deepEqual(lookedUp, ['initech.test']);
  });

  it('keeps a connection for the next validation to the same MX (RSET), and starts over when the server closed it', async () => {
    const s = service({ sessionIdleMs: 2000 });
    const mx = await world.domain('reuse.test', { mailboxes: ['a', 'b'] });
    assert.equal((await s.validate({ email: 'a@reuse.test' })).email_status, 'valid');
    assert.equal((await s.validate({ email: 'b@reuse.test' })).email_status, 'valid');
    assert.equal((await s.validate({ email: 'c@reuse.test' })).email_status, 'invalid');
    assert.equal(mx.connections(), 1, 'one connection, three transactions');
    const once = service({ sessionReuseMax: 1 });
    await once.validate({ email: 'a@reuse.test' });
    await once.validate({ email: 'b@reuse.test' });
    assert.equal(mx.connections(), 3, 'EMAIL_SESSION_REUSE_MAX=1: a connection per validation');
  });

  it('goes through a SOCKS5 proxy (with username and password) when one is set', async () => {
    const socks = await startFakeSocks({ user: 'probe', password: 's3cret' });
    try {
      const mx = await world.domain('proxied.test', { mailboxes: ['ann'] });
      const result = await service({ socksProxy: socks.url }).validate({ email: 'ann@proxied.test' });
      assert.equal(result.email_status, 'valid');
      assert.deepEqual(socks.connects, [`${mx.host}:${world.port}`]);
    } finally {
      await socks.close();
    }
  });
});
