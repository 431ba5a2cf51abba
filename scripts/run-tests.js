#!/usr/bin/env node
// Finds every test/**/*.test.ts and runs them with node's test runner through tsx.
// Usage: npm test [-- path-fragment ...] to run only files whose path contains a fragment.
//   npm test -- --year-ahead [path-fragment ...]: the same with the wall clock a year ahead (libfaketime),
//   on SQLite only, by default over the date-sensitive directories (YEAR_AHEAD_DIRS). A test that passes
//   today and fails a year from now dates something "recent" with a fixed date. With
//   `--after SUMMARY` (a file the main pass wrote through LEADBASE_TEST_SUMMARY) it ends with one line
//   counting both passes, and fails when either did: CI reads the last summary line and the exit code.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

// The directories whose code reads the clock against stored dates: listings' age, schedules, expiries.
const YEAR_AHEAD_DIRS = ['test/jobs/', 'test/sources/', 'test/bulk/', 'test/billing/'];
const YEAR_AHEAD = '+365d';
const LIBFAKETIME = ['/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1', '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1'];

const args = process.argv.slice(2);
const yearAhead = args.includes('--year-ahead');
const afterIndex = args.indexOf('--after');
const afterFile = afterIndex >= 0 ? args[afterIndex + 1] : undefined;
const filters = args.filter((arg, i) => arg !== '--year-ahead' && (afterIndex < 0 || (i !== afterIndex && i !== afterIndex + 1)));
if (yearAhead && filters.length === 0) filters.push(...YEAR_AHEAD_DIRS);
const files = findTests('test')
  .map((f) => relative('.', f))
  .filter((f) => filters.length === 0 || filters.some((frag) => f.includes(frag)))
  .sort();

const testEnv = { ...process.env, LEADBASE_TEST: '1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' };
if (yearAhead) {
  const library = LIBFAKETIME.find((path) => existsSync(path));
  if (!library) {
    console.log('leadbase tests: --year-ahead needs libfaketime (apt-get install -y faketime); exit 1');
    process.exit(1);
  }
  // PostgreSQL's now() and Redis's clock are not faked: a year-ahead run on them would compare two clocks.
  delete testEnv.DATABASE_URL;
  delete testEnv.REDIS_URL;
  // Only the wall clock moves. Monotonic clocks (timers, timeouts) stay true, and so do file times:
  // faked, they would make dist/ look older than src/ and a `leadbase` command under test would rebuild
  // it and stamp the build a year ahead, after which a real edit would never look newer.
  Object.assign(testEnv, {
    LD_PRELOAD: [library, process.env.LD_PRELOAD].filter(Boolean).join(':'),
    FAKETIME: YEAR_AHEAD,
    DONT_FAKE_MONOTONIC: '1',
    NO_FAKE_STAT: '1',
  });
  // Prove the clock really moved for node before trusting a green run.
  const probe = spawnSync(process.execPath, ['-e', 'console.log(Date.now())'], { env: testEnv, encoding: 'utf8' });
  const ahead = (Number(probe.stdout) - Date.now()) / 86_400_000;
  if (!(ahead > 364 && ahead < 366)) {
    console.log(`leadbase tests: --year-ahead could not move node's clock (${probe.stdout.trim() || probe.stderr.trim()}); exit 1`);
    process.exit(1);
  }
  console.log(
    `# the clock a year ahead: node's Date.now() reads ${new Date(Number(probe.stdout)).toISOString()} (libfaketime, SQLite only)`,
  );
}

const skipped = [];
if (!testEnv.DATABASE_URL?.startsWith('postgres')) {
  skipped.push('# DATABASE_URL is not a postgres:// URL: PostgreSQL test suites are SKIPPED (they run when it is set).');
}
if (!testEnv.REDIS_URL) {
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
  { stdio: 'inherit', env: testEnv },
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
const backends =
  `PostgreSQL ${testEnv.DATABASE_URL?.startsWith('postgres') ? 'on' : 'off'}, Redis ${testEnv.REDIS_URL ? 'on' : 'off'}` +
  (yearAhead ? `, the clock ${YEAR_AHEAD} ahead` : '');
// This pass's counts; `exit` agrees with them.
let summary;
if (!totals) {
  console.log(`leadbase tests: ${files.length} files, no totals (the runner exited ${status} before reporting); exit ${status}`);
  summary = { files: files.length, passed: 0, failed: status === 0 ? 0 : 1, skipped: 0, skippedSuites: 0, backends, exit: status };
} else {
  for (const failure of totals.failures) {
    console.log(`# failed: ${failure.test}${failure.reason ? `: ${failure.reason}` : ''}`);
    for (const note of failure.notes) console.log(`#   its diagnostic: ${note}`);
  }
  let failed = totals.failed;
  // A crash or timeout that node did not report as a failing test still fails the run: say so.
  if (status !== 0 && failed === 0) failed = 1;
  const exit = failed > 0 ? status || 1 : status;
  console.log(
    `leadbase tests: ${files.length} files, ${totals.passed} passed, ${failed} failed, ${totals.skipped} skipped tests, ` +
      `${totals.skippedSuites} skipped suites (${backends}); exit ${exit}`,
  );
  summary = {
    files: files.length,
    passed: totals.passed,
    failed,
    skipped: totals.skipped,
    skippedSuites: totals.skippedSuites,
    backends,
    exit,
  };
}
if (process.env.LEADBASE_TEST_SUMMARY) writeFileSync(process.env.LEADBASE_TEST_SUMMARY, JSON.stringify(summary));

if (afterFile !== undefined) {
  // One closing line for both passes, last: CI reads the last `N passed, N failed` line and the exit code.
  let main;
  try {
    main = JSON.parse(readFileSync(afterFile, 'utf8'));
  } catch {
    // No summary from the main pass means it never finished: count it as failed.
    main = { files: 0, passed: 0, failed: 1, skipped: 0, skippedSuites: 0, backends: 'no summary', exit: 1 };
  }
  const exit = main.exit !== 0 ? main.exit : summary.exit;
  console.log(
    `leadbase tests, both passes: ${main.files + summary.files} files, ${main.passed + summary.passed} passed, ` +
      `${main.failed + summary.failed} failed, ${main.skipped + summary.skipped} skipped tests, ` +
      `${main.skippedSuites + summary.skippedSuites} skipped suites (main: ${main.passed} passed, ${main.failed} failed, ${main.backends}; ` +
      `year ahead: ${summary.passed} passed, ${summary.failed} failed, ${summary.backends}); exit ${exit}`,
  );
  process.exit(exit);
}
process.exit(summary.exit);
