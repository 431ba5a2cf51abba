import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEADBASE_BIN as BIN } from '../support/cli.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/people/${name}`, import.meta.url));

describe('leadbase import people', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'leadbase-people-cli-'));
    env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'cli.sqlite')}`, REDIS_URL: '', LOG_LEVEL: 'silent' };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [BIN, 'import', 'people', ...args], { env, encoding: 'utf8', timeout: 60_000 });

  it('imports JSONL and prints the summary with the rejected lines', () => {
    const res = run(fixture('people.jsonl'), '--default-country', 'us');
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /read 9, inserted 6, updated 1, unchanged 0, rejected 2/);
    assert.match(res.stdout, /line 6: not valid JSON/);
    assert.match(res.stdout, /kept rows with dropped facts: 2/);
  });

  it('imports CSV with a column map, as JSON when asked', () => {
    const res = run(
      fixture('people.csv'),
      '--map',
      'Person ID=id,Name=full_name,LinkedIn=profile_url,Employer=company_name,Website=company_domain,Job Title=title,Work Email=work_email,Mobile=mobile_phone,Office Phone=phone',
      '--json',
    );
    assert.equal(res.status, 0, res.stderr);
    const summary = JSON.parse(res.stdout);
    assert.equal(summary.read, 4);
    assert.equal(summary.inserted, 3);
    assert.deepEqual(
      summary.rejections.map((r: { line: number }) => r.line),
      [4],
    );
  });

  it('refuses bad options with one line', () => {
    const badMap = run(fixture('people.csv'), '--map', 'Name=nickname');
    assert.notEqual(badMap.status, 0);
    assert.match(badMap.stderr, /"nickname" is not a field/);
    const badCountry = run(fixture('people.jsonl'), '--default-country', 'XX');
    assert.notEqual(badCountry.status, 0);
    assert.match(badCountry.stderr, /not a known two-letter country code/);
    assert.notEqual(run(join(dir, 'missing.jsonl')).status, 0);
  });
});
