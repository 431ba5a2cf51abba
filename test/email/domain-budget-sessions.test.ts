// The recipient domain's session budget holds however the prober overlaps it with the connection:
// no transaction (MAIL FROM) reaches the mail host before its session was granted, on each store
// the limits can count in. The budget here is 5 at once and one more every 10 s; eight validations
// of one domain at a one-recipient-per-session host start together with a 5 s deadline (the sixth
// session would be due only after 10 s).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type FakeMx, type MailWorld } from '../support/fake-smtp.ts';
import { dbTargets, REDIS_SKIP, REDIS_URL } from '../support/db.ts';
import { loadConfig } from '../../src/platform/config.ts';

const [sqlite, postgres] = dbTargets;
const stores = [
  { limits: 'local' as const, target: sqlite, skip: sqlite.skip },
  { limits: 'database' as const, target: postgres, skip: postgres.skip },
  { limits: 'redis' as const, target: postgres, skip: postgres.skip || REDIS_SKIP },
];
/** Sessions per minute: a burst of 5 (the least a bucket holds), then one every 10 s. */
const PER_MINUTE = 6;

for (const { limits, target, skip } of stores) {
  describe(`a domain's session budget with the connection opened alongside (limits: ${limits})`, { skip }, () => {
    let world: MailWorld;
    let mx: FakeMx;
    let t: TestApp;

    before(async () => {
      world = await startMailWorld();
      mx = await world.domain('budget.test', {
        mailboxes: Array.from({ length: 8 }, (_, i) => `u${i}`),
        oneRcptPerSession: true,
        startTls: false,
        mxHost: 'budget-test.mail.protection.outlook.com',
      });
      t = await startTestApp(target, {
        redisUrl: limits === 'redis' ? REDIS_URL : undefined,
        deps: {
          config: loadConfig({ CRAWL_ENABLED: '0' }),
          email: {
            ...world.emailConfig,
            recheckPollMs: 3_600_000,
            deadlineMs: 5000,
            maxSessionsPerMxHost: 20,
            domainSessionsPerMinute: PER_MINUTE,
            probeLimits: limits,
            probeLimitsNamespace: `budget-${randomBytes(4).toString('hex')}`,
          },
        },
      });
    });
    after(async () => {
      await t?.close();
      await world?.close();
    });

    it('lets no more transactions reach the host than the budget granted', async () => {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => t.services.email.validateDetailed({ email: `u${i}@budget.test` })),
      );
      assert.ok(mx.transactions() <= 5, `${mx.transactions()} transactions on a budget of 5 (and one per 10 s)`);
      assert.ok(mx.transactions() >= 1, 'the budget let the first sessions through');
      // Past the budget, the deadline answers unknown rather than asking the host anyway.
      const unknown = answers.filter((a) => a.validation.email_status === 'unknown').length;
      assert.ok(unknown >= 3, `${unknown} of 8 unknown`);
    });
  });
}
