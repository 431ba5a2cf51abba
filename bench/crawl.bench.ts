// Scheduled crawls at scale: 10,000 registered Lever boards spread over 100 local hosts that answer
// after 50 ms and fail 5% of requests. The bound is set by politeness (one fetch at a time per host,
// CRAWL_HOST_INTERVAL_MS between starts) and by concurrency (workers × instances, each fetch at least
// the host's latency); a pass is done when every source has been tried once. Also reported: CPU per
// source run (the scheduler's and importer's own cost) and the history's size per run.
//   npm run bench -- crawl [-- --quick]   (PostgreSQL with two instances when DATABASE_URL is set)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../src/platform/config.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/database.ts';
import { createServices, type Services } from '../src/services.ts';
import { PgBossQueue } from '../src/queue/pgboss-queue.ts';
import { openBenchDatabase } from './support/bench-db.ts';
import { seededRandom } from './support/random.ts';
import { newSourceRow } from '../src/sources/registry.ts';

const quick = process.argv.includes('--quick');
const SOURCES = quick ? 1000 : 10_000;
const HOSTS = quick ? 20 : 100;
const LATENCY_MS = 50;
const FAILURE_RATE = 0.05;
const HOST_INTERVAL_MS = 1000;
const CONCURRENCY = Number(process.argv.find((a) => a.startsWith('--concurrency='))?.split('=')[1] ?? 32);

/** One posting per board, as Lever's postings endpoint returns it. */
function leverBoard(board: string): string {
  return JSON.stringify([
    {
      id: `${board}-0001`,
      text: `Engineer at ${board}`,
      hostedUrl: `https://jobs.lever.co/${board}/0001`,
      createdAt: 1794441600000,
      categories: { commitment: 'Full-time', location: 'Remote' },
      descriptionPlain: 'Build things.',
      description: '<p>Build things.</p>',
    },
  ]);
}

