// What the data-set kinds' benchmarks (bench/bootstrap/<type>.ts) share: a fresh SQLite world for one
// source's run against its simulated upstream, the run timed (wall and CPU), and the row of
// `npm run bench -- bootstrap`'s table made from the rows read and the bound the upstream sets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/platform/config.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createServices, type Services } from '../../src/services.ts';
import type { Db } from '../../src/db/database.ts';
import { openBenchDatabase } from './bench-db.ts';

/** One row of the table: time against the bound the upstream's rate limit sets (ratio = seconds / bound). */
export interface SourceMeasurement {
  source: string;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  boundSeconds: number;
  ratio: number;
  note: string;
}

export interface SourceBench {
  db: Db;
  config: Config;
  services: Services;
  /** Closes the services and the database, and removes its folder. */
  close(): Promise<void>;
}

export interface SourceBenchOptions {
  /** Names the temporary folder. */
  name: string;
  /** host:port of the simulated upstreams the guarded client may reach. */
  allowHosts: string[];
  /** Settings over the benchmark's own (a contact User-Agent, a 60 s timeout). */
  env?: Record<string, string | undefined>;
}

/** A migrated SQLite database of its own in a temporary folder, and the services on it with no background work. */
export async function openSourceBench(options: SourceBenchOptions): Promise<SourceBench> {
  const dir = mkdtempSync(join(tmpdir(), `leadbase-bench-${options.name}-`));
  const database = await openBenchDatabase('sqlite', { dir, schemaPrefix: `bench_${options.name}` });
  const db = database.handle.db;
  await migrateToLatest(db);
  const config = loadConfig({ CRAWL_USER_AGENT: 'leadbase-bench (ops@example.test)', CRAWL_TIMEOUT_MS: '60000', ...options.env });
  const services = createServices({ db, dialect: 'sqlite', config, background: false, crawlAllowPrivateHosts: options.allowHosts });
  return {
    db,
    config,
    services,
    async close() {
      await services.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs a step and says how long it took: wall seconds, and CPU seconds of every thread of this process. */
export async function timed<T>(step: () => Promise<T>): Promise<{ result: T; seconds: number; cpuSeconds: number }> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const result = await step();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return { result, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

/** The table's row: rows/s and the ratio to the bound, rounded for reading. */
export function measurement(source: string, rows: number, seconds: number, boundSeconds: number, note: string): SourceMeasurement {
  return {
    source,
    rows,
    seconds: Number(seconds.toFixed(2)),
    rowsPerSecond: Math.round(rows / seconds),
    boundSeconds: Number(boundSeconds.toFixed(2)),
    ratio: Number((seconds / boundSeconds).toFixed(2)),
    note,
  };
}
