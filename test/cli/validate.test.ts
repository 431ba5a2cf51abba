// `leadbase validate FILE.csv --out results.csv` against local mail hosts: every input column kept,
// the result fields added, duplicates asked once, and a second run resumes instead of starting over.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { mailWorldEnv, startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { runLeadbase } from '../support/cli.ts';

describe('leadbase validate', () => {
  let world: MailWorld;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    world = await startMailWorld();
    dir = mkdtempSync(join(tmpdir(), 'leadbase-validate-'));
    env = {
      ...process.env,
      DATABASE_URL: `sqlite:${join(dir, 'v.sqlite')}`,
      REDIS_URL: '',
      LOG_LEVEL: 'silent',
      ...mailWorldEnv(world),
      EMAIL_HELO_NAME: 'probe.leadbase.test',
      EMAIL_GREYLIST_RECHECK_MS: '0',
    };
  });
  after(async () => {
    await world.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every column, adds the result, asks a repeated address once, and resumes', async () => {
    const mx = await world.domain('list.test', { mailboxes: ['ann', 'bob'] });
    const input = join(dir, 'list.csv');
    const out = join(dir, 'results.csv');
    writeFileSync(
      input,
      [
        'First Name,Email,Company',
        'Ann,ann@list.test,"List, Inc."',
        'Bob,bob@list.test,List',
        'Nobody,nobody@list.test,List',
        'Ann again,ANN@list.test,List',
        'Broken,not an address,',
      ].join('\n'),
    );
    const first = await runLeadbase(['validate', input, '--out', out, '--json', '--quiet'], env);
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout).statuses, { valid: 3, invalid: 2 });
    const rows = parse<Record<string, string>>(readFileSync(out, 'utf8'), { columns: true });
    assert.deepEqual(Object.keys(rows[0]).slice(0, 5), ['First Name', 'Email', 'Company', 'row', 'email_status']);
    const byRow = Object.fromEntries(rows.map((r) => [r.row, r]));
    assert.equal(byRow['1'].Company, 'List, Inc.', 'input columns kept, quoted as needed');
    assert.deepEqual(
      ['1', '2', '3', '4', '5'].map((r) => byRow[r].email_status),
      ['valid', 'valid', 'invalid', 'valid', 'invalid'],
    );
    assert.equal(mx.rcpts.filter((r) => r.toLowerCase() === 'ann@list.test').length, 1, 'the repeated address was asked once');

    // An interrupted run: only two answers made it to the file. The next run answers the rest.
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    writeFileSync(out, `${lines.slice(0, 3).join('\n')}\n`);
    const second = await runLeadbase(['validate', input, '--out', out, '--json', '--quiet'], env);
    assert.equal(second.status, 0, second.stderr);
    const summary = JSON.parse(second.stdout);
    assert.equal(summary.resumed_after, 2);
    assert.equal(summary.validated, 3);
    const resumed = parse<Record<string, string>>(readFileSync(out, 'utf8'), { columns: true });
    assert.deepEqual(resumed.map((r) => Number(r.row)).sort(), [1, 2, 3, 4, 5]);
  });

  it('refuses a list without an email column, and a missing file, with a clear error', async () => {
    const input = join(dir, 'no-email.csv');
    writeFileSync(input, 'name,company\nAnn,List\n');
    const noColumn = await runLeadbase(['validate', input, '--out', join(dir, 'x.csv'), '--quiet'], env);
    assert.notEqual(noColumn.status, 0);
    assert.match(noColumn.stderr, /no "email" column/);
    const missing = await runLeadbase(['validate', join(dir, 'missing.csv'), '--out', join(dir, 'y.csv')], env);
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /no such file/);
  });
});