async function startHosts(): Promise<{ servers: Server[]; origins: string[]; requests: () => number }> {
  const random = seededRandom(7);
  let requests = 0;
  const servers: Server[] = [];
  const origins: string[] = [];
  for (let h = 0; h < HOSTS; h++) {
    const server = createServer((request, response) => {
      requests++;
      const board = request.url!.split('/')[3]?.split('?')[0] ?? 'x';
      setTimeout(() => {
        if (random() < FAILURE_RATE) {
          response.statusCode = 500;
          return void response.end('{"error":"upstream"}');
        }
        response.setHeader('content-type', 'application/json');
        response.end(leverBoard(board));
      }, LATENCY_MS);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    origins.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  return { servers, origins, requests: () => requests };
}

async function run(dialect: 'sqlite' | 'postgres', instances: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-bench-crawl-'));
  const hosts = await startHosts();
  const bench = await openBenchDatabase(dialect, { dir, pgUrl: process.env.DATABASE_URL, schemaPrefix: 'bench_crawl', poolSize: 20 });
  await migrateToLatest(bench.handle.db);
  const db = bench.handle.db;
  // The registry, written in bulk (registering is not what is measured).
  const now = Date.now();
  const rows = Array.from({ length: SOURCES }, (_, i) =>
    newSourceRow({
      type: 'lever',
      locator: `board${i}`,
      locator_key: `board${i}`,
      base_url: hosts.origins[i % HOSTS],
      company_id: null,
      company_name: `Company ${i}`,
      company_website: null,
      interval_ms: 6 * 3_600_000,
      discovered_from: null,
      now,
    }),
  );
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('sources')
      .values(rows.slice(i, i + 500))
      .execute();
  const config = loadConfig({
    DATABASE_URL: dialect === 'postgres' ? process.env.DATABASE_URL : 'sqlite:x',
    CRAWL_CONCURRENCY: String(CONCURRENCY),
    CRAWL_HOST_INTERVAL_MS: String(HOST_INTERVAL_MS),
    CRAWL_TICK_MS: '200',
    LOG_LEVEL: 'silent',
  });
  const pgBossSchema = dialect === 'postgres' ? `pgboss_bench_${process.pid}` : undefined;
  const handles = [bench.handle];
  // Another instance: its own connections to the same schema.
  const schema = bench.where.match(/schema (\w+)/)?.[1];
  for (let i = 1; i < instances; i++) handles.push(openDatabase(process.env.DATABASE_URL!, { pgSchema: schema, poolSize: 20 }));
  const cpuBefore = process.cpuUsage();
  const started = Date.now();
  const services: Services[] = handles.map((handle) =>
    createServices({
      db: handle.db,
      dialect: handle.dialect,
      config,
      crawlAllowPrivateHosts: hosts.origins.map((o) => new URL(o).host),
      queue: pgBossSchema ? new PgBossQueue({ connectionString: process.env.DATABASE_URL!, schema: pgBossSchema }) : undefined,
    }),
  );
  let lastReport = 0;
  for (;;) {
    const row = await db
      .selectFrom('sources')
      .select([
        sql<number>`sum(case when last_attempt_at is not null then 1 else 0 end)`.as('tried'),
        sql<number>`sum(case when last_success_at is not null then 1 else 0 end)`.as('ok'),
      ])
      .executeTakeFirstOrThrow();
    const tried = Number(row.tried);
    if (Date.now() - lastReport > 10_000) {
      lastReport = Date.now();
      console.log(
        `  … ${tried.toLocaleString('en')} of ${SOURCES.toLocaleString('en')} tried after ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
    }
    if (tried >= SOURCES) break;
    await sleep(100);
  }
  const elapsedMs = Date.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  for (const s of services) await s.close();
  const succeeded = Number(
    (
      await db
        .selectFrom('sources')
        .select(sql<number>`count(*)`.as('n'))
        .where('last_success_at', 'is not', null)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const runs = Number(
    (
      await db
        .selectFrom('source_runs')
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const historyBytes =
    dialect === 'postgres'
      ? Number((await sql<{ n: number }>`select pg_total_relation_size('source_runs') as n`.execute(db)).rows[0].n)
      : Number((await sql<{ n: number }>`select sum(pgsize) as n from dbstat where name like 'source_runs%'`.execute(db)).rows[0].n);
  const perHostPerSecond = 1000 / Math.max(HOST_INTERVAL_MS, LATENCY_MS);
  const boundPerMinute = Math.min(HOSTS * perHostPerSecond, (instances * CONCURRENCY * 1000) / LATENCY_MS) * 60;
  const perMinute = (SOURCES / elapsedMs) * 60_000;
  console.log(
    `crawl ${dialect}, ${instances} instance${instances > 1 ? 's' : ''}: ${SOURCES.toLocaleString('en')} sources on ${HOSTS} hosts ` +
      `(${LATENCY_MS} ms latency, ${FAILURE_RATE * 100}% failures, one fetch per host per ${HOST_INTERVAL_MS} ms, ${CONCURRENCY} workers per instance)\n` +
      `  refreshed ${perMinute.toFixed(0)} sources/min (${(elapsedMs / 1000).toFixed(1)} s for the pass; ${succeeded.toLocaleString('en')} succeeded, ` +
      `${(SOURCES - succeeded).toLocaleString('en')} failed and backed off), bound ${boundPerMinute.toFixed(0)}/min: ${(perMinute / boundPerMinute).toFixed(2)}x of the bound\n` +
      `  CPU per source run (scheduler, fetch, import; this process): ${((cpu.user + cpu.system) / 1000 / SOURCES).toFixed(2)} ms; ` +
      `history: ${runs.toLocaleString('en')} runs in ${(historyBytes / 1024).toFixed(0)} KiB = ${(historyBytes / Math.max(1, runs)).toFixed(0)} bytes per run; ` +
      `requests served ${hosts.requests().toLocaleString('en')}`,
  );
  for (const handle of handles.slice(1)) await handle.close();
  if (pgBossSchema) {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${pgBossSchema} cascade`);
    await admin.end();
  }
  await bench.drop();
  for (const server of hosts.servers) server.close();
  rmSync(dir, { recursive: true, force: true });
}

if (!process.argv.includes('--postgres-only')) await run('sqlite', 1);
if (process.env.DATABASE_URL?.startsWith('postgres')) await run('postgres', 2);
else console.log('crawl postgres: skipped (DATABASE_URL not set)');
