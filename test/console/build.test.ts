// The console's build replaces its files whole (scripts/build-console.js): the server reads them on
// every request, and the console suites each build while others serve, so a browser given half of
// app.js by a build under way never showed its sign-in form (seen once, beside another test run).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const script = join(import.meta.dirname, '..', '..', 'scripts', 'build-console.js');

function build(out: string): Promise<number | null> {
  return new Promise((resolve) => spawn(process.execPath, [script, out], { stdio: 'ignore' }).on('exit', resolve));
}

describe('console build', () => {
  it('never leaves a reader half a file while builds run', async () => {
    const out = mkdtempSync(join(tmpdir(), 'leadbase-console-build-'));
    try {
      assert.equal(await build(out), 0);
      const files = ['app.js', 'app.css', 'index.html'];
      const whole = new Map(files.map((name) => [name, readFileSync(join(out, name))]));
      let building = true;
      const builds = Promise.all(Array.from({ length: 4 }, () => build(out))).finally(() => (building = false));
      let reads = 0;
      const torn = new Map<string, number>();
      while (building) {
        for (const name of files) {
          reads += 1;
          if (!readFileSync(join(out, name)).equals(whole.get(name)!)) torn.set(name, (torn.get(name) ?? 0) + 1);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.deepEqual(await builds, [0, 0, 0, 0]);
      assert.ok(reads > 30, `read while building: ${reads}`);
      assert.deepEqual(Object.fromEntries(torn), {}, `of ${reads} reads, these files were read in part (times)`);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
