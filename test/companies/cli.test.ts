import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { openDatabase } from '../../src/db/database.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { runLeadbase } from '../support/cli.ts';
import { formDZip } from '../support/upstreams/sec.ts';
import { zipSync } from 'fflate';

const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'companies');

describe('leadbase import companies (CLI)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let feedServer: Server;
  let feedUrl: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'leadbase-companies-cli-'));
    env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'cli.sqlite')}`, REDIS_URL: '', LOG_LEVEL: 'silent' };
    // A newsroom feed served over HTTP, as a company site would.
    feedServer = createServer((req, res) => {
      if (req.url === '/newsroom/rss.xml') {
        res.writeHead(200, { 'content-type': 'application/rss+xml' });
        res.end(readFileSync(join(FIXTURES, 'stripe-newsroom.rss')));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
    feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/newsroom/rss.xml`;
  });
  after(async () => {
    await new Promise((resolve) => feedServer.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (...args: string[]) => runLeadbase(args, env);

  it('imports every source format and prints summaries', async () => {
    const jsonl = await run('import', 'companies', 'jsonl', join(FIXTURES, 'companies.jsonl'), '--json', '--parallel');
    assert.equal(jsonl.status, 0, jsonl.stderr);
    const summary = JSON.parse(jsonl.stdout);
    assert.deepEqual([summary.read, summary.inserted, summary.rejected], [9, 4, 5]);
    assert.deepEqual(
      summary.rejections.map((r: { line: number }) => r.line),
      [6, 7, 8, 9, 10],
    );

    const pdl = await run('import', 'companies', 'pdl', join(FIXTURES, 'pdl.ndjson'), '--no-parallel');
    const csv = await run('import', 'companies', 'pdl', join(FIXTURES, 'pdl.csv'), '--parallel', '--batch-size', '2');
    assert.equal(csv.status, 0, csv.stderr);
    assert.match(csv.stdout, /read 5, inserted 1, updated 1, unchanged 1, rejected 2/);
    assert.equal(pdl.status, 0, pdl.stderr);
    assert.match(pdl.stdout, /read 4, inserted 2, updated 0, unchanged 0, rejected 2/);

    const formd = await run('import', 'companies', 'formd', join(FIXTURES, 'formd'), '-q');
    assert.equal(formd.status, 0, formd.stderr);
    assert.match(formd.stdout, /pooled investment fund \(excluded\)/);

    const feed = await run('import', 'companies', 'feed', feedUrl);
    assert.equal(feed.status, 0, feed.stderr);
    assert.match(feed.stdout, /read 3, inserted 1, updated 0, unchanged 1, rejected 1/);

    const handle = openDatabase(env.DATABASE_URL!);
    try {
      const companies = new CompanyService({ db: handle.db });
      const stripe = (await companies.findByDomain('stripe.com'))!;
      assert.ok((await companies.repository.articlesOf(stripe.id)).some((a) => a.item_key === 'stripe-2024-tools'));
      assert.ok(await companies.funding({ company_name: 'Nimbus Robotics' }));
    } finally {
      await handle.close();
    }
  });

  it("imports the SEC's Form D zip as downloaded, and refuses what it cannot read with a non-zero exit", async () => {
    const tables = Object.fromEntries(
      ['FORMDSUBMISSION', 'ISSUERS', 'OFFERING', 'RELATEDPERSONS'].map((t) => [t, readFileSync(join(FIXTURES, 'formd', `${t}.tsv`))]),
    );
    const zip = join(dir, '2024q1_d.zip');
    writeFileSync(zip, formDZip(2024, 1, tables));
    const imported = await run('import', 'companies', 'formd', zip, '--json');
    assert.equal(imported.status, 0, imported.stderr);
    const summary = JSON.parse(imported.stdout);
    assert.equal(summary.read, 5);
    assert.ok(summary.rejections.some((r: { reason: string }) => /pooled investment fund/.test(r.reason)));

    const notZip = join(dir, 'page.zip');
    writeFileSync(notZip, '<html>Access denied</html>');
    const refused = await run('import', 'companies', 'formd', notZip);
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /page\.zip: not a zip archive/);

    const partial = join(dir, 'partial.zip');
    writeFileSync(partial, zipSync({ '2024Q1_d/ISSUERS.tsv': tables.ISSUERS }));
    const incomplete = await run('import', 'companies', 'formd', partial);
    assert.notEqual(incomplete.status, 0);
    assert.match(incomplete.stderr, /the zip has no FORMDSUBMISSION\.tsv, OFFERING\.tsv, RELATEDPERSONS\.tsv/);

    const emptyDir = mkdtempSync(join(dir, 'empty-'));
    const noTables = await run('import', 'companies', 'formd', emptyDir);
    assert.notEqual(noTables.status, 0);
    assert.match(noTables.stderr, /has no FORMDSUBMISSION\.tsv/);
  });

  it('reports operator errors in one line', async () => {
    const missing = await run('import', 'companies', 'jsonl', join(dir, 'nope.jsonl'));
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /no such file/);
    const noDir = await run('import', 'companies', 'formd', join(dir, 'nope'));
    assert.notEqual(noDir.status, 0);
    assert.match(noDir.stderr, /does not exist/);
    const badKind = await run('import', 'companies', 'feed', feedUrl, '--kind', 'blog');
    assert.notEqual(badKind.status, 0);
    assert.match(badKind.stderr, /--kind must be news or press_release/);
  });
});
