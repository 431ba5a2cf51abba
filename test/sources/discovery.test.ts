import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HttpClient } from '../../src/net/http-client.ts';
import { RobotsRules } from '../../src/net/robots.ts';
import { BoardDiscovery } from '../../src/sources/discovery.ts';
import { boardOfUrl } from '../../src/sources/ats-links.ts';
import { normalizeLocator } from '../../src/sources/registry.ts';
import { startCrawlWorld, type CrawlWorld } from './crawl-world.ts';

const JOB_PAGE = readFileSync('test/fixtures/real/jobs/jsonld/google-docs-software-engineer.html', 'utf8');

describe('ATS links', () => {
  it('names the board of each supported ATS, in each form a site links or embeds it', () => {
    const cases: [string, string, string][] = [
      ['https://boards.greenhouse.io/stripe', 'greenhouse', 'stripe'],
      ['https://job-boards.greenhouse.io/figma/jobs/5063520004', 'greenhouse', 'figma'],
      ['https://boards.greenhouse.io/embed/job_board/js?for=adaptivebiotechnologies', 'greenhouse', 'adaptivebiotechnologies'],
      ['https://boards.greenhouse.io/embed/job_board?for=acme&b=https%3A%2F%2Facme.com', 'greenhouse', 'acme'],
      ['https://boards-api.greenhouse.io/v1/boards/kaseya/jobs', 'greenhouse', 'kaseya'],
      ['https://jobs.lever.co/palantir', 'lever', 'palantir'],
      ['https://jobs.lever.co/couchbase/867eb7a8-6a2c-4f68-a80a-b6543485134c?Source=LI_Jobs', 'lever', 'couchbase'],
      ['https://api.lever.co/v0/postings/helpscout?mode=json', 'lever', 'helpscout'],
      ['https://jobs.ashbyhq.com/openai', 'ashby', 'openai'],
      ['https://jobs.ashbyhq.com/notion/embed', 'ashby', 'notion'],
      ['https://apply.workable.com/huggingface/', 'workable', 'huggingface'],
      ['https://apply.workable.com/api/v1/widget/accounts/wojsznis', 'workable', 'wojsznis'],
      ['https://wojsznis.workable.com/jobs/30606', 'workable', 'wojsznis'],
      ['https://careers.smartrecruiters.com/BoschGroup', 'smartrecruiters', 'BoschGroup'],
      ['https://jobs.smartrecruiters.com/Visa/744000012345678-engineer', 'smartrecruiters', 'Visa'],
      ['https://acme.recruitee.com/o/backend-engineer', 'recruitee', 'acme'],
      ['https://acme-gmbh.jobs.personio.de/job/123', 'personio', 'acme-gmbh'],
      ['https://acme.jobs.personio.com/', 'personio', 'acme'],
    ];
    for (const [url, type, board] of cases) assert.deepEqual(boardOfUrl(url), { type, board }, url);
    // Other instances and older hosts name the same kind of board. Lever's EU instance has an API of
    // its own, which the board carries; EU-hosted Greenhouse pages and Personio's retired
    // NAME-jobs.personio.de host are read at the usual API.
    assert.deepEqual(boardOfUrl('https://jobs.eu.lever.co/mobileye/3b1c9a1e'), {
      type: 'lever',
      board: 'mobileye',
      baseUrl: 'https://api.eu.lever.co',
    });
    assert.deepEqual(boardOfUrl('https://api.eu.lever.co/v0/postings/mobileye?mode=json'), {
      type: 'lever',
      board: 'mobileye',
      baseUrl: 'https://api.eu.lever.co',
    });
    assert.deepEqual(boardOfUrl('https://job-boards.eu.greenhouse.io/optimove'), { type: 'greenhouse', board: 'optimove' });
    assert.deepEqual(boardOfUrl('https://imusician-digital-jobs.personio.de/'), { type: 'personio', board: 'imusician-digital' });
    assert.deepEqual(normalizeLocator('lever', 'https://jobs.eu.lever.co/mobileye'), {
      locator: 'mobileye',
      key: 'mobileye',
      baseUrl: 'https://api.eu.lever.co',
    });
    for (const url of [
      'https://www.greenhouse.io/careers',
      'https://boards.greenhouse.io/',
      'https://jobs.lever.co/',
      'https://www.recruitee.com/',
      'https://app.recruitee.com/login',
      'https://www.workable.com/pricing',
      'https://example.com/careers',
      'mailto:jobs@example.com',
      'not a url',
    ])
      assert.equal(boardOfUrl(url), null, url);
  });
});

