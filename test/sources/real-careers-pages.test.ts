// Discovery on companies' own careers pages, as their sites' repositories publish them
// (test/fixtures/real/ORIGINS.md, "Careers pages"): one per supported ATS where one was found, a
// page with no ATS we read, and a careers page that also links to other companies' boards. Each
// page is served where a crawler would find it; the home page that links to it is the only part
// written here.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HttpClient } from '../../src/net/http-client.ts';
import { RobotsRules } from '../../src/net/robots.ts';
import { BoardDiscovery, type Discovery } from '../../src/sources/discovery.ts';
import { boardOfUrl } from '../../src/sources/ats-links.ts';
import { normalizeLocator } from '../../src/sources/registry.ts';
import { startCrawlWorld, type CrawlWorld } from './crawl-world.ts';

const page = (file: string) => readFileSync(`test/fixtures/real/sources/pages/${file}`, 'utf8');

interface Case {
  company: string;
  file: string;
  /** Where the page is served; '/' when it is the home page (a site-wide header or footer). */
  path: string;
  /** The home page's link to it, as the site's navigation names it. */
  linkText?: string;
  boards: string[];
}

const CASES: Case[] = [
  { company: 'LiveRamp', file: 'liveramp-page-job.php', path: '/careers/', linkText: 'Careers', boards: ['greenhouse:liveramp'] },
  { company: 'Temporal', file: 'temporal-careers.js', path: '/careers', linkText: 'Careers', boards: ['lever:temporal'] },
  {
    company: 'DiffUSE (Astera)',
    file: 'diffuse-work-with-us.md',
    path: '/work-with-us/',
    linkText: 'Work With Us',
    boards: ['ashby:astera'],
  },
  { company: 'Crazy Maple Studio', file: 'crazymaple-header.php', path: '/', boards: ['workable:crazymaplestudio'] },
  { company: 'Frontline Live', file: 'frontlinelive-footer.cshtml', path: '/', boards: ['smartrecruiters:frontlinelive'] },
  { company: 'Scoperty', file: 'scoperty-footer.component.html', path: '/', boards: ['personio:scoperty'] },
  { company: 'Hitachi DX research', file: 'hitachi-dx-recruitment.md', path: '/recruitment/', linkText: 'Recruitment', boards: [] },
];

/** Discovery on a site serving `body` at `path`, linked from its home page as `linkText` unless it is the home page. */
async function discoverOn(path: string, body: string, linkText?: string): Promise<Discovery> {
  const site: CrawlWorld = await startCrawlWorld();
  const http = new HttpClient({ userAgent: 'leadbase-test', allowPrivateHosts: [site.host], timeoutMs: 2000 });
  try {
    const html = (body: string) => (_request: unknown, response: import('node:http').ServerResponse) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(body);
    };
    site.route(path, html(body));
    if (path !== '/') site.route('/', html(`<nav><a href="${path}">${linkText}</a></nav>`));
    return await new BoardDiscovery(http, new RobotsRules(http)).discover(site.origin);
  } finally {
    await http.close();
    await site.close();
  }
}

describe("real companies' careers pages", () => {
  const found = new Map<string, Discovery>();
  before(async () => {
    for (const c of CASES) found.set(c.company, await discoverOn(c.path, page(c.file), c.linkText));
  });

  for (const c of CASES)
    it(`${c.company}: ${c.boards.length ? c.boards.join(', ') : 'no board of an ATS we read'}`, () => {
      const result = found.get(c.company)!;
      assert.deepEqual(
        result.boards.map((b) => `${b.type}:${b.board}`),
        c.boards,
      );
      for (const board of result.boards) assert.ok(board.foundOn.endsWith(c.path), board.foundOn);
    });

  it("Temporal's own board is the one its page embeds (Lever's embed options), not the other companies' boards it links to", () => {
    const result = found.get('Temporal')!;
    const elsewhere = result.notes.filter((n) => n.includes("taken for another company's"));
    assert.deepEqual(elsewhere.map((n) => /board "([^"]+)"/.exec(n)?.[1]).sort(), ['nightfall', 'nylas']);
    // The same page links a job on Workday: said, as an ATS we do not read.
    assert.deepEqual(
      result.otherAts.map((o) => o.ats),
      ['Workday'],
    );
  });

  it("Scoperty's link is to Personio's older host: the same board, read at its current host", () => {
    assert.deepEqual(normalizeLocator('personio', 'https://scoperty-jobs.personio.de/'), { locator: 'scoperty', key: 'scoperty' });
    assert.deepEqual(boardOfUrl('https://scoperty.jobs.personio.de/'), { type: 'personio', board: 'scoperty' });
  });

  it('a page whose jobs are on an ATS we do not read says which one and where', () => {
    const result = found.get('Hitachi DX research')!;
    assert.deepEqual(result.otherAts, [{ ats: 'JPosting', url: 'https://hitachi.jposting.net/joblist/', foundOn: result.pagesRead[1] }]);
    assert.ok(result.pagesRead[1].endsWith('/recruitment/'), 'the "Recruitment" link is followed as a careers page');
    assert.ok(result.notes.some((n) => n.includes('JPosting') && n.includes('an ATS leadbase does not read')));
    assert.ok(result.notes.some((n) => n.startsWith('no supported ATS link')));
  });
});

describe('embeds that name no board', () => {
  it('says which ATS a page embeds when a script picks the board, and registers nothing for it', async () => {
    // The shapes of the Greenhouse, Workable and Recruitee embeds as sites paste them, with the
    // board chosen at run time (Workable's by a numeric account id that is not a board name).
    const result = await discoverOn(
      '/careers',
      '<div id="grnhse_app"></div><script src="/js/careers.js"></script>' +
        "<script>whr_embed(407621, {detail: 'titles', base: 'jobs'});</script><div id=\"whr_embed_hook\"></div>" +
        '<div id="recruitee-careers"></div>',
      'Careers',
    );
    assert.deepEqual(result.boards, []);
    const said = result.notes.filter((n) => n.includes('embed whose board a script chooses'));
    assert.deepEqual(
      said.map((n) => /a (\w+) job-board embed/.exec(n)?.[1]),
      ['Greenhouse', 'Workable', 'Recruitee'],
    );
  });
});
