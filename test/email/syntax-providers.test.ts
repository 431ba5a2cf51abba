import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseAddress, parseAddressFully } from '../../src/email/syntax.ts';
import { identifyMx, registrableDomain } from '../../src/email/providers.ts';
import { isPublicAddress } from '../../src/net/ssrf.ts';
import { isFreeMailDomain } from '../../src/email/free-mail.ts';
import { emailValidationCost } from '../../src/email/service.ts';
import { DomainBuckets, HostSemaphores } from '../../src/email/politeness.ts';

describe('address syntax', () => {
  it('accepts ordinary, tagged, quoted and international addresses', () => {
    assert.deepEqual(parseAddress('Jane.Doe+crm@Example.COM'), {
      local: 'Jane.Doe+crm',
      domain: 'example.com',
      address: 'Jane.Doe+crm@example.com',
    });
    assert.equal(parseAddress('"john smith"@example.com')?.local, '"john smith"');
    assert.equal(parseAddress('anna@münchen.de')?.domain, 'xn--mnchen-3ya.de');
    assert.equal(parseAddress('josé@example.com')?.local, 'josé');
    // Invisible characters never pass: IDNA would even drop some of them from the domain.
    for (const hidden of ['jo\u200bhn@example.com', 'john@gm\u200bail.com', 'jo\u00adhn@example.com', 'jo\u202ehn@example.com'])
      assert.equal(parseAddress(hidden), null, JSON.stringify(hidden));
    assert.equal(parseAddress(`${'a'.repeat(64)}@example.com`)?.local.length, 64);
  });

  it('refuses what is not a single deliverable addr-spec', () => {
    for (const bad of [
      '',
      'plain',
      'a@b',
      'a@localhost',
      '@example.com',
      'a@@example.com',
      'a..b@example.com',
      '.a@example.com',
      'a@example..com',
      'a@-x.com',
      'a@x-.com',
      'Jane <jane@example.com>',
      'a@example.com (comment)',
      'a@[192.0.2.1]',
      `${'a'.repeat(65)}@example.com`,
      `a@${'b'.repeat(64)}.com`,
      `a@${'abcdefghi.'.repeat(26)}com`,
      'a b@example.com',
      'a@example.c0m',
      'a@exa_mple.com',
      'a@example.com\r\nRCPT TO:<x@y.com>',
    ]) {
      assert.equal(parseAddress(bad), null, bad);
    }
  });

  it('the quick split of plain addresses answers exactly as the full parser', () => {
    const inputs = [
      'user12@d042.fleet.test',
      'Jane.Doe+crm@Example.COM',
      "o'brien@example.ie",
      'a!#$%&*/=?^_`{|}~-@x.io',
      'a.b.c@sub.domain.example.org',
      ' padded@example.com ',
      'x@xn--mnchen-3ya.de',
      'x@xn--bad.com',
      'x@xn--.com',
      'a@-x.com',
      'a@x-.com',
      'a@x.c0m',
      'a@exa_mple.com',
      'a@b',
      'a@example.com.',
      `${'a'.repeat(64)}@example.com`,
      `${'a'.repeat(65)}@example.com`,
      `a@${'b'.repeat(64)}.com`,
      `a@${'abcdefghi.'.repeat(26)}com`,
      `${'a'.repeat(60)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`,
    ];
    for (const input of inputs) assert.deepEqual(parseAddress(input), parseAddressFully(input), input);
  });
});

