// Start-up cost of the `leadbase` command: CPU (user + system) of `leadbase --help`, `leadbase
// status` and `leadbase keys list` on the compiled build, against a bare `node -e 0` measured in
// the same run, interleaved, median of the runs. Each process reports its own CPU time at exit
// (bench/support/cpu-at-exit.mjs, loaded into every one, the baseline too). The database is a
// temporary SQLite file with a few keys and many sources (status counts them).
//   npm run bench -- cli                   15 runs each, 20 keys, 10,000 sources (--quick: 7 runs, 1,000 sources)
//   npm run bench -- cli --runs=N --sources=N
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIsFresh } from '../scripts/build-state.js';
import { fmt, ratio } from './support/stats.ts';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const quick = process.argv.includes('--quick');
const RUNS = Number(arg('runs', quick ? '7' : '15'));
const SOURCES = Number(arg('sources', quick ? '1000' : '10000'));
const KEYS = 20;

const root = process.cwd();
const bin = join(root, 'bin', 'leadbase.js');
const cpuHook = join(root, 'bench', 'support', 'cpu-at-exit.mjs');

if (!buildIsFresh(root)) {
  console.log('dist/ is older than src/: building it first (npm run build)');
  const built = spawnSync(process.execPath, ['scripts/build.js'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the build failed: the bench measures the compiled build only');
}

const dir = mkdtempSync(join(tmpdir(), 'leadbase-cli-bench-'));
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`, LOG_LEVEL: 'silent', REDIS_URL: '' };
try {
  const leadbase = (...args: string[]) => {
    const res = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`leadbase ${args.join(' ')}: ${res.stderr}`);
  };
  leadbase('migrate');
  for (let i = 0; i < KEYS; i++) leadbase('keys', 'create', '--name', `team ${i}`, '--credits', '100');
  const types = ['greenhouse', 'lever', 'ashby', 'workable'];
  const csv = ['type,locator', ...Array.from({ length: SOURCES }, (_, i) => `${types[i % types.length]},board${i}`)].join('\n');
  writeFileSync(join(dir, 'sources.csv'), `${csv}\n`);
  leadbase('sources', 'import', join(dir, 'sources.csv'));

  const commands: { label: string; args: string[] }[] = [
    { label: 'node -e 0', args: ['-e', '0'] },
    { label: 'leadbase --help', args: [bin, '--help'] },
    { label: 'leadbase status', args: [bin, 'status'] },
    { label: 'leadbase keys list', args: [bin, 'keys', 'list'] },
  ];
  const cpuMs = new Map<string, number[]>(commands.map((c) => [c.label, []]));
  const cpuFile = join(dir, 'cpu.txt');
  // One warm-up round (the file cache), then the runs, the commands interleaved so that a busy
  // moment of the machine falls on all of them alike.
  for (let run = -1; run < RUNS; run++) {
    for (const { label, args } of commands) {
      writeFileSync(cpuFile, '');
      const res = spawnSync(process.execPath, ['--import', cpuHook, ...args], {
        env: { ...env, CPU_AT_EXIT_FILE: cpuFile },
        encoding: 'utf8',
      });
      if (res.status !== 0) throw new Error(`${label}: ${res.stderr}`);
      if (run >= 0) cpuMs.get(label)!.push(Number(readFileSync(cpuFile, 'utf8')) / 1000);
    }
  }
  // A source edited meanwhile (bin/leadbase.js then runs the sources through tsx) spoils the figures.
  if (!buildIsFresh(root)) console.log('WARNING: src/ changed during the run: some runs went through tsx; run it again');
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const baseline = median(cpuMs.get('node -e 0')!);
  console.log(
    `leadbase command start-up: CPU per process (user + system), median of ${RUNS} runs; ` +
      `SQLite database with ${KEYS} keys and ${SOURCES.toLocaleString('en')} sources (4 types)`,
  );
  console.log('| command | CPU ms (median) | min | max | vs node -e 0 |');
  console.log('|---|---:|---:|---:|---:|');
  for (const { label } of commands) {
    const samples = cpuMs.get(label)!;
    const m = median(samples);
    console.log(
      `| \`${label}\` | ${fmt(m, 1)} | ${fmt(Math.min(...samples), 1)} | ${fmt(Math.max(...samples), 1)} | ${ratio(m, baseline)} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
