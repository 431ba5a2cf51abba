// Outbound identities: real wording of refused senders is told from answers about the mailbox;
// a mail server that refuses one identity (recognised by its source address or EHLO name) gets
// the conversation again through another, the refused identity is quarantined, stored and shown
// by `leadbase status`, and no address is ever invalid because of a refusal. On both dialects.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMailWorld, type FakeMxOptions, type MailWorld } from '../support/fake-smtp.ts';
import { startFakeSocks } from '../support/fake-socks.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { createEmailValidationService, type EmailValidationService } from '../../src/email/service.ts';
import { loadEmailConfig, type EmailConfig } from '../../src/email/config.ts';
import { blockOf } from '../../src/email/refusals.ts';
import { checkOutboundSettings, type OutboundSetting } from '../../src/email/outbound.ts';
import type { SmtpReply } from '../../src/email/smtp-session.ts';
import { installStatus } from '../../src/platform/status.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { startTestApp } from '../support/app.ts';
import { runLeadbase } from '../support/cli.ts';
import { openSqlite } from '../support/db.ts';
import { until } from '../support/until.ts';

interface FixtureReply {
  source: string;
  code: number;
  text: string;
  stage?: 'connect';
  scope?: 'everywhere' | 'provider';
}

const fixtures = (name: string) =>
  (
    JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'real', 'smtp-replies', name), 'utf8')) as {
      replies: FixtureReply[];
    }
  ).replies;
const REFUSALS = fixtures('refusals-of-the-sender.json');
const ABOUT_THE_MAILBOX = fixtures('replies-about-the-mailbox.json');

/** A reply as the SMTP client reads it: the enhanced code split off the text. */
function replyOf(f: FixtureReply): SmtpReply {
  const match = /^([245]\.\d{1,3}\.\d{1,3})\s+/.exec(f.text);
  return { code: f.code, enhanced: match ? match[1] : null, text: match ? f.text.slice(match[0].length) : f.text };
}

const reply = (name: string) => REFUSALS.find((f) => f.text.includes(name))!;

describe('refusals of the sender, in real wording', () => {
  it('every recorded refusal is one, public blocklists are told from a provider’s own verdict', () => {
    for (const f of REFUSALS) {
      const block = blockOf(replyOf(f), f.stage === 'connect');
      assert.ok(block, `not recognised: ${f.code} ${f.text}`);
      assert.equal(block.everywhere, f.scope === 'everywhere', `scope of: ${f.text}`);
    }
  });

  it('no answer about the mailbox (unknown user, disabled, greylisted) is taken for one', () => {
    for (const f of ABOUT_THE_MAILBOX) assert.equal(blockOf(replyOf(f)), null, `taken for a refusal: ${f.code} ${f.text}`);
    assert.equal(blockOf({ code: 452, enhanced: '4.5.3', text: 'Too many recipients' }), null, 'a rate limit is not a refusal');
    assert.equal(blockOf({ code: 421, enhanced: '4.7.0', text: 'Too many connections, slow down' }, true), null);
  });

  it('a 554 greeting refuses the client whatever its words; the same words later do not', () => {
    const bare = { code: 554, enhanced: null, text: 'mx.example.test' };
    assert.deepEqual(blockOf(bare, true), { everywhere: false });
    assert.equal(blockOf(bare, false), null);
  });
});

