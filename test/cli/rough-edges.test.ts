// Small promises of the command line, each kept by the real binary: an import whose every row is
// refused fails; a source added again takes a new base URL (and says so); a source cannot be
// fetched more often than once a minute.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLeadbase } from '../support/cli.ts';

describe('command-line rough edges', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'leadbase-rough-'));
    env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, LOG_LEVEL: 'silent' };
    const migrated = await runLeadbase(['migrate'], env);
    assert.equal(migrated.status, 0, migrated.stderr);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('an import whose every row is refused prints its summary and exits non-zero (companies, people, jobs, engagement)', async () => {
    const runs = {
      companies: ['import', 'companies', 'jsonl', file('c.jsonl', '{"description":"no name"}\n{"industry":"x"}\n'), '-q', '--json'],
      people: ['import', 'people', file('p.jsonl', '{"id":"1"}\n{"id":"2"}\n'), '-q', '--json'],
      jobs: [
        'import',
        'jobs',
        '--source',
        'greenhouse',
        '--board',
        'acme',
        '--company-name',
        'Acme',
        '--file',
        file('j.json', '{"jobs":[{"id":1,"title":"","absolute_url":"https://acme.test/1"}]}'),
        '-q',
        '--json',
      ],
      engagement: [
        'import',
        'engagement',
        file('e.csv', 'email,event,occurred_at,event_id\nceo@acme.test,exploded,2026-10-01T10:00:00Z,e1\n'),
        '-q',
        '--json',
      ],
    };
    for (const [what, args] of Object.entries(runs)) {
      const run = await runLeadbase(args, env);
      assert.equal(run.status, 1, `${what}: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr, /every one of the \d+ (rows|postings) read was refused/, what);
      const summary = JSON.parse(run.stdout.trim().split('\n')[0]) as { rejected: number };
      assert.ok(summary.rejected > 0, `${what}: the summary says what was refused`);
    }
    // One readable row among refused ones is an import that went through (with its refusals listed).
    const mixed = await runLeadbase(
      ['import', 'companies', 'jsonl', file('m.jsonl', '{"x":1}\n{"name":"Acme","domain":"acme.test"}\n'), '-q'],
      env,
    );
    assert.equal(mixed.status, 0, mixed.stderr);
  });

  it('adding a source again with a new --base-url updates it and says so; --every below a minute is refused', async () => {
    const first = await runLeadbase(['sources', 'add', 'greenhouse', 'acme', '--json'], env);
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual([JSON.parse(first.stdout).created, JSON.parse(first.stdout).base_url], [true, null]);
    const again = await runLeadbase(
      ['sources', 'add', 'greenhouse', 'acme', '--base-url', 'https://mirror.example.com/gh/', '--json'],
      env,
    );
    const view = JSON.parse(again.stdout);
    assert.deepEqual(
      [view.created, view.updated, view.base_url, view.base_url_by_operator],
      [false, true, 'https://mirror.example.com/gh', true],
    );
    const text = await runLeadbase(['sources', 'add', 'greenhouse', 'acme', '--company-name', 'Acme Corp'], env);
    assert.match(text.stdout, /^updated/);
    const same = await runLeadbase(['sources', 'add', 'greenhouse', 'acme'], env);
    assert.match(same.stdout, /^already registered/);
    const fast = await runLeadbase(['sources', 'add', 'greenhouse', 'other', '--every', '5s'], env);
    assert.equal(fast.status, 1);
    assert.match(fast.stderr, /every must be at least 1m .*got "5s"/);
    const listed = JSON.parse((await runLeadbase(['sources', 'list', '--json'], env)).stdout) as { locator: string }[];
    assert.deepEqual(
      listed.map((s) => s.locator),
      ['acme'],
    );
  });
});