describe('providers and gateways', () => {
  const cases: [string[], string | null, boolean][] = [
    [['aspmx.l.google.com', 'alt1.aspmx.l.google.com'], 'Google', false],
    [['contoso-com.mail.protection.outlook.com'], 'Microsoft', false],
    [['mta5.am0.yahoodns.net'], 'Yahoo', false],
    [['mx.zoho.eu'], 'Zoho', false],
    [['in1-smtp.messagingengine.com'], 'Fastmail', false],
    [['mail.protonmail.ch'], 'Proton', false],
    [['smtp.secureserver.net'], 'GoDaddy', false],
    [['mx1.emailsrvr.com'], 'Rackspace', false],
    [['mx.yandex.net'], 'Yandex', false],
    [['emx.mail.ru'], 'Mail.ru', false],
    [['inbound-smtp.us-east-1.amazonaws.com'], 'Amazon WorkMail', false],
    [['mx0a-00176a03.pphosted.com'], 'Proofpoint', true],
    [['eu-smtp-inbound-1.mimecast.com'], 'Mimecast', true],
    [['d123.ess.barracudanetworks.com'], 'Barracuda', true],
    [['mx1.hc4567-89.iphmx.com'], 'Cisco Secure Email', true],
    [['acme.in.tmes.trendmicro.eu'], 'Trend Micro', true],
    [['mx-01-eu-west-1.prod.hydra.sophos.com'], 'Sophos', true],
    [['cluster1.eu.mailcontrol.com'], 'Forcepoint', true],
    [['cluster9.us.messagelabs.com'], 'Broadcom (Symantec)', true],
    [['mx01.hornetsecurity.com'], 'Hornetsecurity', true],
    [['mx.spamexperts.com'], 'SpamExperts', true],
    [['mailstream-east.mxrecord.io'], 'Cloudflare', true],
    [['acme.fortimailcloud.com'], 'Fortinet', true],
    [['mail.acme-corp.co.uk'], 'acme-corp.co.uk', false],
    [[], null, false],
  ];
  for (const [hosts, provider, gateway] of cases) {
    it(`${hosts[0] ?? '(none)'} → ${provider}${gateway ? ' (gateway)' : ''}`, () => {
      const identity = identifyMx(hosts);
      assert.equal(identity.provider, provider);
      assert.equal(identity.gateway !== null, gateway);
    });
  }
  it('a gateway in front of a known provider reports both', () => {
    const identity = identifyMx(['mx0a.pphosted.com', 'aspmx.l.google.com']);
    assert.equal(identity.provider, 'Google');
    assert.equal(identity.gateway, 'Proofpoint');
  });
  it('suffixes match whole labels only', () => {
    assert.equal(identifyMx(['mx.notgoogle.com']).provider, 'notgoogle.com');
    assert.equal(registrableDomain('mx1.mail.example.com.au'), 'example.com.au');
  });
  it('Microsoft is probed one RCPT per session', () => {
    assert.equal(identifyMx(['x.mail.protection.outlook.com']).oneRcptPerSession, true);
    assert.equal(identifyMx(['aspmx.l.google.com']).oneRcptPerSession, false);
  });
});

describe('SSRF guard, free mail, price, politeness', () => {
  it('only public unicast addresses are probed', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      // IPv4-compatible IPv6 written in hex: 127.0.0.1, 10.0.0.7, and 8.8.8.8 (the range is never a mail host).
      '::7f00:1',
      '::a00:7',
      '::808:808',
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      'not-an-ip',
    ]) {
      assert.equal(isPublicAddress(ip), false, ip);
    }
    for (const ip of ['8.8.8.8', '142.250.1.27', '2a00:1450:4001:81c::201b', '::ffff:8.8.8.8']) assert.equal(isPublicAddress(ip), true, ip);
  });
  it('free-mail domains', () => {
    assert.equal(isFreeMailDomain('GMAIL.com'), true);
    assert.equal(isFreeMailDomain('initech.com'), false);
  });
  it('0.05 credits for definite answers only', () => {
    assert.deepEqual(
      ['valid', 'valid_catch_all', 'invalid', 'catch_all', 'unknown'].map((s) => emailValidationCost(s as never)),
      [50, 50, 50, 0, 0],
    );
  });
  it('per-host slots queue the excess and hand over in order', async () => {
    const slots = new HostSemaphores(2);
    const a = await slots.acquire('mx');
    const b = await slots.acquire('mx');
    let third = false;
    const c = slots.acquire('mx').then((release) => ((third = true), release));
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(third, false);
    a();
    (await c)();
    assert.equal(third, true);
    b();
    const controller = new AbortController();
    const d1 = await slots.acquire('x');
    const d2 = await slots.acquire('x');
    const waiting = slots.acquire('x', controller.signal);
    controller.abort();
    await assert.rejects(waiting);
    d1();
    d2();
  });
  it('per-domain token bucket spaces out a burst', async () => {
    const buckets = new DomainBuckets(600); // 10 per second, burst 60
    const started = Date.now();
    for (let i = 0; i < 62; i += 1) await buckets.take('burst.test');
    assert.ok(Date.now() - started >= 150, 'the 61st and 62nd session waited for tokens');
  });
});