describe('outbound identity settings', () => {
  it('reads EMAIL_OUTBOUND or EMAIL_OUTBOUND_FILE and refuses what cannot work', () => {
    const list = [
      { id: 'a', bind: '192.0.2.10', helo: 'a.example.test' },
      { id: 'b', proxy: 'socks5://user:pa%40ss@proxy.example.test:1080', helo: 'b.example.test', mail_from: 'v@b.example.test' },
    ];
    assert.deepEqual(loadEmailConfig({ EMAIL_OUTBOUND: JSON.stringify(list) }).outbound, list);
    const dir = mkdtempSync(join(tmpdir(), 'leadbase-outbound-'));
    try {
      writeFileSync(join(dir, 'outbound.json'), JSON.stringify(list));
      assert.deepEqual(loadEmailConfig({ EMAIL_OUTBOUND_FILE: join(dir, 'outbound.json') }).outbound, list);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.equal(loadEmailConfig({}).outbound, null, 'unset: one identity, the server’s own address');
    const refused: [unknown, RegExp][] = [
      ['{', /must be JSON/],
      [[], /non-empty JSON array/],
      [[{ id: 'a b' }], /id must be/],
      [[{ id: 'a' }, { id: 'a' }], /used twice/],
      [[{ id: 'a', bind: 'not-an-ip' }], /IPv4 or IPv6/],
      [[{ id: 'a', bind: '192.0.2.1', proxy: 'socks5://h:1' }], /not both/],
      [[{ id: 'a', proxy: 'http://h:1' }], /socks5:\/\/ URL/],
    ];
    for (const [value, message] of refused) {
      assert.throws(
        () => (typeof value === 'string' ? loadEmailConfig({ EMAIL_OUTBOUND: value }) : checkOutboundSettings(value)),
        message,
        String(JSON.stringify(value)),
      );
    }
  });
});

for (const target of dbTargets) {
  describe(`outbound identities against mail servers that refuse one (${target.name})`, { skip: target.skip }, () => {
    let world: MailWorld;
    let database: TestDatabase;
    const services: EmailValidationService[] = [];
    // Loopback addresses to send from: a fake MX tells identities apart by the source address.
    const A = '127.0.0.201';
    const B = '127.0.0.202';
    const C = '127.0.0.203';

    const service = (outbound: OutboundSetting[], config: Partial<EmailConfig> = {}) => {
      const s = createEmailValidationService({
        db: database.db,
        dialect: database.dialect,
        config: { ...world.emailConfig, commandTimeoutMs: 4000, connectTimeoutMs: 3000, dnsTimeoutMs: 2000, outbound, ...config },
        recheckWorker: false,
      });
      services.push(s);
      return s;
    };

    before(async () => {
      world = await startMailWorld();
      database = await target.open();
    });
    after(async () => {
      for (const s of services) await s.close();
      await world.close();
      await database.destroy();
    });

    it('a refused identity is quarantined at that provider and the other one gets the true answer', async () => {
      const banned = reply('banned sending IP [23.129.64.216]');
      const mx = await world.domain('pool.test', {
        mailboxes: ['ann'],
        refuseClients: { addresses: [A], at: 'rcpt', reply: { code: banned.code, text: banned.text.replace('23.129.64.216', '{ip}') } },
      });
      const s = service([
        { id: 'a', bind: A, helo: 'a.probe.test' },
        { id: 'b', bind: B, helo: 'b.probe.test' },
      ]);
      const valid = await s.validateDetailed({ email: 'ann@pool.test' });
      assert.equal(valid.validation.email_status, 'valid');
      const invalid = await s.validateDetailed({ email: 'nobody@pool.test' });
      assert.equal(invalid.validation.email_status, 'invalid', 'the other identity got the true answer');
      assert.equal(invalid.reason, 'user_unknown');
      assert.deepEqual([...new Set(mx.clients)].sort(), [A, B], 'the first try went through a, the retry through b');
      const [a, b] = s.outbound.states();
      assert.equal(a.state, 'limited');
      assert.equal(a.quarantines[0].scope, 'pool.test', 'only at this provider: Microsoft-style bans are its own');
      assert.match(a.quarantines[0].reply, /^550 5\.7\.606 Access denied, banned sending IP \[127\.0\.0\.201\]/);
      assert.ok(Date.parse(a.quarantines[0].until) - Date.now() > 5 * 3600_000, 'for EMAIL_QUARANTINE_MS (6 h)');
      assert.equal(b.state, 'active');
      // The quarantined identity is not used there again: only b connects.
      const before = mx.clients.length;
      assert.equal((await s.validate({ email: 'bob@pool.test' })).email_status, 'invalid');
      assert.ok(mx.clients.slice(before).every((ip) => ip === B));

      // `leadbase status` reads the quarantine from the database, as any instance would.
      await s.outbound.flush();
      const status = await installStatus(database.db, database.dialect, undefined, s.outbound.identities);
      const shown = status.outbound_identities!;
      assert.deepEqual(
        shown.map((i) => [i.id, i.via, i.helo, i.state]),
        [
          ['a', `bind ${A}`, 'a.probe.test', 'limited'],
          ['b', `bind ${B}`, 'b.probe.test', 'active'],
        ],
      );
      assert.equal(shown[0].quarantines[0].until, a.quarantines[0].until);
      // Another instance on the same database knows of it before it probes.
      const other = service([
        { id: 'a', bind: A, helo: 'a.probe.test' },
        { id: 'b', bind: B, helo: 'b.probe.test' },
      ]);
      const seen = mx.clients.length;
      assert.equal((await other.validate({ email: 'carl@pool.test' })).email_status, 'invalid');
      assert.ok(mx.clients.slice(seen).every((ip) => ip === B));
    });

    it('recognises an identity by its EHLO name; a public blocklist makes it a last resort everywhere else', async () => {
      const spamhaus = reply('blocked using Spamhaus.');
      const listed = await world.domain('by-name.test', {
        mailboxes: ['dee'],
        refuseClients: { heloNames: ['c.probe.test'], at: 'mail', reply: { code: spamhaus.code, text: spamhaus.text } },
      });
      const elsewhere = await world.domain('elsewhere.test', { mailboxes: ['eve'] });
      const s = service([
        { id: 'c', bind: C, helo: 'c.probe.test' },
        { id: 'd', helo: 'd.probe.test' },
      ]);
      const dee = await s.validateDetailed({ email: 'dee@by-name.test' });
      assert.equal(dee.validation.email_status, 'valid', dee.reason);
      assert.ok(listed.clients.includes(C));
      const [c] = s.outbound.states();
      assert.equal(c.state, 'listed');
      assert.deepEqual(c.quarantines.map((q) => q.scope).sort(), ['*', 'by-name.test']);
      // Elsewhere, c is not used while d is there: the list it is on is read by many receivers.
      assert.equal((await s.validate({ email: 'eve@elsewhere.test' })).email_status, 'valid');
      assert.equal((await s.validate({ email: 'nobody@elsewhere.test' })).email_status, 'invalid');
      assert.ok(!elsewhere.clients.includes(C));
      // With no other identity, a listed one still asks the servers that did not refuse it (as one address always did).
      const alone = service([{ id: 'c', bind: C, helo: 'c.probe.test' }]);
      assert.equal((await alone.validate({ email: 'nobody2@elsewhere.test' })).email_status, 'invalid');
      assert.ok(elsewhere.clients.includes(C));
      assert.equal(
        (await alone.validateDetailed({ email: 'dee@by-name.test' })).reason,
        'outbound_blocked',
        'but not the one that refused it',
      );
    });

    it('a 554 greeting refuses an identity before any command', async () => {
      const gmx = REFUSALS.find((f) => f.stage === 'connect')!;
      const mx = await world.domain('greeting.test', {
        mailboxes: ['fay'],
        refuseClients: { addresses: [A], at: 'connect', reply: { code: gmx.code, text: gmx.text } },
      });
      const s = service([
        { id: 'a', bind: A },
        { id: 'b', bind: B },
      ]);
      assert.equal((await s.validate({ email: 'nobody@greeting.test' })).email_status, 'invalid');
      assert.deepEqual([...new Set(mx.clients)].sort(), [A, B]);
      assert.equal(s.outbound.states()[0].state, 'limited');
      assert.equal(mx.rcpts.filter((r) => r.startsWith('nobody@')).length, 1, 'asked once, by b');
    });

    it('every identity refused: unknown with the reason, never invalid, and nothing asked until the quarantine ends', async () => {
      const barracuda = reply('is in a black list at b.barracudacentral.org');
      const mx = await world.domain('all-refused.test', {
        mailboxes: ['gus'],
        refuseClients: { addresses: [A, B], at: 'rcpt', reply: { code: barracuda.code, text: barracuda.text } },
      });
      const s = service(
        [
          { id: 'a', bind: A },
          { id: 'b', bind: B },
        ],
        { quarantineMs: 1500 },
      );
      const first = await s.validateDetailed({ email: 'nobody@all-refused.test' });
      assert.equal(first.validation.email_status, 'unknown');
      assert.equal(first.reason, 'outbound_blocked');
      assert.deepEqual(
        s.outbound.states().map((i) => i.state),
        ['listed', 'listed'],
      );
      const connections = mx.connections();
      const second = await s.validateDetailed({ email: 'gus@all-refused.test' });
      assert.equal(second.validation.email_status, 'unknown');
      assert.equal(second.reason, 'outbound_blocked');
      assert.equal(second.validation.mx_record, 'mx.all-refused.test');
      assert.equal(mx.connections(), connections, 'answered without a connection');
      // Past the quarantine the mail server is asked again (and refuses again).
      await new Promise((resolve) => setTimeout(resolve, 1700));
      await s.validate({ email: 'hal@all-refused.test' });
      assert.ok(mx.connections() > connections);
    });

    it('a SOCKS5 proxy is an identity too: the refused direct one hands over to it', async () => {
      const socks = await startFakeSocks({ user: 'probe', password: 's3cret' });
      try {
        const spamcop = reply('spamcop');
        const mx = await world.domain('via-proxy.test', {
          mailboxes: ['ida'],
          refuseClients: { addresses: [C], at: 'rcpt', reply: { code: spamcop.code, text: spamcop.text } },
        });
        const s = service([
          { id: 'direct', bind: C },
          { id: 'proxied', proxy: socks.url, helo: 'proxy.probe.test' },
        ]);
        const result = await s.validateDetailed({ email: 'nobody@via-proxy.test' });
        assert.equal(result.validation.email_status, 'invalid');
        assert.deepEqual(socks.connects, [`${mx.host}:${world.port}`]);
        const [direct, proxied] = s.outbound.states();
        assert.equal(direct.state, 'listed', 'SpamCop is a public list; a 4xx: for EMAIL_QUARANTINE_TEMPORARY_MS');
        assert.ok(Date.parse(direct.quarantines[0].until) - Date.now() <= 15 * 60_000);
        assert.equal(proxied.via, `socks5://127.0.0.1:${new URL(socks.url).port}`, 'credentials never shown');
      } finally {
        await socks.close();
      }
    });
  });
}

describe('outbound identities on /metrics and in the console’s status', () => {
  it('shows the refused identity quarantined, with its expiry, and counts the refusal', async () => {
    const world = await startMailWorld();
    const ADMIN_TOKEN = 'outbound-test-admin-token-0123456789';
    const t = await startTestApp(undefined, {
      deps: {
        config: loadConfig({ CRAWL_ENABLED: '0', ADMIN_TOKEN }),
        email: {
          ...world.emailConfig,
          outbound: [
            { id: 'a', bind: '127.0.0.204', helo: 'a.probe.test' },
            { id: 'b', bind: '127.0.0.205', helo: 'b.probe.test' },
          ],
        },
      },
    });
    try {
      const listed = reply('listed on zen.spamhaus.org');
      await world.domain('shown.test', {
        mailboxes: ['jo'],
        refuseClients: { addresses: ['127.0.0.204'], at: 'rcpt', reply: { code: listed.code, text: listed.text } },
      });
      assert.equal((await t.services.email.validate({ email: 'jo@shown.test' })).email_status, 'valid');
      await t.services.email.outbound.flush();
      const metrics = (await t.inject({ method: 'GET', url: '/metrics' })).body;
      assert.match(metrics, /^leadbase_email_outbound_identities_usable 1$/m);
      assert.match(metrics, /^leadbase_email_outbound_quarantines\{identity="a"\} 2$/m);
      assert.match(metrics, /^leadbase_email_outbound_quarantines\{identity="b"\} 0$/m);
      assert.match(metrics, /^leadbase_email_outbound_refusals_total\{identity="a",scope="everywhere"\} 1$/m);
      const status = await t.inject({ method: 'GET', url: '/admin/status', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      assert.equal(status.statusCode, 200, status.body);
      const [a, b] = status.json().outbound_identities;
      assert.equal(a.state, 'listed');
      assert.deepEqual(a.quarantines.map((q: { scope: string }) => q.scope).sort(), ['*', 'shown.test']);
      assert.ok(Date.parse(a.quarantines[0].until) > Date.now());
      assert.equal(b.state, 'active');
    } finally {
      await t.close();
      await world.close();
    }
  });
});

describe('leadbase status', () => {
  it('lists the outbound identities with their state and when a quarantine ends', async () => {
    const world = await startMailWorld();
    const database = await openSqlite();
    const outbound = [
      { id: 'a', bind: '127.0.0.206', helo: 'a.probe.test' },
      { id: 'b', proxy: 'socks5://probe:s3cret@127.0.0.1:1', helo: 'b.probe.test' },
    ];
    try {
      const banned = reply('banned sending IP [23.129.64.216]');
      await world.domain('cli.test', {
        refuseClients: { addresses: ['127.0.0.206'], at: 'rcpt', reply: { code: banned.code, text: banned.text } },
      });
      const s = createEmailValidationService({
        db: database.db,
        dialect: database.dialect,
        config: { ...world.emailConfig, outbound: [outbound[0]], connectTimeoutMs: 3000 },
        recheckWorker: false,
      });
      // a is refused; with no other identity here the answer is unknown.
      assert.equal((await s.validateDetailed({ email: 'x@cli.test' })).reason, 'outbound_blocked');
      await s.close();
      const { DATABASE_URL: _db, REDIS_URL: _redis, ...env } = process.env;
      const cli = await runLeadbase(['status'], { ...env, DATABASE_URL: database.url, EMAIL_OUTBOUND: JSON.stringify(outbound) }, 60_000);
      assert.equal(cli.status, 0, cli.stderr);
      assert.match(cli.stdout, /email outbound identities \(2\):/);
      assert.match(cli.stdout, /^ {2}a \(bind 127\.0\.0\.206, EHLO a\.probe\.test\) \[limited\]$/m);
      assert.match(
        cli.stdout,
        /^ {4}quarantined at cli\.test until \d{4}-\d\d-\d\dT[\d:.]+Z: 550 5\.7\.606 Access denied, banned sending IP/m,
      );
      assert.match(cli.stdout, /^ {2}b \(socks5:\/\/127\.0\.0\.1:1, EHLO b\.probe\.test\) \[active\]$/m);
      assert.ok(!cli.stdout.includes('s3cret'), 'no proxy password in the output');
      const json = await runLeadbase(
        ['status', '--json'],
        { ...env, DATABASE_URL: database.url, EMAIL_OUTBOUND: JSON.stringify(outbound) },
        60_000,
      );
      assert.equal(json.status, 0, json.stderr);
      const [a] = JSON.parse(json.stdout).outbound_identities;
      assert.equal(a.quarantines[0].scope, 'cli.test');
    } finally {
      await database.destroy();
      await world.close();
    }
  });
});

describe('bulk lists while every identity is refused', () => {
  it('wait for the quarantine to end instead of answering the rest of the list unknown, then get the true answers', async () => {
    const world = await startMailWorld();
    const listed = reply('listed on zen.spamhaus.org');
    // The mail server refuses our one identity until the test lifts it (a delisting).
    const options: FakeMxOptions = {
      mailboxes: ['kim'],
      refuseClients: { addresses: ['127.0.0.207'], at: 'rcpt', reply: { code: listed.code, text: listed.text } },
    };
    const mx = await world.domain('delisted.test', options);
    const t = await startTestApp(undefined, {
      deps: {
        config: loadConfig({ CRAWL_ENABLED: '0', BULK_GREYLIST_RETRY_MS: '300' }),
        email: { ...world.emailConfig, recheckPollMs: 60_000, quarantineMs: 1500, outbound: [{ id: 'only', bind: '127.0.0.207' }] },
      },
    });
    try {
      const res = await t.post('/email-validate/bulk', { emails: ['kim@delisted.test', 'nobody@delisted.test'] });
      assert.equal(res.statusCode, 202, res.body);
      const { id } = res.json<{ id: string }>();
      await until(() => mx.rcpts.length > 0, 30_000, 50);
      await until(async () => t.services.email.outbound.usable() === 0, 30_000, 50);
      // Refused and quarantined: the job keeps its addresses waiting, none is answered yet.
      const waiting = await t.get(`/email-validate/bulk/${id}`);
      assert.notEqual(waiting.json<{ status: string }>().status, 'done', waiting.body);
      delete options.refuseClients;
      await until(async () => (await t.get(`/email-validate/bulk/${id}`)).json<{ status: string }>().status === 'done', 30_000, 100);
      const rows = (await t.get(`/email-validate/bulk/${id}/results`)).body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { email: string; email_status: string });
      assert.deepEqual(
        rows.map((r) => [r.email, r.email_status]),
        [
          ['kim@delisted.test', 'valid'],
          ['nobody@delisted.test', 'invalid'],
        ],
      );
    } finally {
      await t.close();
      await world.close();
    }
  });
});
