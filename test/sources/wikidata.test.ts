import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Services } from '../../src/services.ts';
import { openCrawlServices, type CrawlServices } from '../support/crawl-services.ts';
import { HostPoliteness } from '../../src/sources/politeness.ts';
import { SourceRunner } from '../../src/sources/runner.ts';
import type { SourceRow } from '../../src/sources/tables.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { request } from 'node:http';
import { startMirror, startWikidataUpstream, type WikidataUpstream } from '../support/upstreams/wikidata.ts';

const USER_AGENT = 'leadbase-test/1.0 (ops@example.test)';
const CRAWL_ENV = {
  CRAWL_HOST_INTERVAL_MS: '0',
  CRAWL_TIMEOUT_MS: '10000',
  CRAWL_USER_AGENT: USER_AGENT,
};
const NOVEMBER = Date.UTC(2026, 10, 20);
const DECEMBER = Date.UTC(2026, 11, 3);

for (const target of dbTargets) {
  describe(`wikidata companies source (${target.name})`, { skip: target.skip }, () => {
    let upstream: WikidataUpstream;
    let database: TestDatabase;
    let services: Services;
    let store: CrawlServices;
    let runner: SourceRunner;
    let source: SourceRow;

    before(async () => {
      upstream = await startWikidataUpstream();
      ({ database, services } = store = await openCrawlServices(target, { env: CRAWL_ENV, allowHosts: [new URL(upstream.url).host] }));
      runner = new SourceRunner({
        db: database.db,
        http: services.sources.http,
        robots: services.sources.robots,
        politeness: new HostPoliteness({ db: database.db, minIntervalMs: 0 }),
        jobs: services.jobs,
        companies: services.companies,
        people: services.people,
      });
      source = (await services.sources.registry.add({ type: 'wikidata', base_url: upstream.url })).source;
    });
    after(async () => {
      await store?.close();
      await upstream?.close();
    });

    const company = (domainOrName: { domain?: string; name?: string }) =>
      services.companies.resolve({ company_domain: domainOrName.domain, company_name: domainOrName.name });
    const parts = async () =>
      (await database.db.selectFrom('source_parts').select('part').where('source_id', '=', Number(source.id)).execute()).map((r) => r.part);

    it('is a source type with the endpoint as its default locator and a monthly interval', () => {
      assert.equal(source.locator, 'https://query.wikidata.org/sparql');
      assert.equal(Number(source.interval_ms), 30 * 24 * 3600_000);
    });

    it('a failed page (an answer cut by the service) fails the run and stores nothing of its range', async () => {
      // WDQS answers 200 and then, when a query runs out of time, cuts the answer and appends the exception.
      const cut =
        '{\n  "head" : {\n    "vars" : [ "company" ]\n  },\n  "results" : {\n    "bindings" : [ {\n      "company" : { "type" : "uri", "value" : "http://www.wik';
      upstream.failNext({ kind: 'detail', status: 200, body: `${cut}\njava.util.concurrent.TimeoutException` });
      const result = await runner.run(source, { now: NOVEMBER });
      assert.equal(result.outcome, 'failed');
      assert.match(result.error ?? '', /not SPARQL JSON results/);
      assert.deepEqual(await parts(), []);
      assert.equal(await company({ domain: 'apple.com' }), null);
    });

    it('reads every listed company page by page, one query at a time, with our User-Agent', async () => {
      upstream.log.length = 0;
      const result = await runner.run(source, { now: NOVEMBER });
      assert.equal(result.outcome, 'changed', result.error ?? '');
      assert.equal(result.counts.read, 4);
      assert.equal(result.counts.refused, 0);
      assert.equal(upstream.peakConcurrent, 1);
      assert.ok(upstream.log.every((l) => l.userAgent === USER_AGENT));
      assert.equal(upstream.log.filter((l) => l.kind === 'listing').length, 10);
      assert.ok(upstream.log.some((l) => l.kind === 'detail'));
      assert.ok((await parts()).every((p) => p.startsWith('2026-11:Q')));

      const apple = (await company({ domain: 'apple.com' }))!;
      assert.ok(apple, 'Apple is found by its website domain');
      assert.equal(apple.name, 'Apple Inc.');
      assert.equal(apple.prof_url, 'www.linkedin.com/company/apple');
      assert.equal(apple.social_b_url, 'https://x.com/Apple');
      assert.equal(apple.founded_year, 1976);
      assert.equal(apple.locality, 'cupertino');
      assert.equal(apple.country_code, 'US');
      assert.equal(apple.geo, '37.3175,-122.0419');
      assert.equal(Number(apple.employee_count), 161000);
      assert.equal(apple.industry, 'consumer electronics');
      assert.equal(apple.company_type, 'public');
      assert.equal(Number(apple.revenue), 383285000000, 'the most recent revenue in US dollars');
      const leaders = await services.companies.leadersOf(Number(apple.id));
      assert.deepEqual(leaders.map((l) => [l.role, l.first_name, l.last_name]).sort(), [
        ['ceo', 'Tim', 'Cook'],
        ['founder', 'Steve', 'Jobs'],
        ['founder_2', 'Steve', 'Wozniak'],
      ]);
      const ids = await database.db
        .selectFrom('company_external_ids')
        .select(['kind', 'value'])
        .where('company_id', '=', apple.id)
        .orderBy('kind')
        .execute();
      assert.deepEqual(
        ids.map((x) => [x.kind, x.value]),
        [
          ['ticker', 'Nasdaq:AAPL'],
          ['wikidata', 'Q312'],
        ],
      );

      // The recorded answers without a website still make companies by name, with their HQ and parent.
      const volvo = (await company({ name: 'Volvo Cars' }))!;
      assert.equal(volvo.locality, 'gothenburg');
      assert.equal(volvo.country_code, 'SE');
      assert.equal(volvo.ownership, 'subsidiary of Geely');
      const google = (await company({ name: 'Google' }))!;
      assert.equal(google.ownership, 'subsidiary of Alphabet Inc.');

      // Parent, subsidiaries and acquisitions are stored as relations, with their items and start dates.
      const relations = async (id: number) =>
        (
          await database.db
            .selectFrom('company_relations')
            .select(['relation', 'company_name', 'wikidata_id', 'since', 'source'])
            .where('company_id', '=', id)
            .orderBy('relation')
            .orderBy('company_name')
            .execute()
        ).map((r) => [r.relation, r.company_name, r.wikidata_id, r.since === null ? null : Number(r.since), r.source]);
      assert.deepEqual(await relations(Number(volvo.id)), [['parent', 'Geely', 'Q739000', null, 'wikidata']]);
      assert.deepEqual(await relations(Number(google.id)), [
        ['acquired', 'YouTube', 'Q866', Date.UTC(2006, 10, 13), 'wikidata'],
        ['parent', 'Alphabet Inc.', 'Q20800404', null, 'wikidata'],
        ['subsidiary', 'YouTube', 'Q866', null, 'wikidata'],
      ]);
      assert.deepEqual(await relations(Number(apple.id)), []);
      // The company answer gives them (an extension field), parent first.
      const profile = (await services.companies.profile({ company_name: 'Google' }))!;
      assert.deepEqual(profile.relations, [
        { relation: 'parent', company_name: 'Alphabet Inc.', wikidata_id: 'Q20800404', since: null, source: 'wikidata' },
        { relation: 'subsidiary', company_name: 'YouTube', wikidata_id: 'Q866', since: null, source: 'wikidata' },
        { relation: 'acquired', company_name: 'YouTube', wikidata_id: 'Q866', since: '2006-11-13T00:00:00.000Z', source: 'wikidata' },
      ]);
      assert.deepEqual((await services.companies.profile({ company_domain: 'apple.com' }))!.relations, []);
    });

    it('an interrupted run resumes at the first range not done', async () => {
      await database.db.deleteFrom('source_parts').execute();
      upstream.log.length = 0;
      // The recorded items fall in two ranges (Q95, Q312, Q3884; Q215293): the second one's query fails.
      upstream.failNext({ kind: 'detail', skip: 1, status: 502, body: 'Bad Gateway' });
      const stopped = await runner.run(source, { now: NOVEMBER });
      assert.equal(stopped.outcome, 'failed');
      assert.deepEqual(await parts(), ['2026-11:Q0-Q99999']);
      upstream.log.length = 0;
      const resumed = await runner.run(source, { now: NOVEMBER });
      assert.equal(resumed.outcome, 'unchanged', resumed.error ?? '');
      assert.equal(resumed.counts.read, 1, 'only the range not done is read again');
      assert.equal(upstream.log.filter((l) => l.kind === 'detail').length, 1);
      assert.deepEqual((await parts()).sort(), ['2026-11:Q0-Q99999', '2026-11:Q200000-Q299999']);
    });

    it('a later run of the same month skips the ranges it holds; next month reads them again and matches by QID', async () => {
      upstream.log.length = 0;
      const again = await runner.run(source, { now: NOVEMBER + 3600_000 });
      assert.equal(again.outcome, 'unchanged', again.error ?? '');
      assert.equal(upstream.log.filter((l) => l.kind === 'detail').length, 0);

      const next = await runner.run(source, { now: DECEMBER });
      assert.equal(next.outcome, 'unchanged', next.error ?? '');
      assert.ok(upstream.log.filter((l) => l.kind === 'detail').length > 0);
      assert.equal(next.counts.inserted, 0, 'every company is matched to the one stored (its Wikidata QID)');
      assert.equal(next.counts.read, 4);
      assert.ok((await parts()).some((p) => p.startsWith('2026-12:')));
    });

    it('waits out a 429 with its Retry-After and carries on; an error answer fails the run', async () => {
      await database.db.deleteFrom('source_parts').execute();
      upstream.log.length = 0;
      upstream.failNext({ status: 429, retryAfter: '1', body: 'Too Many Requests' });
      const result = await runner.run(source, { now: NOVEMBER });
      assert.equal(result.outcome, 'unchanged', result.error ?? '');
      assert.equal(result.counts.read, 4);
      assert.equal(upstream.log[0].status, 429);
      assert.equal(upstream.log[1].status, 200);

      await database.db.deleteFrom('source_parts').execute();
      upstream.failNext({ status: 200, body: '{"error":"query timeout"}' });
      const wrong = await runner.run(source, { now: NOVEMBER });
      assert.equal(wrong.outcome, 'failed');
      assert.match(wrong.error ?? '', /not SPARQL JSON results \(no head\.vars\)/);

      const empty = '{ "head" : { "vars" : [ "company" ] }, "results" : { "bindings" : [ ] } }';
      upstream.failNext(...Array.from({ length: 10 }, () => ({ kind: 'listing' as const, status: 200, body: empty })));
      const none = await runner.run(source, { now: NOVEMBER });
      assert.equal(none.outcome, 'failed');
      assert.match(none.error ?? '', /named no item/);

      upstream.failNext({ status: 500, body: 'java.util.concurrent.TimeoutException' });
      const error = await runner.run(source, { now: NOVEMBER });
      assert.equal(error.outcome, 'failed');
      assert.match(error.error ?? '', /HTTP 500/);
    });

    it('runs through the scheduler as a registered source type', async () => {
      const result = (await services.sources.scheduler.runNow(Number(source.id)))!;
      assert.notEqual(result.outcome, 'failed', result.error ?? '');
    });
  });
}

describe('the local Wikidata Query Service', () => {
  const get = (url: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      request(url, { headers }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
        .on('error', reject)
        .end();
    });

  it('serves the recorded answers at /sparql, like the service refusing a request without a User-Agent', async () => {
    const mirror = await startMirror();
    try {
      assert.equal(mirror.name, 'wikidata');
      const query = encodeURIComponent('SELECT ?company WHERE { VALUES ?company { wd:Q95 } { ?company wdt:P856 ?website . } }');
      assert.equal((await get(`${mirror.url}/sparql?query=${query}&format=json`)).status, 403);
      const answer = await get(`${mirror.url}/sparql?query=${query}&format=json`, { 'user-agent': USER_AGENT });
      assert.equal(answer.status, 200);
      assert.match(answer.body, /"value" : "Google"/);
    } finally {
      await mirror.close();
    }
  });
});
