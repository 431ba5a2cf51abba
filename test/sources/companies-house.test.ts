import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FetchError, HttpClient } from '../../src/net/http-client.ts';
import type { Services } from '../../src/services.ts';
import { openCrawlServices, type CrawlServices } from '../support/crawl-services.ts';
import { sourceParts } from '../../src/sources/parts.ts';
import { newestRelease } from '../../src/sources/kinds/companies_house/index.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import {
  currentReleaseDate,
  sampleRelease,
  startCompaniesHouseServer,
  startMirror,
  type CompaniesHouseServer,
} from '../support/upstreams/companies-house.ts';

const CRAWL_ENV = {
  CRAWL_TICK_MS: '50',
  CRAWL_HOST_INTERVAL_MS: '0',
  CRAWL_TIMEOUT_MS: '10000',
  CRAWL_RETRY_MS: '60000',
  CRAWL_USER_AGENT: 'leadbase-test (ops@example.test)',
};

describe('the Companies House download page', () => {
  it("finds the newest release's parts (all of them) or its one file, relative to the page", () => {
    // The page's markup as recorded (test/fixtures/real/ORIGINS.md), with an older release beside it.
    const page = `<div class="grid_7 push_1 omega">
<ul><li><a href="BasicCompanyDataAsOneFile-2018-02-01.zip">
BasicCompanyDataAsOneFile-2018-02-01.zip  (339Mb)</a></li></ul>
<h2>Company data as multiple files:</h2>
<ul>
<li><a href="BasicCompanyData-2018-02-01-part1_2.zip">
BasicCompanyData-2018-02-01-part1_2.zip  (69Mb)</a></li>
<li><a href="BasicCompanyData-2018-02-01-part2_2.zip">
BasicCompanyData-2018-02-01-part2_2.zip  (69Mb)</a></li>
<li><a href="/archive/BasicCompanyDataAsOneFile-2018-01-01.zip">old</a></li>
</ul>
</div>`;
    const release = newestRelease(page, 'https://download.companieshouse.gov.uk/en_output.html')!;
    assert.equal(release.date, '2018-02-01');
    assert.deepEqual(
      release.files.map((f) => f.url),
      [
        'https://download.companieshouse.gov.uk/BasicCompanyData-2018-02-01-part1_2.zip',
        'https://download.companieshouse.gov.uk/BasicCompanyData-2018-02-01-part2_2.zip',
      ],
    );
    const onePart = page.replace(/<li><a href="BasicCompanyData-2018-02-01-part2_2.zip">[^<]*<\/a><\/li>/, '');
    assert.deepEqual(
      newestRelease(onePart, 'https://download.companieshouse.gov.uk/en_output.html')!.files.map((f) => f.name),
      ['BasicCompanyDataAsOneFile-2018-02-01.zip'],
      'a part missing from the page: the one file',
    );
    assert.equal(newestRelease('<html>maintenance</html>', 'https://download.companieshouse.gov.uk/en_output.html'), null);
  });
});

