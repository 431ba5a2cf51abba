// Discovery on real links: a page published by someone else that lists the careers pages of 366
// geospatial companies (test/fixtures/real/ORIGINS.md, "Sources"). 34 of them are boards of
// supported ATSs; the others are company sites and ATSs we do not read (Workday, iCIMS, BambooHR,
// JazzHR, LinkedIn…), which must never be taken for a board.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HttpClient } from '../../src/net/http-client.ts';
import { RobotsRules } from '../../src/net/robots.ts';
import { BoardDiscovery } from '../../src/sources/discovery.ts';
import { boardOfUrl } from '../../src/sources/ats-links.ts';
import { startCrawlWorld, type CrawlWorld } from './crawl-world.ts';

const PAGE = readFileSync('test/fixtures/real/sources/autogeojobs-tracked-companies.html', 'utf8');
const LINKS = [...PAGE.matchAll(/<a href="([^"]+)">/g)].map((m) => m[1].replaceAll('&amp;', '&'));

/** What each supported board link of the page names (read off the page by hand). */
const BOARDS = [
  'lever:aidash',
  'lever:albedo',
  'lever:apolloagriculture',
  'lever:Arturo',
  'lever:aurorainsight',
  'workable:betterview',
  'lever:capeanalytics',
  'workable:carbonplan',
  'greenhouse:climavision',
  'greenhouse:floodbase',
  'recruitee:constellr',
  // Real Lever site names can carry a dot.
  'lever:descarteslabs.com',
  'workable:draxis',
  'lever:foam',
  // A brand page under its parent company's SmartRecruiters account: the account is the board.
  'smartrecruiters:Verisk',
  'lever:Hivemapper',
  'workable:hydrosat',
  'workable:hyperverge',
  'lever:indigoag',
  'lever:jupiterintel',
  'lever:kairosaerospace',
  'recruitee:kayrros1',
  'personio:motiontag',
  'smartrecruiters:Nearmap',
  'greenhouse:nearspacelabs',
  'workable:1spatial',
  'lever:orbitalsidekick',
  'workable:pix4d',
  'lever:regrow.ag',
  'lever:sylvera',
  'workable:terrafuse',
  'recruitee:traveltime',
  'lever:unacast',
  'recruitee:up42gmbh',
];

describe('real careers links (366 geospatial companies)', () => {
  it('names the board of every supported ATS link and takes nothing else for one', () => {
    assert.equal(LINKS.length, 366);
    const named = LINKS.map(boardOfUrl)
      .filter((b) => b !== null)
      .map((b) => `${b.type}:${b.board}`);
    assert.deepEqual(named, BOARDS);
    const unsupported = LINKS.filter((l) => /myworkdayjobs|icims|bamboohr|applytojob|linkedin\.com|csod\.com|paylocity|eightfold/.test(l));
    assert.ok(unsupported.length >= 15, `${unsupported.length} links to ATSs we do not read`);
    for (const link of unsupported) assert.equal(boardOfUrl(link), null, link);
  });

  describe('as a page discovery reads', () => {
    let site: CrawlWorld;
    let http: HttpClient;
    before(async () => {
      site = await startCrawlWorld();
      site.route('/', (_request, response) => {
        response.setHeader('content-type', 'text/html; charset=utf-8');
        response.end('<a href="/careers">Careers</a>');
      });
      site.route('/careers', (_request, response) => {
        response.setHeader('content-type', 'text/html; charset=utf-8');
        response.end(PAGE);
      });
      http = new HttpClient({ userAgent: 'leadbase-test', allowPrivateHosts: [site.host], timeoutMs: 2000 });
    });
    after(async () => {
      await http.close();
      await site.close();
    });

    it('finds the same 34 boards on the page, each noted where it was found', async () => {
      const found = await new BoardDiscovery(http, new RobotsRules(http)).discover(site.origin);
      assert.deepEqual(found.boards.map((b) => `${b.type}:${b.board}`).sort(), [...BOARDS].sort());
      assert.ok(found.boards.every((b) => b.foundOn === `${site.origin}/careers`));
    });
  });
});
