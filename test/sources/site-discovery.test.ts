// Bounded discovery over the companies' sites (`discover --from-companies --limit N`, bootstrap), and
// the reasons a page is not read: robots.txt forbidding it is not the same as a host that does not resolve.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HttpClient } from '../../src/net/http-client.ts';
import { RobotsRules } from '../../src/net/robots.ts';
import { BoardDiscovery } from '../../src/sources/discovery.ts';
import { SourceRegistry } from '../../src/sources/registry.ts';
import { companiesToDiscover, discoverFromCompanies } from '../../src/sources/site-discovery.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { startCrawlWorld, type CrawlWorld } from './crawl-world.ts';

describe('why a page is not read', () => {
  let world: CrawlWorld;
  let http: HttpClient;
  before(async () => {
    world = await startCrawlWorld();
    http = new HttpClient({ userAgent: 'leadbase-test', allowPrivateHosts: [world.host], timeoutMs: 5000 });
  });
  after(async () => {
    await http.close();
    await world.close();
  });

  it('a name that does not resolve says so, in the client and in robots.txt, never "robots.txt does not allow it"', async () => {
    await assert.rejects(http.get('https://nowhere.invalid/'), /https:\/\/nowhere\.invalid: could not resolve host nowhere\.invalid/);
    const verdict = await new RobotsRules(http).check('https://nowhere.invalid/careers');
    assert.equal(verdict.allowed, false);
    assert.ok(
      !verdict.allowed && /^could not resolve host nowhere\.invalid .*its robots\.txt could not be read/.test(verdict.reason),
      JSON.stringify(verdict),
    );
  });

  it('robots.txt forbidding a page, and robots.txt answering 503, are told apart', async () => {
    world.route('/robots.txt', (_request, response) => void response.end('User-agent: *\nDisallow: /private\n'));
    const robots = new RobotsRules(http);
    assert.deepEqual(await robots.check(`${world.origin}/careers`), { allowed: true });
    assert.deepEqual(await robots.check(`${world.origin}/private/jobs`), { allowed: false, reason: 'robots.txt does not allow it' });
    world.route('/robots.txt', (_request, response) => {
      response.statusCode = 503;
      response.end('busy');
    });
    const busy = await new RobotsRules(http).check(`${world.origin}/careers`);
    assert.ok(!busy.allowed && busy.reason.startsWith('robots.txt answered HTTP 503'), JSON.stringify(busy));
  });
});

for (const target of dbTargets) {
  describe(`discovery over the stored companies (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let companies: CompanyService;
    let registry: SourceRegistry;
    let http: HttpClient;
    before(async () => {
      database = await target.open();
      companies = new CompanyService({ db: database.db });
      registry = new SourceRegistry({ db: database.db });
      http = new HttpClient({ userAgent: 'leadbase-test', timeoutMs: 5000 });
      for (const [name, domain, employees] of [
        ['Small Co', 'small.invalid', 12],
        ['Unknown Size Co', 'unknown.invalid', null],
        ['Big Co', 'big.invalid', 90_000],
        ['Mid Co', 'mid.invalid', 800],
        ['Done Co', 'done.invalid', 500_000],
      ] as const)
        await companies.upsertCompany({ name, domain, employee_count: employees }, 'test');
      await companies.upsertCompany({ name: 'No Site Co' }, 'test');
      // A site discovery already read: its board is registered, linked to it.
      await registry.add({
        type: 'greenhouse',
        locator: 'doneco',
        company_website: 'done.invalid',
        discovered_from: 'https://done.invalid/careers',
      });
    });
    after(async () => {
      await http.close();
      await database.destroy();
    });

    it('takes the biggest companies first (unknown sizes last), skipping sites already discovered, at most the limit', async () => {
      assert.deepEqual(
        (await companiesToDiscover(companies, registry, 10)).map((s) => s.domain),
        ['big.invalid', 'mid.invalid', 'small.invalid', 'unknown.invalid'],
      );
      assert.deepEqual(
        (await companiesToDiscover(companies, registry, 2)).map((s) => s.name),
        ['Big Co', 'Mid Co'],
      );
    });

    it('reads that many sites, reporting progress after each, and says why a site could not be read', async () => {
      const progress: string[] = [];
      const summary = await discoverFromCompanies(
        { discovery: new BoardDiscovery(http, new RobotsRules(http)), registry, companies },
        { limit: 2, maxPages: 2, onSite: ({ site }, done, total) => progress.push(`${done}/${total} ${site.domain}`) },
      );
      assert.deepEqual(progress, ['1/2 big.invalid', '2/2 mid.invalid']);
      assert.equal(summary.sites, 2);
      assert.equal(summary.pagesRead, 0);
      assert.equal(summary.registered, 0);
      assert.deepEqual(
        summary.unreadable.map((u) => u.site),
        ['big.invalid', 'mid.invalid'],
      );
      assert.match(summary.unreadable[0].cause, /could not resolve host big\.invalid/);
    });

    it('remembers the sites it read (not on a dry run), so the next bounded run goes on with the next companies', async () => {
      const discovery = new BoardDiscovery(http, new RobotsRules(http));
      assert.deepEqual([...(await registry.sitesRead())].sort(), ['big.invalid', 'mid.invalid']);
      await discoverFromCompanies({ discovery, registry, companies }, { limit: 1, maxPages: 1, dryRun: true });
      assert.deepEqual(
        (await companiesToDiscover(companies, registry, 10)).map((s) => s.domain),
        ['small.invalid', 'unknown.invalid'],
      );
    });
  });
}
