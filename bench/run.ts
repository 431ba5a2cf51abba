// `npm run bench` runs every benchmark; `npm run bench -- platform jobs` runs the named ones.
// Extra arguments after `--` that start with `--` are passed to each benchmark (e.g. --quick).
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const dir = join(process.cwd(), 'bench');
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort((a, b) => (a === 'platform' ? -1 : b === 'platform' ? 1 : a.localeCompare(b)));

const args = process.argv.slice(2);
const names = args.filter((a) => !a.startsWith('--'));
const flags = args.filter((a) => a.startsWith('--'));
if (names.includes('help') || flags.includes('--help')) {
  console.log(`usage: npm run bench [-- NAME ...] [-- --quick]\navailable: ${available.join(', ')}`);
  process.exit(0);
}
const unknown = names.filter((n) => !available.includes(n));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}

let failed = false;
for (const name of names.length ? names : available) {
  console.log(`\n=== bench: ${name} ===`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', join(dir, `${name}.bench.ts`), ...flags], { stdio: 'inherit' });
  if (res.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
