import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Services } from '../../src/services.ts';
import { openCrawlServices, type CrawlServices } from '../support/crawl-services.ts';
import { HostPoliteness } from '../../src/sources/politeness.ts';
import { formDQuarters } from '../../src/sources/kinds/formd/index.ts';
import { dbTargets, openSqlite, type TestDatabase } from '../support/db.ts';
import { startMirror, type SecMirror, type SecMirrorOptions } from '../support/upstreams/sec.ts';

const CRAWL_ENV = {
  CRAWL_HOST_INTERVAL_MS: '0',
  CRAWL_TIMEOUT_MS: '5000',
  CRAWL_USER_AGENT: 'leadbase-test (ops@example.test)',
};

const quarters = formDQuarters(Date.now()).map((q) => `${q.year}q${q.quarter}`);
const [lastYear, lastQuarter] = quarters.at(-1)!.split('q').map(Number);
const before_ = (year: number, quarter: number): [number, number] => (quarter === 1 ? [year - 1, 4] : [year, quarter - 1]);

for (const target of dbTargets) {
  describe(`SEC Form D data sets as a source (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let services: Services;
    let store: CrawlServices;
    let mirror: SecMirror;
    // Read at each request, so a test can publish a quarter or break one.
    const options: SecMirrorOptions & { broken?: string; drops?: Record<string, number> } = { perSecond: 1000 };

    before(async () => {
      mirror = await startMirror({
        get perSecond() {
          return options.perSecond;
        },
        get publishedThrough() {
          return options.publishedThrough;
        },
        zipOf: (year, quarter) => (options.broken === `${year}q${quarter}` ? Buffer.from('<html>Access denied</html>') : null),
        // Drops a quarter's connection as many times as the test says.
        drop: (year, quarter) => (options.drops?.[`${year}q${quarter}`] ?? 0) > 0 && options.drops![`${year}q${quarter}`]-- > 0,
      });
      ({ database, services } = store = await openCrawlServices(target, { env: CRAWL_ENV, allowHosts: [new URL(mirror.url).host] }));
    });
    after(async () => {
      await store?.close();
      await mirror?.close();
    });

    const run = async (id: number) => (await services.sources.scheduler.runNow(id))!;
    const parts = async (id: number) =>
      (await database.db.selectFrom('source_parts').select('part').where('source_id', '=', id).execute()).map((r) => r.part).sort();
    const fetched = (from: number) => mirror.log.slice(from).map((l) => l.path.match(/(\d{4}q\d)_d\.zip/)?.[1]);

    it('backfills every quarter from 2009Q1, oldest first; a quarter not yet published is tried again on the next run', async () => {
      options.publishedThrough = before_(lastYear, lastQuarter);
      options.drops = { '2012q3': 1 }; // a dropped connection is asked again, once
      const { source } = await services.sources.registry.add({ type: 'formd', base_url: mirror.url });
      assert.equal(source.locator, 'https://www.sec.gov/files/structureddata/data/form-d-data-sets/{year}q{quarter}_d.zip');
      const id = Number(source.id);
      const first = await run(id);
      assert.equal(first.outcome, 'changed', first.error ?? '');
      const answered = mirror.log.filter((l) => l.status !== 0).length;
      assert.deepEqual(
        fetched(0).filter((q, i) => mirror.log[i].status !== 0),
        quarters,
        'every quarter, oldest first, at the SEC paths',
      );
      assert.equal(mirror.log.length, answered + 1, 'the dropped one was asked again');
      assert.ok(mirror.log.every((l) => l.userAgent === 'leadbase-test (ops@example.test)'));
      assert.equal(first.counts.inserted, 2, JSON.stringify(first.counts)); // Nimbus and Globex
      assert.equal(first.counts.refused, 2, 'the pooled fund and the filing without a submission row are refused, and counted');
      assert.deepEqual(await parts(id), quarters.slice(0, -1).sort(), 'the quarter answering 404 is not written down');

      // What was imported answers /company-funding: the round, the address and phone, the related persons.
      const nimbus = (await services.companies.funding({ company_name: 'Nimbus Robotics' }))!;
      assert.ok(nimbus, 'Nimbus is found');
      assert.equal(nimbus.basicInfo.phone, '617-555-0100');
      assert.equal(nimbus.basicInfo.headquarters?.city, 'Boston');
      assert.equal(nimbus.basicInfo.headquarters?.country, 'United States');
      assert.equal(nimbus.financialInfo.lastFundingRound?.amount, 11_500_000);
      assert.equal(nimbus.leadership.ceo?.lastName, 'Lovelace');
      assert.equal((nimbus.leadership as Record<string, { lastName: string | null } | null>).cfo?.lastName, 'Babbage');
      assert.ok(nimbus.industryAndSectors.industries.length > 0);

      // Published since: the next run fetches that quarter only.
      options.publishedThrough = [lastYear, lastQuarter];
      const seen = mirror.log.length;
      const second = await run(id);
      assert.notEqual(second.outcome, 'failed', second.error ?? '');
      assert.deepEqual(fetched(seen), [quarters.at(-1)]);
      assert.deepEqual(await parts(id), [...quarters].sort());
      const third = await run(id);
      assert.equal(third.outcome, 'unchanged');
      assert.equal(mirror.log.length, seen + 1, 'nothing left to fetch');
    });

    it('a quarter that cannot be read fails the run without being written down; the next run resumes from it', async () => {
      options.publishedThrough = [lastYear, lastQuarter];
      options.broken = '2015q2';
      const { source } = await services.sources.registry.add({
        type: 'formd',
        locator: 'https://www.sec.gov/files/structureddata/data/form-d-data-sets/{year}q{quarter}_d.zip?resume',
        base_url: mirror.url,
      });
      const id = Number(source.id);
      const failed = await run(id);
      assert.equal(failed.outcome, 'failed');
      assert.match(failed.error!, /2015q2_d\.zip.*not a zip archive/);
      const held = await parts(id);
      assert.equal(held.length, quarters.indexOf('2015q2'), 'the quarters before it are stored whole');
      assert.ok(!held.includes('2015q2'));

      options.broken = undefined;
      const seen = mirror.log.length;
      const resumed = await run(id);
      assert.notEqual(resumed.outcome, 'failed', resumed.error ?? '');
      assert.deepEqual(fetched(seen), quarters.slice(quarters.indexOf('2015q2')));
      assert.deepEqual(await parts(id), [...quarters].sort());
    });

    it('a connection dropped twice fails the run', async () => {
      options.publishedThrough = [lastYear, lastQuarter];
      options.drops = { '2009q1': 2 };
      const { source } = await services.sources.registry.add({
        type: 'formd',
        locator: 'https://www.sec.gov/files/structureddata/data/form-d-data-sets/{year}q{quarter}_d.zip?dropped',
        base_url: mirror.url,
      });
      const failed = await run(Number(source.id));
      assert.equal(failed.outcome, 'failed');
      assert.match(failed.error!, /other side closed|socket|ECONNRESET/i);
      assert.deepEqual(await parts(Number(source.id)), []);
    });

    it('an old quarter answering 404, or any other error status, fails the run', async () => {
      options.publishedThrough = [lastYear, lastQuarter];
      options.perSecond = 0; // every request answers 429
      const { source } = await services.sources.registry.add({
        type: 'formd',
        locator: 'https://www.sec.gov/files/structureddata/data/form-d-data-sets/{year}q{quarter}_d.zip?limited',
        base_url: mirror.url,
      });
      const limited = await run(Number(source.id));
      assert.equal(limited.outcome, 'failed');
      assert.match(limited.error!, /HTTP 429/);
      assert.ok(limited.retryAfterMs! >= 1000, 'the Retry-After is kept');
      assert.deepEqual(await parts(Number(source.id)), []);
      options.perSecond = 1000;

      const { source: moved } = await services.sources.registry.add({
        type: 'formd',
        locator: 'https://www.sec.gov/files/structureddata/data/moved/{year}q{quarter}_d.zip',
        base_url: mirror.url,
      });
      const missing = await run(Number(moved.id));
      assert.equal(missing.outcome, 'failed');
      assert.match(missing.error!, /2009q1_d\.zip answered HTTP 404/);
    });

    it('refuses a locator that does not name the quarter', async () => {
      await assert.rejects(
        services.sources.registry.add({ type: 'formd', locator: 'https://www.sec.gov/files/form-d.zip' }),
        /a formd locator is a URL pattern with \{year\} and \{quarter\}/,
      );
      await assert.rejects(
        services.sources.registry.add({ type: 'formd', locator: 'https://user:secret@www.sec.gov/{year}q{quarter}_d.zip' }),
        /must not carry credentials/,
      );
      await assert.rejects(
        services.sources.registry.add({ type: 'formd', locator: 'ftp://www.sec.gov/{year}q{quarter}_d.zip' }),
        /http or https/,
      );
    });
  });
}

describe('per-host politeness', () => {
  it("spaces the SEC's requests 100 ms apart (10 per second), whatever the default interval", async () => {
    const database = await openSqlite();
    try {
      // A turn starts at the clock reading it was taken with (the last one before the fetch runs): the
      // fetch's own Date.now() would add the row update's time, which a loaded machine varies by tens of ms.
      let lastReading = 0;
      const now = () => (lastReading = Date.now());
      const politeness = new HostPoliteness({ db: database.db, minIntervalMs: 60_000, now });
      const starts: number[] = [];
      for (let i = 0; i < 4; i++) await politeness.inTurn('www.sec.gov', undefined, async () => ({ value: starts.push(lastReading) }));
      for (let i = 1; i < starts.length; i++) assert.ok(starts[i] - starts[i - 1] >= 95, `${starts[i] - starts[i - 1]} ms apart`);
      assert.ok(starts.at(-1)! - starts[0] < 10_000);
    } finally {
      await database.destroy();
    }
  });
});
