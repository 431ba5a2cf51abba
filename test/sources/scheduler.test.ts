import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Services } from '../../src/services.ts';
import { openCrawlServices, type CrawlServices } from '../support/crawl-services.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { GREENHOUSE_GA, GREENHOUSE_STRIPE, greenhouseBoard, startCrawlWorld, type CrawlWorld } from './crawl-world.ts';
import { backoffMs } from '../../src/sources/scheduler.ts';
import { readFileSync } from 'node:fs';

const CRAWL_ENV = {
  CRAWL_TICK_MS: '50',
  CRAWL_HOST_INTERVAL_MS: '0',
  CRAWL_TIMEOUT_MS: '800',
  CRAWL_MAX_BYTES: String(256 * 1024),
  CRAWL_RETRY_MS: '60000',
  CRAWL_PAUSE_AFTER: '3',
  CRAWL_USER_AGENT: 'leadbase-test (ops@example.test)',
};

for (const target of dbTargets) {
  describe(`scheduled crawls (${target.name})`, { skip: target.skip }, () => {
    let world: CrawlWorld;
    let other: CrawlWorld;
    let database: TestDatabase;
    let services: Services;
    let store: CrawlServices;

    before(async () => {
      world = await startCrawlWorld();
      other = await startCrawlWorld();
      ({ database, services } = store = await openCrawlServices(target, { env: CRAWL_ENV, allowHosts: [world.host] }));
    });
    after(async () => {
      await store?.close();
      await world.close();
      await other.close();
    });

    const add = async (locator: string, extra: Record<string, string> = {}) =>
      (await services.sources.registry.add({ type: 'greenhouse', locator, base_url: world.origin, ...extra })).source;
    const run = async (id: number, options = {}) => (await services.sources.scheduler.runNow(id, options))!;
    const source = async (id: number) => (await services.sources.registry.get(id))!;
    const live = async (board: string) =>
      Number(
        (
          await database.db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('board', '=', board)
            .where('expired', '=', 0)
            .executeTakeFirst()
        )?.n,
      );

    it('imports a recorded board, then sends its validators: a 304 costs a history row and nothing else', async () => {
      greenhouseBoard(world, 'stripe', () => GREENHOUSE_STRIPE, { etag: '"v1"' });
      const s = await add('stripe', { company_name: 'Stripe', company_website: 'stripe.com' });
      const first = await run(Number(s.id));
      assert.equal(first.outcome, 'changed', first.error ?? '');
      assert.ok(first.counts.inserted >= 5, JSON.stringify(first.counts));
      assert.equal(await live('stripe'), first.counts.inserted);
      const second = await run(Number(s.id));
      assert.equal(second.outcome, 'not_modified');
      const jobsRequests = world.log.filter((l) => l.path.startsWith('/v1/boards/stripe/jobs'));
      assert.equal(jobsRequests.at(-1)!.ifNoneMatch, '"v1"');
      assert.equal(jobsRequests.at(-1)!.userAgent, 'leadbase-test (ops@example.test)');
      const history = await services.sources.registry.history(Number(s.id));
      assert.deepEqual(
        history.map((h) => h.outcome),
        ['not_modified', 'changed'],
      );
      const after = await source(Number(s.id));
      assert.ok(after.last_success_at! >= after.last_change_at!);
      assert.equal(await live('stripe'), first.counts.inserted, 'a 304 expires nothing');
    });

    it('adding the same source twice is one source', async () => {
      const a = await services.sources.registry.add({ type: 'greenhouse', locator: 'Acme', base_url: world.origin });
      const b = await services.sources.registry.add({
        type: 'greenhouse',
        locator: 'https://boards.greenhouse.io/acme',
        base_url: world.origin,
      });
      assert.equal(a.created, true);
      assert.equal(b.created, false);
      assert.equal(b.source.id, a.source.id);
    });

    it("a link to a board on Lever's EU instance keeps that instance's API as the source's base", async () => {
      const { source: eu } = await services.sources.registry.add({ type: 'lever', locator: 'https://jobs.eu.lever.co/mobileye/' });
      assert.equal(eu.locator, 'mobileye');
      assert.equal(eu.base_url, 'https://api.eu.lever.co');
      // An operator's own base_url wins.
      const { source: own } = await services.sources.registry.add({
        type: 'lever',
        locator: 'https://jobs.eu.lever.co/acme-eu',
        base_url: world.origin,
      });
      assert.equal(own.base_url, world.origin);
    });

    it('a 429 honours Retry-After; a 500 backs off, and the source is paused after three failures in a row', async () => {
      world.route('/v1/boards/busy/jobs', (_request, response) => {
        response.statusCode = 429;
        response.setHeader('retry-after', '7200');
        response.end('{"error":"slow down"}');
      });
      const busy = await add('busy');
      const started = Date.now();
      const limited = await run(Number(busy.id));
      assert.equal(limited.outcome, 'failed');
      assert.equal(limited.httpStatus, 429);
      assert.ok(Number((await source(Number(busy.id))).next_run_at) >= started + 7_200_000, 'not before Retry-After');
      const host = await database.db.selectFrom('crawl_hosts').selectAll().where('host', '=', world.host).executeTakeFirstOrThrow();
      assert.ok(Number(host.next_fetch_at) >= started + 7_200_000 - 1000, "the host's next turn waits too");
      await database.db.updateTable('crawl_hosts').set({ next_fetch_at: 0 }).execute();

      world.route('/v1/boards/broken/jobs', (_request, response) => {
        response.statusCode = 500;
        response.end('<html>oops</html>');
      });
      const broken = await add('broken');
      for (let i = 1; i <= 3; i++) {
        const before = Date.now();
        const result = await run(Number(broken.id));
        const after = Date.now();
        assert.equal(result.outcome, 'failed');
        const row = await source(Number(broken.id));
        assert.equal(row.consecutive_failures, i);
        if (i < 3) {
          // The delay counts from the failure, some time between before and after (a busy machine's run can take a while).
          const base = 60_000 * 2 ** (i - 1);
          const next = Number(row.next_run_at);
          assert.ok(
            next - before >= base * 0.75 - 100 && next - after <= base * 1.25 + 100,
            `backoff ${next - before} (run took ${after - before} ms)`,
          );
          assert.equal(row.status, 'active');
        } else {
          assert.equal(row.status, 'paused');
          assert.match(row.status_reason!, /3 consecutive failures.*HTTP 500/);
        }
      }
    });

    it('a slow body, an oversized body and an error body fail the run and expire nothing', async () => {
      let phase: 'good' | 'slow' | 'huge' | 'error' = 'good';
      greenhouseBoard(world, 'ga', () => GREENHOUSE_GA);
      world.route('/v1/boards/ga/jobs', async (_request, response) => {
        response.setHeader('content-type', 'application/json');
        if (phase === 'good') return void response.end(GREENHOUSE_GA);
        if (phase === 'error') return void response.end('{"error":"board not found"}');
        if (phase === 'huge') return void response.end(`{"jobs":[${'{"id":1,"title":"x"},'.repeat(20_000)}{"id":2,"title":"y"}]}`);
        response.write('{"jobs":[');
        await new Promise((resolve) => setTimeout(resolve, 3000));
        response.end(']}');
      });
      const ga = await add('ga');
      assert.equal((await run(Number(ga.id))).outcome, 'changed');
      const before = await live('ga');
      assert.ok(before > 0);
      for (const [name, pattern] of [
        ['slow', /no complete answer within 800 ms/],
        ['huge', /larger than the 262144-byte cap/],
        ['error', /not a Greenhouse board response.*error response/],
      ] as const) {
        phase = name;
        const result = await run(Number(ga.id));
        assert.equal(result.outcome, 'failed', name);
        assert.match(result.error!, pattern);
        assert.equal(await live('ga'), before, `${name}: nothing expired`);
      }
    });

    it('a redirect to a private or loopback address is refused', async () => {
      world.route('/v1/boards/metadata/jobs', (_request, response) => {
        response.statusCode = 302;
        response.setHeader('location', 'http://169.254.169.254/latest/meta-data/');
        response.end();
      });
      world.route('/v1/boards/sideways/jobs', (_request, response) => {
        response.statusCode = 302;
        response.setHeader('location', `http://localhost:${other.port}/v1/boards/sideways/jobs`);
        response.end();
      });
      for (const board of ['metadata', 'sideways']) {
        const result = await run(Number((await add(board)).id));
        assert.equal(result.outcome, 'failed');
        assert.match(result.error!, /not a public address/, board);
      }
      assert.equal(other.hits.size, 0, 'the private target was never reached');
    });

    it('a board that empties is held for the operator, and expires only when the operator says so', async () => {
      let empty = false;
      greenhouseBoard(world, 'emptying', () => (empty ? '{"jobs":[]}' : GREENHOUSE_STRIPE));
      const s = await add('emptying');
      assert.equal((await run(Number(s.id))).outcome, 'changed');
      const count = await live('emptying');
      empty = true;
      const held = await run(Number(s.id));
      assert.equal(held.outcome, 'held');
      const row = await source(Number(s.id));
      assert.equal(row.status, 'held');
      assert.match(row.status_reason!, new RegExp(`${count} of the board's ${count} live listings vanished`));
      assert.equal(await live('emptying'), count);
      await services.sources.scheduler.tick();
      assert.equal((await source(Number(s.id))).claim_token, null, 'a held source is not scheduled');
      const forced = await run(Number(s.id), { allowMassExpiry: true });
      assert.equal(forced.outcome, 'changed');
      assert.equal(forced.counts.expired, count);
      assert.equal((await source(Number(s.id))).status, 'active');
    });

    it("reads a recorded feed into its company's news (Form D data sets: test/sources/formd.test.ts)", async () => {
      await services.companies.upsertCompany({ name: 'Guardian News & Media', domain: 'theguardian.com' }, 'test');
      world.route('/us/rss', (_request, response) => {
        response.setHeader('content-type', 'application/rss+xml');
        response.setHeader('last-modified', 'Tue, 30 Jan 2018 12:00:00 GMT');
        response.end(readFileSync('test/fixtures/real/companies/feeds/guardian-us.rss'));
      });
      world.route('/robots.txt', (_request, response) => void response.end('User-agent: *\nDisallow: /private\n'));
      const feed = (await services.sources.registry.add({ type: 'feed', locator: `${world.origin}/us/rss` })).source;
      const read = await run(Number(feed.id));
      assert.equal(read.outcome, 'changed', read.error ?? '');
      assert.ok(read.counts.inserted > 0);
      assert.equal((await source(Number(feed.id))).last_modified, 'Tue, 30 Jan 2018 12:00:00 GMT');
      const again = await run(Number(feed.id));
      assert.equal(again.outcome, 'unchanged', 'the same items again change nothing');
      assert.equal(world.log.filter((l) => l.path === '/us/rss').at(-1)!.ifModifiedSince, 'Tue, 30 Jan 2018 12:00:00 GMT');
      const hidden = (await services.sources.registry.add({ type: 'feed', locator: `${world.origin}/private/rss` })).source;
      const refused = await run(Number(hidden.id));
      assert.match(refused.error!, /robots.txt .* does not allow/);
    });

    it("a run another instance holds is refused; once that instance's lease lapses (it crashed), the source runs", async () => {
      greenhouseBoard(world, 'leased', () => GREENHOUSE_GA);
      const s = await add('leased');
      await database.db
        .updateTable('sources')
        .set({ claim_token: 'crashed-instance', claimed_until: Date.now() + 60_000 })
        .where('id', '=', s.id)
        .execute();
      assert.equal(await services.sources.scheduler.runNow(Number(s.id)), null, 'held by another instance');
      await services.sources.scheduler.tick();
      assert.equal((await source(Number(s.id))).claim_token, 'crashed-instance', 'a tick never takes a live claim');
      await database.db
        .updateTable('sources')
        .set({ claimed_until: Date.now() - 1 })
        .where('id', '=', s.id)
        .execute();
      const result = await run(Number(s.id));
      assert.equal(result.outcome, 'changed');
      const row = await source(Number(s.id));
      assert.equal(row.claim_token, null);
      assert.equal(row.claimed_until, null);
    });

    it('backoff doubles per failure, is capped by the interval, and is jittered', () => {
      const settings = { retryBaseMs: 1000, retryCapMs: 60_000 };
      assert.equal(
        backoffMs(1, settings, 3_600_000, () => 0.5),
        1000,
      );
      assert.equal(
        backoffMs(4, settings, 3_600_000, () => 0.5),
        8000,
      );
      assert.equal(
        backoffMs(20, settings, 3_600_000, () => 0.5),
        60_000,
      );
      assert.equal(
        backoffMs(20, settings, 10_000, () => 0.5),
        10_000,
      );
      assert.equal(
        backoffMs(1, settings, 3_600_000, () => 0),
        750,
      );
      assert.equal(
        backoffMs(1, settings, 3_600_000, () => 1),
        1250,
      );
    });
  });
}
