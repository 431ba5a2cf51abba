// A greylisted address of a bulk list is asked again inside the run that is validating the rest of
// the list, as soon as its retry time comes: not after the pass over the whole list, in a
// continuation queued behind the list's slowest host (issue 29). On each store the probe limits
// can count in: the process (SQLite), the database and Redis (PostgreSQL).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type FakeMx, type MailWorld } from '../support/fake-smtp.ts';
import { dbTargets, REDIS_SKIP, REDIS_URL } from '../support/db.ts';
import { until } from '../support/until.ts';
import { loadConfig } from '../../src/platform/config.ts';
import type { BulkJobView } from '../../src/email/bulk.ts';

const [sqlite, postgres] = dbTargets;
const stores = [
  { limits: 'local' as const, target: sqlite, skip: sqlite.skip },
  { limits: 'database' as const, target: postgres, skip: postgres.skip },
  { limits: 'redis' as const, target: postgres, skip: postgres.skip || REDIS_SKIP },
];
/** The slow host's reply: far longer than the greylisted address's wait and second look. */
const SLOW_MS = 3000;

for (const { limits, target, skip } of stores) {
  describe(`bulk greylist retries inside the running slice (limits: ${limits})`, { skip }, () => {
    let world: MailWorld;
    let grey: FakeMx;
    let t: TestApp;

    before(async () => {
      world = await startMailWorld();
      grey = await world.domain('grey.test', { mailboxes: ['ted'], greylist: true, greylistMs: 200 });
      await world.domain('slow.test', { mailboxes: ['sam'], tarpitMs: SLOW_MS });
      t = await startTestApp(target, {
        redisUrl: limits === 'redis' ? REDIS_URL : undefined,
        deps: {
          config: loadConfig({ BULK_GREYLIST_RETRY_MS: '300', CRAWL_ENABLED: '0' }),
          email: { ...world.emailConfig, recheckPollMs: 60_000, probeLimits: limits, probeLimitsNamespace: `greyslice-${process.pid}` },
        },
      });
    });
    after(async () => {
      await t?.close();
      await world?.close();
    });

    it('asks the greylisted address again while a slow host still holds the rest of the list', async () => {
      const started = Date.now();
      const res = await t.post('/email-validate/bulk', { emails: ['ted@grey.test', 'sam@slow.test'] });
      assert.equal(res.statusCode, 202, res.body);
      const { id } = res.json<BulkJobView>();
      const asks = () => grey.rcpts.filter((rcpt) => rcpt === 'ted@grey.test').length;
      await until(() => asks() >= 2, 30_000, 10);
      // The slow host has not answered yet: the second look came from the run still validating the list.
      const slow = await t.database.db
        .selectFrom('email_bulk_items')
        .select('result')
        .where('job_id', '=', id)
        .where('email', '=', 'sam@slow.test')
        .executeTakeFirstOrThrow();
      assert.equal(slow.result, null, `ted was asked again only after sam was answered (${Date.now() - started} ms)`);

      await until(async () => (await t.get(`/email-validate/bulk/${id}`)).json<BulkJobView>().status === 'done', 30_000, 50);
      const rows = (await t.get(`/email-validate/bulk/${id}/results`)).body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { email: string; email_status: string });
      assert.deepEqual(
        rows.map((r) => [r.email, r.email_status]),
        [
          ['ted@grey.test', 'valid'],
          ['sam@slow.test', 'valid'],
        ],
      );
      assert.equal(asks(), 2, 'asked once more, not again by a later pass');
    });
  });
}
