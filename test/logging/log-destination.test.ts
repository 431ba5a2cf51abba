// The process log's destination: lines gathered into blocks, in order, and none lost when the process ends.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { logDestination } from '../../src/platform/log-destination.ts';
import { until } from '../support/until.ts';

const MODULE = resolve('src/platform/log-destination.ts');

/** Runs `body` in a process of its own with `destination` (a logDestination on `file`) in scope. */
function runChild(dir: string, file: string, body: string) {
  const script = join(dir, 'child.ts');
  writeFileSync(
    script,
    `import { logDestination } from ${JSON.stringify(MODULE)};\nconst destination = logDestination(${JSON.stringify(file)});\n${body}\n`,
  );
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

const LINES = 'for (let i = 0; i < 1000; i++) destination.write(`line ${i}\\n`);';
const expected = Array.from({ length: 1000 }, (_, i) => `line ${i}`);

describe('log destination', () => {
  it('writes every line, in order, in blocks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leadbase-log-'));
    try {
      const file = join(dir, 'out.log');
      const destination = logDestination(file);
      for (let i = 0; i < 1000; i++) destination.write(`line ${i}\n`);
      destination.write('last\n');
      destination.flush();
      await until(() => readFileSync(file, 'utf8').endsWith('last\n'), 5000);
      assert.deepEqual(readFileSync(file, 'utf8').split('\n').filter(Boolean), [...expected, 'last']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives every logger of the process one writer for standard output', () => {
    assert.equal(logDestination(), logDestination(1));
  });

  it('loses no line when the process exits at once, or runs out of work', () => {
    const dir = mkdtempSync(join(tmpdir(), 'leadbase-log-'));
    // On process.exit() a block already being written in the background can land after the lines
    // written out synchronously at exit: every line is there, not always in order.
    const sorted = (lines: string[]) => [...lines].sort();
    try {
      assert.deepEqual(sorted(runChild(dir, join(dir, 'exit.log'), `${LINES}\nprocess.exit(0);`)), sorted(expected));
      assert.deepEqual(runChild(dir, join(dir, 'idle.log'), LINES), expected);
      // Lines written while the process is already on its way out.
      assert.deepEqual(sorted(runChild(dir, join(dir, 'late.log'), `process.on('exit', () => { ${LINES} });`)), sorted(expected));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
