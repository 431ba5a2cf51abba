// `leadbase sources pause|resume|remove` on many sources at once (ids, --type, --failing, --all),
// and `leadbase status` summarising sources by type and state in a few lines whatever their number.
// The failing source is one whose board answered 500 from a local server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { runLeadbase } from '../support/cli.ts';

interface Listed {
  id: number;
  type: string;
  locator: string;
  status: string;
  consecutive_failures: number;
}

describe('sources pause, resume and remove by filter; status summarised', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let server: Server;
  let brokenBase: string;
  const leadbase = async (...args: string[]) => {
    const res = await runLeadbase(args, env);
    return res;
  };
  const ok = async (...args: string[]) => {
    const res = await leadbase(...args);
    assert.equal(res.status, 0, `${args.join(' ')}: ${res.stderr}`);
    return res.stdout;
  };
  const list = async () => JSON.parse(await ok('sources', 'list', '--json')) as Listed[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'leadbase-sources-filters-'));
    env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, LOG_LEVEL: 'silent', REDIS_URL: '' };
    server = createServer((_request, response) => {
      response.statusCode = 500;
      response.end('down');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    brokenBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    // 120 boards of two types and a feed: enough that listing them would run past a screen.
    const lines = ['type,locator'];
    for (let i = 0; i < 80; i++) lines.push(`greenhouse,board${i}`);
    for (let i = 0; i < 40; i++) lines.push(`lever,team${i}`);
    lines.push('feed,https://jobs.example.com/feed.xml');
    const csv = join(dir, 'sources.csv');
    writeFileSync(csv, `${lines.join('\n')}\n`);
    const imported = JSON.parse(await ok('sources', 'import', csv, '--json')) as { added: number };
    assert.equal(imported.added, 121);
    // A board whose upstream answers 500: its run fails, so it is failing.
    const broken = JSON.parse(await ok('sources', 'add', 'lever', 'broken', '--base-url', brokenBase, '--json')) as { id: number };
    const run = await leadbase('sources', 'run', String(broken.id), '--json');
    assert.notEqual(run.status, 0, 'the run failed');
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a call that names no sources, and one that mixes ids and filters', async () => {
    for (const command of ['pause', 'resume', 'remove']) {
      const none = await leadbase('sources', command);
      assert.equal(none.status, 1);
      assert.match(none.stderr, /say which sources: their ids, or --type TYPE, --failing or --all/);
      const both = await leadbase('sources', command, '1', '--all');
      assert.equal(both.status, 1);
      assert.match(both.stderr, /ids or a filter .*not both/);
    }
    const missing = await leadbase('sources', 'pause', '1', '99999');
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no source with id 99999: nothing was changed/);
    assert.equal((await list()).find((s) => s.id === 1)!.status, 'active', 'nothing changed');
  });

  it('pauses by type, resumes the failing ones, acts on several ids at once, and says how many and which', async () => {
    const paused = JSON.parse(await ok('sources', 'pause', '--type', 'lever', '--json')) as { paused: number; sources: Listed[] };
    assert.equal(paused.paused, 41);
    assert.ok(paused.sources.every((s) => s.type === 'lever' && s.status === 'paused'));
    let sources = await list();
    assert.equal(sources.filter((s) => s.status === 'paused').length, 41);

    const text = await ok('sources', 'resume', '--failing');
    assert.match(text, /^1 source resumed:\n {2}\d+ lever broken$/m);
    sources = await list();
    const broken = sources.find((s) => s.locator === 'broken')!;
    assert.equal(broken.status, 'active');
    assert.equal(broken.consecutive_failures, 0, 'resume forgets the failures');

    const byIds = await ok('sources', 'resume', '82', '83', '84');
    assert.match(byIds, /^3 sources resumed:/);
    assert.equal((await list()).filter((s) => s.status === 'paused').length, 37);

    const combined = JSON.parse(await ok('sources', 'pause', '--type', 'greenhouse', '--failing', '--json')) as { paused: number };
    assert.equal(combined.paused, 0, 'no greenhouse board is failing');
  });

  it('status prints a summary by type and state in at most 60 lines; --sources lists every source; --json keeps the data', async () => {
    const summary = await ok('status');
    const lines = summary.trimEnd().split('\n');
    assert.ok(lines.length <= 60, `${lines.length} lines:\n${summary}`);
    assert.match(summary, /^sources 122: 85 active, 37 paused, 0 held; 0 failing, 122 never fetched$/m);
    assert.match(summary, /^ {2}greenhouse +80 +80 +0 +0 +0 +80 +never$/m);
    assert.match(summary, /^ {2}lever +41 +4 +37 +0 +0 +41 +never$/m);
    assert.doesNotMatch(summary, /board17/, 'sources are not listed one by one');

    const listed = await ok('status', '--sources');
    assert.ok(listed.split('\n').length > 122);
    assert.match(listed, /board17/);

    const json = JSON.parse(await ok('status', '--json')) as {
      sources_summary: { total: number; by_type: { type: string }[] };
      sources?: unknown;
    };
    assert.equal(json.sources_summary.total, 122);
    assert.deepEqual(
      json.sources_summary.by_type.map((t) => t.type),
      ['feed', 'greenhouse', 'lever'],
    );
    assert.equal(json.sources, undefined, 'the list only with --sources');
    const full = JSON.parse(await ok('status', '--json', '--sources')) as { sources: { id: number }[] };
    assert.equal(full.sources.length, 122);
  });

  it('remove --all asks nothing and says what it removed', async () => {
    const removed = await ok('sources', 'remove', '--all');
    assert.match(removed, /^122 sources removed:/);
    assert.match(removed, /board0\n/);
    assert.deepEqual(await list(), []);
    assert.match(await ok('sources', 'remove', '--all'), /^0 sources removed$/m);
    assert.match(await ok('status'), /no sources registered/);
  });
});
