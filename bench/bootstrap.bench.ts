// `npm run bench -- bootstrap [--quick]`: how fast open data fills an install.
//  1. Every data-set kind's own measure (bench/bootstrap/<type>.ts): its run against a simulated
//     upstream at scale, against the bound the upstream's rate limit sets (ratio = seconds / bound,
//     target ≤ 1.5) and in rows/s. One table.
//  2. Time to first answers: `leadbase serve` and `leadbase bootstrap` start together on a fresh
//     SQLite file against every fake upstream of test/support/upstreams (the boards' API answering
//     after a delay, as over a network); the time from serve's start to the first found answer of
//     /company-funding, /company-search, /jobs-finder and /role-finder (target: within 2 minutes).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { LEADBASE_BIN, runLeadbase } from '../test/support/cli.ts';
import { startServerProcess } from '../test/support/server-process.ts';
import { envFor, type Mirror } from '../test/support/bootstrap.ts';
import { BOARDS_CSV } from '../test/support/upstreams/boards.ts';
import { openDatabase } from '../src/db/database.ts';
import { createServices } from '../src/services.ts';
import { loadConfig } from '../src/platform/config.ts';
import { endpointExamples } from '../src/sources/answers.ts';
import type { SourceMeasurement } from './support/source-bench.ts';

const quick = process.argv.includes('--quick');
const FIRST_ANSWERS = ['/company-funding', '/company-search', '/jobs-finder', '/role-finder'];
const TARGET_SECONDS = 120;
/** Latency of the simulated boards' API per answer. */
const BOARD_LATENCY_MS = 200;

async function measureKinds(): Promise<void> {
  const dir = join(process.cwd(), 'bench', 'bootstrap');
  const modules = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .sort()
    : [];
  console.log(
    `\n1. Data sets against their simulated upstreams (${modules.length} measure modules in bench/bootstrap/)${quick ? ', quick' : ''}`,
  );
  if (!modules.length) {
    console.log('   none: each data-set kind adds bench/bootstrap/<type>.ts (worker and server helpers live in bench/support/)');
    return;
  }
  const rows: SourceMeasurement[] = [];
  for (const file of modules) {
    const module = (await import(pathToFileURL(join(dir, file)).href)) as {
      measure?: (o: { quick: boolean }) => Promise<SourceMeasurement>;
    };
    if (!module.measure) continue;
    try {
      rows.push(await module.measure({ quick }));
    } catch (error) {
      rows.push({
        source: file,
        rows: 0,
        seconds: 0,
        rowsPerSecond: 0,
        boundSeconds: 0,
        ratio: NaN,
        note: `failed: ${(error as Error).message}`,
      });
    }
  }
  console.log('   | source | rows | seconds | bound (s) | ratio (≤ 1.5) | rows/s | note |');
  console.log('   |---|---:|---:|---:|---:|---:|---|');
  for (const r of rows)
    console.log(
      `   | ${r.source} | ${r.rows.toLocaleString('en-US')} | ${r.seconds.toFixed(1)} | ${r.boundSeconds.toFixed(1)} | ${r.ratio.toFixed(2)} | ` +
        `${Math.round(r.rowsPerSecond).toLocaleString('en-US')} | ${r.note} |`,
    );
}

async function startMirrors(): Promise<Mirror[]> {
  const dir = join(process.cwd(), 'test', 'support', 'upstreams');
  const mirrors: Mirror[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const module = (await import(pathToFileURL(join(dir, file)).href)) as {
      startMirror?: (options?: { delayMs?: number }) => Promise<Mirror>;
    };
    if (module.startMirror) mirrors.push(await module.startMirror(file === 'boards.ts' ? { delayMs: BOARD_LATENCY_MS } : undefined));
  }
  return mirrors;
}

async function firstAnswers(): Promise<void> {
  console.log(`\n2. Time from serve's start to the first found answer while bootstrap runs (target ≤ ${TARGET_SECONDS} s)`);
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-bench-bootstrap-'));
  const mirrors = await startMirrors();
  const env = envFor(dir);
  try {
    // The key (and the schema) first, so that the two processes do not both create the new file.
    const created = await runLeadbase(['keys', 'create', '--name', 'bench', '--credits', '100000', '--json'], env);
    if (created.status !== 0) throw new Error(created.stderr);
    const key = (JSON.parse(created.stdout) as { key: string }).key;
    const started = Date.now();
    const server = await startServerProcess({ ...env, CRAWL_ENABLED: '0' });
    const bootstrap = spawn(
      process.execPath,
      [
        LEADBASE_BIN,
        'bootstrap',
        '--json',
        '-q',
        '--discover-limit',
        '0',
        '--boards',
        BOARDS_CSV,
        ...mirrors.flatMap((m) => ['--mirror', `${m.name}=${m.url}`]),
      ],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let bootstrapSeconds: number | null = null;
    const finished = new Promise<void>((resolve) =>
      bootstrap.on('close', () => {
        bootstrapSeconds = (Date.now() - started) / 1000;
        resolve();
      }),
    );
    const found = new Map<string, number>();
    const handle = openDatabase(env.DATABASE_URL!);
    const services = createServices({ db: handle.db, dialect: handle.dialect, config: loadConfig(env), background: false });
    try {
      const deadline = started + (quick ? 60_000 : 2 * TARGET_SECONDS * 1000);
      let lastLook = false;
      while (found.size < FIRST_ANSWERS.length && Date.now() < deadline) {
        const done = bootstrapSeconds !== null;
        const examples = await endpointExamples({
          db: handle.db,
          companies: services.companies,
          jobs: services.jobs,
          people: services.people,
        });
        for (const example of examples) {
          if (!FIRST_ANSWERS.includes(example.endpoint) || found.has(example.endpoint) || !example.body) continue;
          const response = await fetch(`${server.url}${example.endpoint}`, {
            method: 'POST',
            headers: { 'x-api-key': key, 'content-type': 'application/json' },
            body: JSON.stringify(example.body),
          });
          await response.text();
          if (response.status === 200 && Number(response.headers.get('x-credits-cost')) > 0)
            found.set(example.endpoint, (Date.now() - started) / 1000);
        }
        if (lastLook) break;
        if (done)
          lastLook = true; // one more look after bootstrap ended, then what is missing has no source
        else await sleep(250);
      }
      await finished;
    } finally {
      await services.close();
      await handle.close();
      await server.stop();
    }
    console.log(
      `   bootstrap took ${bootstrapSeconds === null ? '?' : (bootstrapSeconds as number).toFixed(1)} s (boards' API at ${BOARD_LATENCY_MS} ms a request)`,
    );
    console.log('   | endpoint | first found answer after (s) | within target |');
    console.log('   |---|---:|---|');
    for (const endpoint of FIRST_ANSWERS) {
      const at = found.get(endpoint);
      console.log(
        `   | ${endpoint} | ${at === undefined ? 'none: no source of its data ran' : at.toFixed(1)} | ${at === undefined ? '—' : at <= TARGET_SECONDS ? 'yes' : 'no'} |`,
      );
    }
  } finally {
    await Promise.all(mirrors.map((m) => m.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}

await measureKinds();
await firstAnswers();
