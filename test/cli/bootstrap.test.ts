// `leadbase bootstrap` end to end, as an operator runs it: every fake upstream in
// test/support/upstreams (local servers serving recorded real payloads at the upstreams' own paths)
// is started and named with --mirror; bootstrap fills a fresh SQLite file; a real `leadbase serve`
// on that file then answers every example question bootstrap printed, each one found (charged).
// Then: a second run finds every source again rather than duplicating it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLeadbase } from '../support/cli.ts';
import { envFor, lastJson, startEveryMirror, type BootstrapReport as Report, type Mirror } from '../support/bootstrap.ts';
import { startServerProcess } from '../support/server-process.ts';
import { BOARDS_CSV } from '../support/upstreams/boards.ts';

describe('leadbase bootstrap (end to end)', { timeout: 900_000 }, () => {
  let dir: string;
  let mirrors: Mirror[];
  let env: NodeJS.ProcessEnv;
  let mirrorArgs: string[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'leadbase-bootstrap-'));
    env = envFor(dir);
    mirrors = await startEveryMirror();
    mirrorArgs = mirrors.flatMap((m) => ['--mirror', `${m.name}=${m.url}`]);
  });
  after(async () => {
    await Promise.all(mirrors.map((m) => m.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('on an empty store, serve says so and names bootstrap; sources list --json prints []', async () => {
    const server = await startServerProcess({ ...env, CRAWL_ENABLED: '0' });
    try {
      assert.match(server.output(), /stores are empty.*node bin\/leadbase\.js bootstrap/);
    } finally {
      await server.stop();
    }
    const listed = await runLeadbase(['sources', 'list', '--json'], env);
    assert.equal(listed.status, 0, listed.stderr);
    assert.equal(listed.stdout.trim(), '[]');
  });

  it('fills the stores from every upstream, and every example it prints is answered, found, by the API', async () => {
    const run = await runLeadbase(['bootstrap', '--json', '--discover-limit', '0', '--boards', BOARDS_CSV, ...mirrorArgs], env, 600_000);
    assert.equal(run.status, 0, `${run.stderr}\n${run.stdout}`);
    const report = lastJson<Report>(run.stdout);
    assert.equal(report.interrupted, false);
    for (const step of report.steps) assert.equal(step.state, 'done', `${step.name}: ${step.lastError}`);
    assert.deepEqual(
      report.sources.filter((s) => s.error),
      [],
    );
    assert.ok(report.steps.find((s) => s.name === 'boards')!.rows > 0, 'the boards brought listings');
    const asked = report.answers.filter((a) => a.body);
    const endpoints = asked.map((a) => a.endpoint);
    for (const endpoint of ['/company-search', '/jobs-finder']) assert.ok(endpoints.includes(endpoint), `${endpoint} has an example`);
    // What nothing answers yet says why, and mobiles name the operator's own exports.
    for (const a of report.answers.filter((x) => !x.body)) assert.ok(a.reason && a.reason.length > 10, a.endpoint);
    const mobile = report.answers.find((a) => a.endpoint === '/mobile-finder')!;
    if (!mobile.body) assert.match(mobile.reason!, /leadbase import people/);

    const created = await runLeadbase(['keys', 'create', '--name', 'e2e', '--credits', '1000', '--json'], env);
    assert.equal(created.status, 0, created.stderr);
    const key = (JSON.parse(created.stdout) as { key: string }).key;
    const server = await startServerProcess({ ...env, CRAWL_ENABLED: '0' });
    try {
      assert.doesNotMatch(server.output(), /stores are empty/);
      for (const answer of asked) {
        assert.match(answer.curl!, new RegExp(`^curl -s -X POST http://\\S+${answer.endpoint} `));
        const response = await fetch(`${server.url}${answer.endpoint}`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify(answer.body),
        });
        const text = await response.text();
        assert.equal(response.status, 200, `${answer.endpoint} ${JSON.stringify(answer.body)}: ${text}`);
        // Found is what is charged: the price rule charges nothing for not found.
        assert.ok(
          Number(response.headers.get('x-credits-cost')) > 0,
          `${answer.endpoint} ${JSON.stringify(answer.body)} found nothing: ${text}`,
        );
      }
    } finally {
      await server.stop();
    }

    const status = await runLeadbase(['status', '--json', '--sources'], env);
    assert.equal(status.status, 0, status.stderr);
    const held = JSON.parse(status.stdout);
    assert.ok(held.stores.jobs.live > 0);
    assert.ok(held.stores.companies.total > 0);
    assert.equal(held.empty, false);
    assert.ok(held.database.bytes > 0);
    assert.ok(
      held.sources.every((s: { last_success_at: string | null }) => s.last_success_at),
      'every source succeeded once',
    );
    assert.ok(
      held.sources.every((s: { next_run_at: string | null }) => s.next_run_at),
      'every source is on its schedule',
    );
  });

  it('a second run finds every source again (none added twice) and fetches nothing that is not due', async () => {
    const before = JSON.parse((await runLeadbase(['sources', 'list', '--json'], env)).stdout) as { id: number }[];
    const run = await runLeadbase(
      ['bootstrap', '--json', '-q', '--discover-limit', '0', '--boards', BOARDS_CSV, ...mirrorArgs],
      env,
      600_000,
    );
    assert.equal(run.status, 0, run.stderr);
    const report = lastJson<Report>(run.stdout);
    assert.deepEqual(
      report.sources.filter((s) => s.type in { greenhouse: 1 }),
      [],
      'no board fetched again before it is due',
    );
    const afterRun = JSON.parse((await runLeadbase(['sources', 'list', '--json'], env)).stdout) as { id: number }[];
    assert.deepEqual(
      afterRun.map((s) => s.id),
      before.map((s) => s.id),
    );
  });
});
