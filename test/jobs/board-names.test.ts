import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PoliteFetcher } from '../../src/ingest/jobs/fetcher.ts';
import { connectorFor } from '../../src/ingest/jobs/index.ts';
import { ashbyOrganization, boardPageUrl, pageTitle } from '../../src/ingest/jobs/board-names.ts';
import { normalizeListing } from '../../src/jobs/listing.ts';
import { startBoardServer, type BoardServer } from './support/board-server.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
/** Ashby's own documented posting-API answer (test/fixtures/real/ORIGINS.md): it names no company. */
const ASHBY_DOCS = readFileSync(new URL('../fixtures/real/jobs/ashby/docs-example.json', import.meta.url), 'utf8');
/** A Lever posting as its API answers: no field names the company. */
const LEVER_POSTINGS = JSON.stringify([
  { id: 'a1', text: 'Backend Engineer', hostedUrl: 'https://jobs.lever.co/gotogroup/a1', categories: { location: 'Jakarta' } },
]);
// Board pages in the shapes the ATSs serve: Lever's page is titled with the company; Ashby's embeds
// its organization in window.__appData (null on the page of a board it does not know).
const LEVER_PAGE = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>GoTo Group</title></head><body></body></html>';
const ASHBY_PAGE =
  '<html><head><title>Jobs</title></head><body><script nonce="x">window.__appData = {"environment":"production","maintenanceMode":false,' +
  '"organization":{"organizationId":"4ea5","name":"Example {Robotics} \\"Labs\\"","publicWebsite":"https://example.com"},' +
  '"jobBoard":{"teams":[]},"routerPrefix":"/"};</script></body></html>';
const ASHBY_SHELL =
  '<html><head><title>Jobs</title></head><body><script>window.__appData = {"maintenanceMode":false,"organization":null,"posting":null,"jobBoard":null};</script></body></html>';

describe('the company a Lever or Ashby board belongs to', () => {
  let server: BoardServer;
  const html = (body: string) => ({ body: () => body, contentType: 'text/html' });
  before(async () => {
    server = await startBoardServer({
      '/v0/postings/gotogroup?mode=json': { body: () => LEVER_POSTINGS },
      '/gotogroup': html(LEVER_PAGE),
      '/v0/postings/untitled?mode=json': { body: () => LEVER_POSTINGS },
      '/untitled': html('<html><head><title>Jobs</title></head></html>'),
      '/v0/postings/pageless?mode=json': { body: () => LEVER_POSTINGS },
      '/posting-api/job-board/example?includeCompensation=true': { body: () => ASHBY_DOCS },
      '/example': html(ASHBY_PAGE),
      '/posting-api/job-board/embedonly?includeCompensation=true': { body: () => ASHBY_DOCS },
      '/embedonly': html(ASHBY_SHELL),
    });
  });
  after(() => server.close());

  const fetcher = () => new PoliteFetcher({ concurrency: 2, backoffMs: 5, timeoutMs: 5000, retries: 0 });
  const fetchBoard = (source: string, board: string, companyName?: string) =>
    connectorFor(source).fetchBoard(fetcher(), { board, baseUrl: server.origin, companyName });
  const names = async (source: string, board: string, companyName?: string) =>
    (await fetchBoard(source, board, companyName)).map((l) =>
      normalizeListing(l, { source, board, now: NOW, company: companyName ? { name: companyName } : null }),
    );

  it("Lever: the board's page title names the company, not its token", async () => {
    const [job] = await names('lever', 'gotogroup');
    assert.equal(job.companyName, 'GoTo Group');
  });

  it("Ashby: the page's organization gives the name and the website; the documented API answer names neither", async () => {
    const listings = await fetchBoard('ashby', 'example');
    assert.ok(listings.length > 0);
    assert.deepEqual(listings[0].company, { name: 'Example {Robotics} "Labs"', website: 'https://example.com' });
    assert.equal(connectorFor('ashby').parsePayload(ASHBY_DOCS, { board: 'example' })[0].company, undefined);
  });

  it("a name the source gives is used, and the board's page is not fetched", async () => {
    const before = server.hits.get('/gotogroup') ?? 0;
    const [job] = await names('lever', 'gotogroup', 'GoTo');
    assert.equal(job.companyName, 'GoTo');
    assert.equal(server.hits.get('/gotogroup') ?? 0, before);
    const [paged] = await names('lever', 'pageless', 'Pageless Inc');
    assert.equal(paged.companyName, 'Pageless Inc');
  });

  it('a board whose page names no company is refused with the command that names it, never stored under its token', async () => {
    await assert.rejects(fetchBoard('ashby', 'embedonly'), (error: Error) => {
      assert.match(error.message, /the ashby board "embedonly" names no company \(its page .*\/embedonly gives no company name\)/);
      assert.match(error.message, /leadbase sources add ashby embedonly --company-name/);
      return true;
    });
    await assert.rejects(fetchBoard('lever', 'untitled'), /the lever board "untitled" names no company/);
    await assert.rejects(fetchBoard('lever', 'pageless'), /its page .*\/pageless could not be read: .*HTTP 404/);
  });

  it('reads titles and embedded organizations generally', () => {
    assert.equal(pageTitle('<title>\n  Porter Cares, Inc. </title>'), 'Porter Cares, Inc.');
    assert.equal(pageTitle('<TITLE>AT&amp;T &#8211; Careers</TITLE>'), 'AT&T – Careers');
    assert.equal(pageTitle('<title>Jobs</title>'), undefined);
    assert.equal(pageTitle('<html></html>'), undefined);
    assert.equal(ashbyOrganization(ASHBY_SHELL), undefined);
    assert.equal(ashbyOrganization('<script>window.__appData = {"organization":{"name":"Cut'), undefined);
    assert.deepEqual(ashbyOrganization('window.__appData={"organization":{"name":" Klue ","publicWebsite":"javascript:x"}}'), {
      name: 'Klue',
      website: null,
    });
  });

  it("a board's page is on the ATS's page host for its API hosts, and on the mirror's origin otherwise", () => {
    const lever = { 'https://api.lever.co': 'https://jobs.lever.co', 'https://api.eu.lever.co': 'https://jobs.eu.lever.co' };
    assert.equal(
      boardPageUrl({ board: 'mobileye', baseUrl: 'https://api.eu.lever.co/' }, lever, 'https://api.lever.co'),
      'https://jobs.eu.lever.co/mobileye',
    );
    assert.equal(boardPageUrl({ board: 'acme' }, lever, 'https://api.lever.co'), 'https://jobs.lever.co/acme');
    assert.equal(boardPageUrl({ board: 'acme', baseUrl: 'http://127.0.0.1:9' }, lever, 'https://api.lever.co'), 'http://127.0.0.1:9/acme');
  });
});
