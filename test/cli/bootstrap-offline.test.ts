// `leadbase bootstrap` with no upstream reachable, as a new user offline meets it: every upstream
// and the boards' API named as mirrors on a closed 127.0.0.1 port (each connection refused). It
// must say so within the minute, name --mirror and --only, exit non-zero, and leave a handful of
// sources registered, not the boards list; a run of one data set speaks of no boards list.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLeadbase } from '../support/cli.ts';
import { closedPort, envFor } from '../support/bootstrap.ts';

describe('leadbase bootstrap, offline', { timeout: 300_000 }, () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let boards: string;
  let offline: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'leadbase-bootstrap-offline-'));
    // The operator's default politeness: one second between two fetches to a host.
    env = { ...envFor(dir), CRAWL_HOST_INTERVAL_MS: '1000' };
    offline = `http://127.0.0.1:${await closedPort()}`;
    boards = join(dir, 'boards.csv');
    const names = Array.from({ length: 500 }, (_, i) => `greenhouse,board-${i + 1},,`);
    writeFileSync(boards, ['type,locator,company_name,company_website', ...names].join('\n'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('ends non-zero within the minute, naming --mirror and --only, with a handful of sources left', async () => {
    const mirrors = ['sec', 'wikidata', 'companies-house', 'greenhouse'].flatMap((name) => ['--mirror', `${name}=${offline}`]);
    const started = Date.now();
    const run = await runLeadbase(['bootstrap', '-q', '--boards', boards, ...mirrors], env, 120_000);
    const seconds = (Date.now() - started) / 1000;
    const output = `${run.stdout}\n${run.stderr}`;
    assert.notEqual(run.status, 0, output);
    assert.ok(seconds < 60, `took ${seconds} s`);
    assert.match(output, /No upstream could be reached/);
    assert.match(output, /--mirror NAME=URL/);
    assert.match(output, /--only STEPS/);
    assert.match(output, /boards failed, [^\n]* \d\/500 boards/, 'the boards tried (a few), of the list');
    const listed = await runLeadbase(['sources', 'list', '--json'], env);
    assert.equal(listed.status, 0, listed.stderr);
    const sources = JSON.parse(listed.stdout) as { type: string }[];
    assert.ok(sources.length <= 3, `${sources.length} sources left: ${sources.map((s) => s.type).join(', ')}`);
  });

  it('--only formd: the same ending, and no word of a boards list', async () => {
    const run = await runLeadbase(['bootstrap', '-q', '--only', 'formd', '--mirror', `sec=${offline}`], env, 120_000);
    const output = `${run.stdout}\n${run.stderr}`;
    assert.notEqual(run.status, 0, output);
    assert.match(output, /--mirror NAME=URL/);
    assert.doesNotMatch(output, /boards list/);
  });
});
