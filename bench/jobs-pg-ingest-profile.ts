// Where a PostgreSQL jobs import spends its time: every statement the import sends is timed from
// the client (round trip: server work plus transfer), summed by statement shape, beside the
// importing thread's CPU and the server backends' CPU (/proc counters of this pool's backends).
//   DATABASE_URL=postgres://…/bench_x node --import tsx bench/jobs-pg-ingest-profile.ts --listings=50000
//   --store=200000 (listings imported first, untimed, so the timed import goes into a store that size)
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { sql } from 'kysely';
import { migrateToLatest } from '../src/db/migrate.ts';
import { CompanyService } from '../src/companies/service.ts';
import { JobService } from '../src/jobs/service.ts';
import { generateBoards } from './support/jobs-generator.ts';
import { openBenchDatabase } from './support/bench-db.ts';
import { mainThreadCpuMs } from './support/stats.ts';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const LISTINGS = Number(arg('listings', '50000'));
const STORE = Number(arg('store', '0'));
const url = process.env.DATABASE_URL;
if (!url?.startsWith('postgres')) throw new Error('DATABASE_URL (postgres://…) is required');
const NOW = Date.parse('2026-11-20T12:00:00Z');

// Statement times by shape (the first 70 characters, whitespace folded).
const times = new Map<string, { n: number; ms: number }>();
const pids = new Set<number>();
// eslint-disable-next-line @typescript-eslint/unbound-method -- called with the client as `this` below
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client & { processID?: number }, ...args: unknown[]) {
  const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string })?.text ?? '');
  if (this.processID) pids.add(this.processID);
  const result = query.apply(this, args);
  if (!(result instanceof Promise)) return result;
  const key = text.replace(/\s+/g, ' ').slice(0, 70);
  const t = performance.now();
  return result.finally(() => {
    const entry = times.get(key) ?? { n: 0, ms: 0 };
    entry.n++;
    entry.ms += performance.now() - t;
    times.set(key, entry);
  });
} as typeof pg.Client.prototype.query;
const serverCpuMs = () => {
  let sum = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      sum += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // A backend that ended.
    }
  }
  return sum;
};

const bench = await openBenchDatabase('postgres', { dir: '/tmp', pgUrl: url, schemaPrefix: 'bench_ingest', poolSize: 4 });
const handle = bench.handle;
try {
  await migrateToLatest(handle.db);
  const jobs = new JobService({ db: handle.db, companies: new CompanyService({ db: handle.db }) });
  const boards = (listings: number, seed: number) =>
    [...generateBoards({ listings, companies: Math.max(10, Math.round(listings / 50)), now: NOW, seed })].map((b) => ({
      source: b.source,
      board: `${b.board}-${seed}`,
      listings: b.listings,
    }));
  if (STORE) {
    await jobs.importer.importBoards(boards(STORE, 1), { now: NOW });
    await sql`vacuum analyze`.execute(handle.db);
  }
  const input = boards(LISTINGS, 2);
  await jobs.importer.startNormalizationThread();
  times.clear();
  const server0 = serverCpuMs();
  const cpu0 = mainThreadCpuMs();
  const t0 = performance.now();
  await jobs.importer.importBoards(input, { now: NOW, mergeIndex: false });
  const importMs = performance.now() - t0;
  await jobs.mergeStagedIndex();
  const wallMs = performance.now() - t0;
  const cpuMs = mainThreadCpuMs() - cpu0;
  const serverMs = serverCpuMs() - server0;
  console.log(
    `${LISTINGS} listings into a store of ${STORE}: ${(LISTINGS / (wallMs / 1000)).toFixed(0)} listings/s (import ${(importMs / 1000).toFixed(1)} s, merge ${((wallMs - importMs) / 1000).toFixed(1)} s); importing thread CPU ${((cpuMs * 1000) / LISTINGS).toFixed(0)} µs/listing, server CPU ${((serverMs * 1000) / LISTINGS).toFixed(0)} µs/listing`,
  );
  console.log('| statement | calls | ms | µs per listing |\n|---|---|---|---|');
  for (const [key, { n, ms }] of [...times].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25))
    console.log(`| ${key.replace(/\|/g, '/')} | ${n} | ${ms.toFixed(0)} | ${((ms * 1000) / LISTINGS).toFixed(1)} |`);
} finally {
  await bench.drop();
}
