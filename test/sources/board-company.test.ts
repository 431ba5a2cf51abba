// A scheduled Lever board is stored under the company its page names, so a search by that name finds
// its jobs; a name the source gives wins and the page is not asked for.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Services } from '../../src/services.ts';
import { openCrawlServices, type CrawlServices } from '../support/crawl-services.ts';
import { dbTargets } from '../support/db.ts';
import { startCrawlWorld, type CrawlWorld } from './crawl-world.ts';

const CRAWL_ENV = { CRAWL_HOST_INTERVAL_MS: '0', CRAWL_TIMEOUT_MS: '5000', CRAWL_USER_AGENT: 'leadbase-test (ops@example.test)' };
const postings = (board: string) =>
  JSON.stringify(
    ['Backend Engineer', 'Data Analyst'].map((text, i) => ({
      id: `${board}-${i}`,
      text,
      hostedUrl: `https://jobs.lever.co/${board}/${board}-${i}`,
      categories: { location: 'Jakarta, Indonesia', commitment: 'Full-time' },
      // A day old whenever the test runs, so inside /jobs-finder's default 30 days.
      createdAt: Date.now() - 86_400_000,
      descriptionPlain: 'Join us.',
    })),
  );

for (const target of dbTargets) {
  describe(`a scheduled board's company (${target.name})`, { skip: target.skip }, () => {
    let world: CrawlWorld;
    let services: Services;
    let store: CrawlServices;
    before(async () => {
      world = await startCrawlWorld();
      ({ services } = store = await openCrawlServices(target, { env: CRAWL_ENV, allowHosts: [world.host] }));
      for (const board of ['gotogroup', 'named'])
        world.route(`/v0/postings/${board}`, (_request, response) => {
          response.setHeader('content-type', 'application/json');
          response.end(postings(board));
        });
      world.route('/gotogroup', (_request, response) => {
        response.setHeader('content-type', 'text/html');
        response.end('<!DOCTYPE html><html><head><title>GoTo Group</title></head><body></body></html>');
      });
    });
    after(async () => {
      await store?.close();
      await world.close();
    });

    it('a Lever board named only by its token is stored under the name its page gives, and found by it', async () => {
      const { source } = await services.sources.registry.add({ type: 'lever', locator: 'gotogroup', base_url: world.origin });
      const run = (await services.sources.scheduler.runNow(Number(source.id)))!;
      assert.equal(run.outcome, 'changed', run.error ?? '');
      const found = await services.jobs.search({ company_name: 'GoTo Group' });
      assert.equal(found.total_count, 2);
      assert.equal((await services.jobs.search({ company_name: 'gotogroup' })).total_count, 0, 'not under its token');
    });

    it("the source's own company name wins, and the board's page is not fetched", async () => {
      const { source } = await services.sources.registry.add({
        type: 'lever',
        locator: 'named',
        base_url: world.origin,
        company_name: 'Named Holdings',
      });
      const run = (await services.sources.scheduler.runNow(Number(source.id)))!;
      assert.equal(run.outcome, 'changed', run.error ?? '');
      assert.equal((await services.jobs.search({ company_name: 'Named Holdings' })).total_count, 2);
      assert.equal(world.hits.get('/named') ?? 0, 0);
    });

    it('a board whose page cannot be read fails its run with the command that names it', async () => {
      world.route('/v0/postings/nameless', (_request, response) => void response.end(postings('nameless')));
      const { source } = await services.sources.registry.add({ type: 'lever', locator: 'nameless', base_url: world.origin });
      const run = (await services.sources.scheduler.runNow(Number(source.id)))!;
      assert.equal(run.outcome, 'failed');
      assert.match(run.error ?? '', /the lever board "nameless" names no company .*leadbase sources add lever nameless --company-name/);
    });
  });
}
