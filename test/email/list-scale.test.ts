// Most addresses of a real list sit on a handful of mail hosts. A burst to one host must flow
// through its few allowed connections: a validation waiting for the host is handed the next kept
// connection (or freed slot) as soon as there is one, in arrival order, never left to wait for
// an idle timer.
// A cold burst to one domain asks once whether it accepts everyone; UTF-8 local parts go only to
// hosts that offer SMTPUTF8.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { openSqlite, type TestDatabase } from '../support/db.ts';
import { createEmailValidationService, type EmailValidationService } from '../../src/email/service.ts';

const ADDRESSES = 200;
const CONCURRENCY = 50;

describe('mail hosts at list scale', () => {
  let world: MailWorld;
  let database: TestDatabase;
  let service: EmailValidationService;

  before(async () => {
    world = await startMailWorld();
    database = await openSqlite();
    service = createEmailValidationService({
      db: database.db,
      dialect: database.dialect,
      config: {
        ...world.emailConfig,
        maxSessionsPerMxHost: 5,
        domainSessionsPerMinute: 100_000,
        sessionIdleMs: 5000,
      },
      recheckWorker: false,
    });
  });
  after(async () => {
    await service?.close();
    await world.close();
    await database.destroy();
  });

  it(`${ADDRESSES} addresses at concurrency ${CONCURRENCY}, 5 connections allowed, 20 ms replies: no deadline, p95 under 2 s`, async (t) => {
    const mailboxes = Array.from({ length: ADDRESSES }, (_, i) => `user${i}`);
    const mx = await world.domain('busy-host.test', { mailboxes, tarpitMs: 20 });
    // Known not to be a catch-all: this test is about the connections, not the catch-all probe.
    await service.validate({ email: 'user0@busy-host.test' });

    const latencies: number[] = [];
    const statuses = new Map<string, number>();
    let next = 1;
    const worker = async () => {
      while (next < ADDRESSES) {
        const email = `user${next++}@busy-host.test`;
        const started = performance.now();
        const result = await service.validate({ email });
        latencies.push(performance.now() - started);
        statuses.set(result.email_status, (statuses.get(result.email_status) ?? 0) + 1);
      }
    };
    const burstStarted = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - burstStarted) / 1000;

    latencies.sort((a, b) => a - b);
    const p95 = latencies[Math.floor(latencies.length * 0.95)];
    t.diagnostic(`${(latencies.length / seconds).toFixed(1)} validations/s, p95 ${p95.toFixed(0)} ms, ${mx.connections()} connections`);
    assert.deepEqual(Object.fromEntries(statuses), { valid: ADDRESSES - 1 }, 'every address answered, none unknown');
    assert.ok(p95 < 2000, `p95 ${p95.toFixed(0)} ms`);
    // Each connection carries up to EMAIL_SESSION_REUSE_MAX (20) transactions, so about ten suffice.
    assert.ok(mx.connections() <= Math.ceil(ADDRESSES / 20) + 5, `kept connections carried the burst (${mx.connections()} opened)`);
  });

  it('a cold burst to one domain asks whether it accepts everyone once, and the others wait for that verdict', async () => {
    const catchAll = await world.domain('cold-catch-all.test', { acceptAll: true, tarpitMs: 20 });
    const strict = await world.domain('cold-strict.test', { mailboxes: Array.from({ length: 100 }, (_, i) => `m${i}`), tarpitMs: 20 });
    const burst = (domain: string) =>
      Promise.all(Array.from({ length: 100 }, (_, i) => service.validate({ email: `m${i}@${domain}` }).then((r) => r.email_status)));
    const probesTo = (mx: { rcpts: readonly string[] }, domain: string) =>
      mx.rcpts.filter((r) => r.toLowerCase().endsWith(`@${domain}`) && !/^m\d+@/.test(r)).length;

    assert.deepEqual(new Set(await burst('cold-catch-all.test')), new Set(['catch_all']));
    assert.equal(probesTo(catchAll, 'cold-catch-all.test'), 1, 'one random address asked');
    assert.deepEqual(new Set(await burst('cold-strict.test')), new Set(['valid']));
    assert.equal(probesTo(strict, 'cold-strict.test'), 1, 'one random address asked');
  });

  it('a UTF-8 local part is asked with SMTPUTF8 where the host offers it, and not asked at all where it does not', async () => {
    const offering = await world.domain('utf8-offered.test', { mailboxes: ['josé'] });
    const refusing = await world.domain('utf8-missing.test', { mailboxes: ['josé'], smtpUtf8: false });
    assert.equal((await service.validate({ email: 'josé@utf8-offered.test' })).email_status, 'valid');
    assert.ok(offering.rcpts.includes('josé@utf8-offered.test'));
    assert.equal((await service.validate({ email: 'josé@utf8-missing.test' })).email_status, 'unknown');
    assert.equal(refusing.rcpts.filter((r) => r.startsWith('jos')).length, 0, 'nothing was sent');
  });

  it('addresses of one domain waiting together share a transaction, each RCPT answered on its own', async (t) => {
    const mailboxes = Array.from({ length: 60 }, (_, i) => `p${i}`);
    const mx = await world.domain('shared-transactions.test', { mailboxes, tarpitMs: 20 });
    await service.validate({ email: 'p0@shared-transactions.test' });
    const before = mx.transactions();
    // 60 that exist and 40 that do not, all at once.
    const emails = Array.from({ length: 100 }, (_, i) => `p${i}@shared-transactions.test`);
    const results = await Promise.all(emails.map((email) => service.validate({ email }).then((r) => [email, r.email_status] as const)));
    for (const [email, status] of results)
      assert.equal(status, Number(email.slice(1, email.indexOf('@'))) < 60 ? 'valid' : 'invalid', email);
    const transactions = mx.transactions() - before;
    t.diagnostic(`${transactions} transactions for 99 addresses`);
    assert.ok(transactions <= 20, `${transactions} transactions for 99 addresses`);
  });

  it('a host that takes fewer recipients per transaction (452 4.5.3) is asked in smaller transactions, every address answered', async () => {
    const mx = await world.domain('few-recipients.test', {
      mailboxes: Array.from({ length: 50 }, (_, i) => `q${i}`),
      maxRcptsPerTransaction: 4,
    });
    await service.validate({ email: 'q0@few-recipients.test' });
    const emails = Array.from({ length: 50 }, (_, i) => `q${i}@few-recipients.test`);
    const statuses = await Promise.all(emails.map((email) => service.validate({ email }).then((r) => r.email_status)));
    assert.deepEqual(new Set(statuses), new Set(['valid']));
    assert.ok(mx.transactions() >= 50 / 4, 'no transaction carried more than the host takes');
  });

  it('a host that cuts a session after a few recipients: the addresses it did not answer are asked again on their own', async () => {
    await world.domain('cuts-sessions.test', { mailboxes: Array.from({ length: 20 }, (_, i) => `r${i}`), dropAfterRcpts: 3 });
    await service.validate({ email: 'r0@cuts-sessions.test' });
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => service.validate({ email: `r${i}@cuts-sessions.test` }).then((r) => r.email_status)),
    );
    assert.deepEqual(new Set(statuses), new Set(['valid']));
  });
});
