// `leadbase bootstrap` interrupted (SIGINT) and resumed, as an operator does it: against a slow
// local copy of the job boards' API, the run is stopped once a board is stored; what it stored is
// kept, the interrupt is not counted as a failure, and the next run fetches only the rest.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEADBASE_BIN, runLeadbase } from '../support/cli.ts';
import { envFor, lastJson, type BootstrapReport as Report } from '../support/bootstrap.ts';
import { BOARDS_CSV, startMirror as startBoardsMirror } from '../support/upstreams/boards.ts';

describe('leadbase bootstrap, interrupted', () => {
  it('an interrupted run (SIGINT) keeps what it stored, says so, and the next run resumes', async () => {
    const slowDir = mkdtempSync(join(tmpdir(), 'leadbase-bootstrap-slow-'));
    const slowEnv = { ...envFor(slowDir), CRAWL_CONCURRENCY: '1' };
    // Slow enough that the check for a stored board (a CLI run, seconds on a busy machine) lands before the last board.
    const slow = await startBoardsMirror({ delayMs: 4000 });
    try {
      const child = spawn(
        process.execPath,
        [LEADBASE_BIN, 'bootstrap', '--json', '--only', 'boards', '--boards', BOARDS_CSV, '--mirror', `greenhouse=${slow.url}`],
        { env: slowEnv },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      let done = false;
      const exited = new Promise<number | null>((resolve) =>
        child.on('close', (code) => {
          done = true;
          resolve(code);
        }),
      );
      // Interrupted once the first board is stored.
      const deadline = Date.now() + 120_000;
      const storedOne = async () => {
        const listed = await runLeadbase(['sources', 'list', '--json'], slowEnv);
        return (
          listed.status === 0 && (JSON.parse(listed.stdout || '[]') as { last_success_at: string | null }[]).some((s) => s.last_success_at)
        );
      };
      // (Looked at only once the run has begun: two processes migrating one new file at once would race.)
      while (!done && !/boards running/.test(stderr) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      while (!done && !(await storedOne()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      assert.ok(!done, `bootstrap ended before it was interrupted:\n${stderr}`);
      child.kill('SIGINT');
      const code = await exited;
      assert.equal(code, 130, stderr);
      const report = lastJson<Report>(stdout);
      assert.equal(report.interrupted, true);
      const listed = JSON.parse((await runLeadbase(['sources', 'list', '--json'], slowEnv)).stdout) as {
        last_success_at: string | null;
        consecutive_failures: number;
      }[];
      const fetched = listed.filter((s) => s.last_success_at).length;
      assert.ok(fetched >= 1 && fetched < 3, `${fetched} of 3 boards fetched before the interrupt`);
      assert.ok(
        listed.every((s) => s.consecutive_failures === 0),
        'an interrupt is not a failure',
      );

      const resumed = await runLeadbase(
        ['bootstrap', '--json', '-q', '--only', 'boards', '--boards', BOARDS_CSV, '--mirror', `greenhouse=${slow.url}`],
        slowEnv,
        120_000,
      );
      assert.equal(resumed.status, 0, resumed.stderr);
      const second = lastJson<Report>(resumed.stdout);
      assert.equal(second.sources.length, 3 - fetched, 'only the boards not fetched yet are fetched');
      const all = JSON.parse((await runLeadbase(['sources', 'list', '--json'], slowEnv)).stdout) as { last_success_at: string | null }[];
      assert.equal(all.length, 3);
      assert.ok(all.every((s) => s.last_success_at));
    } finally {
      await slow.close();
      rmSync(slowDir, { recursive: true, force: true });
    }
  });
});