describe('board discovery', () => {
  let site: CrawlWorld;
  let bare: CrawlWorld;
  let http: HttpClient;
  let discovery: BoardDiscovery;

  before(async () => {
    site = await startCrawlWorld();
    bare = await startCrawlWorld();
    const html = (body: string) => (_request: unknown, response: import('node:http').ServerResponse) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><html><body>${body}</body></html>`);
    };
    site.route(
      '/robots.txt',
      (_request, response) => void response.end(`User-agent: *\nDisallow: /private\nSitemap: ${site.origin}/sitemap.xml\n`),
    );
    site.route(
      '/',
      html(
        '<nav><a href="/about">About</a> <a href="/company/join-us">Join&nbsp;us</a> <a href="/private/careers">Careers (staff)</a>' +
          ' <a href="https://twitter.com/acme">Twitter</a></nav>',
      ),
    );
    site.route(
      '/company/join-us',
      html(
        '<div id="grnhse_app"></div><script src="https://boards.greenhouse.io/embed/job_board/js?for=acme"></script>' +
          '<p>Our Berlin team hires on <a href="https://jobs.lever.co/acme-eu/">Lever</a>.</p>' +
          '<script>window.boards = ["https://jobs.ashbyhq.com/acme-labs"];</script>',
      ),
    );
    site.route('/about', html('<p>About us</p>'));
    site.route(
      '/sitemap.xml',
      (_request, response) =>
        void response.end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.origin}/about</loc></url>` +
            `<url><loc>${site.origin}/careers/software-engineer</loc></url></urlset>`,
        ),
    );
    site.route('/careers/software-engineer', html(JOB_PAGE));
    bare.route('/', html('<a href="/careers">Careers</a>'));
    bare.route('/careers', html('<p>Send your CV to jobs@example.com</p>'));
    http = new HttpClient({ userAgent: 'leadbase-test', allowPrivateHosts: [site.host, bare.host], timeoutMs: 2000 });
    discovery = new BoardDiscovery(http, new RobotsRules(http));
  });
  after(async () => {
    await http.close();
    await site.close();
    await bare.close();
  });

  it('finds ATS links and embeds on the careers pages, JobPosting data through the sitemap, and honours robots.txt', async () => {
    const found = await discovery.discover(site.origin);
    assert.deepEqual(found.boards.map((b) => `${b.type}:${b.board}`).sort(), ['ashby:acme-labs', 'greenhouse:acme', 'lever:acme-eu']);
    assert.equal(found.boards.find((b) => b.type === 'greenhouse')!.foundOn, `${site.origin}/company/join-us`);
    assert.deepEqual(found.jsonLdPages, [`${site.origin}/careers/software-engineer`]);
    assert.ok(
      found.notes.some((n) => n.includes('/private/careers: robots.txt does not allow it')),
      found.notes.join('\n'),
    );
    assert.equal(site.hits.get('/private/careers'), undefined, 'a disallowed page is never fetched');
  });

  it('says what it could not tell on a site with no ATS', async () => {
    const found = await discovery.discover(bare.origin);
    assert.deepEqual(found.boards, []);
    assert.deepEqual(found.jsonLdPages, []);
    assert.ok(found.pagesRead.includes(`${bare.origin}/careers`));
    assert.ok(
      found.notes.some((n) => /no supported ATS link or JobPosting data/.test(n)),
      found.notes.join('\n'),
    );
  });

  it('never reads a site on a private address', async () => {
    const guarded = new HttpClient({ userAgent: 'leadbase-test', timeoutMs: 2000 });
    try {
      const found = await new BoardDiscovery(guarded, new RobotsRules(guarded)).discover(site.origin);
      assert.deepEqual(found.pagesRead, []);
      assert.ok(
        found.notes.some((n) => /not a public address/.test(n)) || found.notes.some((n) => /robots/.test(n)),
        found.notes.join('\n'),
      );
    } finally {
      await guarded.close();
    }
  });
});
