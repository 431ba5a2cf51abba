#!/usr/bin/env node
// Finds every test/**/*.test.ts and runs them with node's test runner through tsx.
// Usage: npm test [-- path-fragment ...] to run only files whose path contains a fragment.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildIsFresh } from './build-state.js';

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = findTests('test')
  .map((f) => relative('.', f))
  .filter((f) => filters.length === 0 || filters.some((frag) => f.includes(frag)))
  .sort();

const skipped = [];
if (!process.env.DATABASE_URL?.startsWith('postgres')) {
  skipped.push('# DATABASE_URL is not a postgres:// URL: PostgreSQL test suites are SKIPPED (they run when it is set).');
}
if (!process.env.REDIS_URL) {
  skipped.push('# REDIS_URL is not set: Redis test suites are SKIPPED (they run when it is set).');
}
for (const line of skipped) console.log(line);

// Tests that run the `leadbase` command should run what `npm install` builds, and quickly: a source
// edited since the last build is compiled again first (a few seconds) instead of every command
// transpiling the whole program through tsx.
if (!buildIsFresh(process.cwd())) {
  console.log('# dist/ is older than src/: compiling it first (npm run build)');
  const build = spawnSync(process.execPath, ['scripts/build.js'], { stdio: 'inherit' });
  if (build.status !== 0) console.log('# the build failed: the leadbase command will run the sources through tsx');
}

const countsDir = mkdtempSync(join(tmpdir(), 'leadbase-test-counts-'));
const countsFile = join(countsDir, 'counts.json');
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    // A file's tests are bounded together: the Chromium suites run both storage modes in one file,
    // which on a busy 2-core machine can take minutes without anything being stuck.
    '--test-timeout=300000',
    '--test-reporter=tap',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/count-reporter.mjs',
    `--test-reporter-destination=${countsFile}`,
    ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, LEADBASE_TEST: '1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
);
const status = result.status ?? 1;
let totals;
try {
  totals = JSON.parse(readFileSync(countsFile, 'utf8'));
} catch {
  totals = undefined;
}
rmSync(countsDir, { recursive: true, force: true });

// Our own last lines: counts that agree with the exit code, skipped suites included.
for (const line of skipped) console.log(line);
const backends = `PostgreSQL ${process.env.DATABASE_URL?.startsWith('postgres') ? 'on' : 'off'}, Redis ${process.env.REDIS_URL ? 'on' : 'off'}`;
if (!totals) {
  console.log(`leadbase tests: ${files.length} files, no totals (the runner exited ${status} before reporting); exit ${status}`);
} else {
  for (const failure of totals.failures) {
    console.log(`# failed: ${failure.test}${failure.reason ? `: ${failure.reason}` : ''}`);
    for (const note of failure.notes) console.log(`#   its diagnostic: ${note}`);
  }
  let failed = totals.failed;
  // A crash or timeout that node did not report as a failing test still fails the run: say so.
  if (status !== 0 && failed === 0) failed = 1;
  console.log(
    `leadbase tests: ${files.length} files, ${totals.passed} passed, ${failed} failed, ${totals.skipped} skipped tests, ` +
      `${totals.skippedSuites} skipped suites (${backends}); exit ${failed > 0 ? status || 1 : status}`,
  );
  if (failed > 0 && status === 0) process.exit(1);
}
process.exit(status);
