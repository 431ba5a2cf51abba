#!/usr/bin/env node
// Finds every test/**/*.test.ts and runs them with node's test runner through tsx.
// Usage: npm test [-- path-fragment ...] to run only files whose path contains a fragment.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

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

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=120000', ...files],
  { stdio: 'inherit', env: { ...process.env, LEADBASE_TEST: '1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
);
// Said again after the summary, where it is read (node counts a skipped suite as passing).
for (const line of skipped) console.log(line);
process.exit(result.status ?? 1);