describe('downloading a large file through the guarded client', () => {
  it('streams the body to disk, refuses one over the cap, and writes nothing for a 404', async () => {
    const server = await startCompaniesHouseServer({});
    const dir = mkdtempSync(join(tmpdir(), 'leadbase-download-'));
    const http = new HttpClient({ userAgent: 'leadbase-test (ops@example.test)', allowPrivateHosts: [new URL(server.url).host] });
    try {
      const date = currentReleaseDate();
      const url = `${server.url}/BasicCompanyDataAsOneFile-${date}.zip`;
      const ok = await http.download(url, join(dir, 'one.zip'), { maxBytes: 1024 * 1024 });
      assert.equal(ok.status, 200);
      assert.deepEqual(readFileSync(join(dir, 'one.zip')), (sampleRelease(date).oneFile as { body: Buffer }).body);
      assert.equal(ok.bytes, readFileSync(join(dir, 'one.zip')).length);
      await assert.rejects(
        http.download(url, join(dir, 'capped.zip'), { maxBytes: 100 }),
        (error: Error) => error instanceof FetchError && error.reason === 'too_large',
      );
      const missing = await http.download(`${server.url}/nothing.zip`, join(dir, 'missing.zip'), { maxBytes: 1024 });
      assert.equal(missing.status, 404);
      assert.equal(existsSync(join(dir, 'missing.zip')), false);
      const refused = new HttpClient({ userAgent: 'leadbase-test (ops@example.test)' });
      await assert.rejects(refused.download(url, join(dir, 'private.zip'), { maxBytes: 1024 }), /not a public address/);
      await refused.close();
    } finally {
      await http.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

for (const target of dbTargets) {
  describe(`companies_house sources (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let services: Services;
    let store: CrawlServices;
    const servers: CompaniesHouseServer[] = [];
    const hosts: string[] = [];
    let mirror: { name: string; url: string; close(): Promise<void> };

    // Every server is started before the services, whose guarded client may reach only them.
    const start = async (options: Parameters<typeof startCompaniesHouseServer>[0]) => {
      const server = await startCompaniesHouseServer(options);
      servers.push(server);
      return server;
    };
    let listed: CompaniesHouseServer;
    let unlisted: CompaniesHouseServer;
    let broken: CompaniesHouseServer;
    before(async () => {
      mirror = await startMirror();
      const date = currentReleaseDate();
      listed = await start({});
      unlisted = await start({ listLinks: false, parts: [], oneFile: sampleRelease(date).oneFile });
      broken = await start({ parts: [{ body: Buffer.from('<html>Access denied</html>') }, ...sampleRelease(date).parts.slice(1)] });
      for (const s of [mirror, ...servers]) hosts.push(new URL(s.url).host);
      ({ database, services } = store = await openCrawlServices(target, { env: CRAWL_ENV, allowHosts: hosts }));
    });
    after(async () => {
      await store?.close();
      for (const s of servers) await s.close();
      await mirror?.close();
    });

    // The mirror as the source's base_url under the published locator; the other servers as the locator itself.
    const add = async (server: { url: string }) =>
      (
        await services.sources.registry.add(
          server === mirror
            ? { type: 'companies_house', base_url: mirror.url }
            : { type: 'companies_house', locator: `${server.url}/en_output.html` },
        )
      ).source;
    const run = async (id: number) => (await services.sources.scheduler.runNow(id))!;
    const parts = async (id: number) => {
      const rows = await database.db.selectFrom('source_parts').select(['part', 'counts']).where('source_id', '=', id).execute();
      return new Map(rows.map((r) => [r.part, r.counts ? (JSON.parse(r.counts) as Record<string, unknown>) : null]));
    };

    it("reads this month's release from the mirror (published page and paths), part by part, then skips it", async () => {
      const source = await add(mirror);
      assert.equal(source.locator, 'https://download.companieshouse.gov.uk/en_output.html');
      const first = await run(Number(source.id));
      assert.equal(first.outcome, 'changed', first.error ?? '');
      assert.equal(first.counts.read, 31);
      assert.equal(first.counts.refused, 0);
      assert.equal(first.counts.inserted, 31);
      const date = currentReleaseDate();
      const done = await parts(Number(source.id));
      assert.deepEqual(done.get(`BasicCompanyData-${date}-part1_2.zip`)?.found_by, 'listing');
      assert.ok(done.has(`BasicCompanyData-${date}-part2_2.zip`));
      assert.ok(done.has(`release ${date}`));
      const company = await services.companies.matchByName('!OBAC UK LIMITED');
      assert.equal(company?.locality, 'tadley');

      const second = await run(Number(source.id));
      assert.equal(second.outcome, 'unchanged', second.error ?? '');
      assert.equal(second.counts.read, 0, 'a release stored whole is not read again');
    });

    it('sends our User-Agent, and resumes inside a part from its last checkpoint', async () => {
      const source = await add(listed);
      const date = currentReleaseDate();
      // An earlier run stored part 1 and the first 10 rows of part 2, then stopped.
      const progress = sourceParts(database.db, Number(source.id));
      await progress.markDone(`BasicCompanyData-${date}-part1_2.zip`);
      await progress.markDone(`BasicCompanyData-${date}-part2_2.zip#rows=10`);
      const result = await run(Number(source.id));
      assert.equal(result.outcome, 'unchanged', result.error ?? ''); // the same companies as the mirror's
      assert.equal(result.counts.read, 15 - 10, 'part 2 holds 15 rows; 10 were stored');
      // (The server answers 403 to a request that names no sender and contact.)
      assert.deepEqual(listed.requests, ['/en_output.html', `/BasicCompanyData-${date}-part2_2.zip`]);
      assert.equal((await parts(Number(source.id))).get(`BasicCompanyData-${date}-part2_2.zip`)?.resumed_at_row, 10);
    });

    it("a page that links no file: this month's file by its name, and the run says so", async () => {
      const source = await add(unlisted);
      const result = await run(Number(source.id));
      assert.equal(result.outcome, 'unchanged', result.error ?? '');
      assert.equal(result.counts.read, 31);
      const date = currentReleaseDate();
      assert.equal((await parts(Number(source.id))).get(`BasicCompanyDataAsOneFile-${date}.zip`)?.found_by, 'month name');
    });

    it('a part that is not a zip fails the run and is not marked; a file that is gone fails with its status', async () => {
      const source = await add(broken);
      const result = await run(Number(source.id));
      assert.equal(result.outcome, 'failed');
      assert.match(result.error!, /part1_2\.zip: not a Companies House basic company data CSV/);
      assert.equal((await parts(Number(source.id))).size, 0);

      const date = currentReleaseDate();
      broken.serve(`/BasicCompanyData-${date}-part1_2.zip`, undefined);
      const gone = await run(Number(source.id));
      assert.equal(gone.outcome, 'failed');
      assert.match(gone.error!, /answered HTTP 404/);
      const zip = readFileSync('test/fixtures/real/companies/companies-house/BasicCompanyData-2018-02-01-part1_2.zip');
      broken.serve(`/BasicCompanyData-${date}-part1_2.zip`, { body: zip });
      const fixed = await run(Number(source.id));
      assert.equal(fixed.outcome, 'changed', fixed.error ?? '');
      assert.equal(fixed.counts.read, 9 + 15);
    });

    it('refuses a locator that is no address', async () => {
      await assert.rejects(
        services.sources.registry.add({ type: 'companies_house', locator: 'BasicCompanyData please' }),
        /address of the download page/,
      );
    });
  });
}
