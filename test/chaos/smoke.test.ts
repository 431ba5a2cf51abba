// `npm run chaos` itself, run small: a few scenarios, a short fuzz and soak. The full run's figures
// are in docs/benchmarks.md.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { PG_SKIP } from '../support/db.ts';

const SKIP = PG_SKIP || (spawnSync('redis-server', ['--version']).status === 0 ? false : 'redis-server not installed');

describe('npm run chaos (small)', { skip: SKIP, timeout: 150_000 }, () => {
  it('--help describes the options', () => {
    const help = spawnSync(process.execPath, ['--import', 'tsx', 'bench/chaos/run.ts', '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--only <list>/);
    assert.match(help.stdout, /--soak-seconds/);
  });

  it('charges, pg-kill, fuzz and a 3 s soak pass, as JSON', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/chaos/run.ts',
        '--only',
        'charges,pg-kill,fuzz,soak',
        '--fuzz-requests',
        '300',
        '--soak-seconds',
        '3',
        '--instances',
        '2',
        '--json',
      ],
      { env: process.env },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const status = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(status, 0, stdout + stderr);
    const report = JSON.parse(stdout) as {
      unexpectedExits: number;
      results: { scenario: string; pass: boolean; figures: Record<string, unknown> }[];
    };
    assert.deepEqual(
      report.results.map((r) => r.scenario),
      ['charges', 'pg-kill', 'fuzz', 'soak'],
    );
    assert.ok(report.results.every((r) => r.pass));
    assert.equal(report.unexpectedExits, 0);
  });
});
