// Technographics at scale: the operation's domain call (a company resolved by domain, its most recent
// listings read and matched against the technology dictionary) for random companies of a store of
// generated listings (bench/support/jobs-generator.ts, imported through the real import path, so the
// descriptions name technologies as real postings do), on SQLite and, when DATABASE_URL names one,
// PostgreSQL. The HTTP and adapter overhead over a domain call is what the rest of this benchmark measures.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { JobService } from '../../src/jobs/service.ts';
import { technographicsFromDescriptions } from '../../src/jobs/technographics.ts';
import { generateBoards } from '../support/jobs-generator.ts';
import { openBenchDatabase } from '../support/bench-db.ts';
import { seededRandom } from '../support/random.ts';
import { fmt, summarize, timeCalls } from '../support/stats.ts';

const NOW = Date.UTC(2026, 10, 1);

/** One dialect's figures: listings held, companies asked, latency of a call (ms). */
export interface TechnographicsFigures {
  dialect: string;
  listings: number;
  companies: number;
  found: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** CPU per call (ms): this process (SQLite runs in it), and PostgreSQL's backends of this run. */
  cpu: number;
  pgCpu: number | null;
  /** The companies with the most listings (the worst case), each asked several times: their listings and latency (ms). */
  largest: { listings: number; p99: number; max: number; cpu: number };
  /** The same largest companies answered the earlier way (descriptions read and matched per call), same run. */
  matchedPerCall: { p99: number; max: number; cpu: number };
  importSeconds: number;
  load: string;
}

/** Fills a fresh database with `listings` generated listings and times `queries` technographics calls. */
export async function measureTechnographics(
  dialect: string,
  options: { listings: number; queries: number },
): Promise<TechnographicsFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-technographics-'));
  const bench = await openBenchDatabase(dialect, { dir, pgUrl: process.env.DATABASE_URL, schemaPrefix: 'bench_techno', poolSize: 4 });
  try {
    const db = bench.handle.db;
    await migrateToLatest(db);
    const companies = new CompanyService({ db });
    const jobs = new JobService({ db, companies });
    const domains: string[] = [];
    const sizes: number[] = [];
    const importStart = Date.now();
    let imported = 0;
    let lastReport = Date.now();
    function* boards() {
      for (const board of generateBoards({
        listings: options.listings,
        companies: Math.max(10, Math.round(options.listings / 50)),
        now: NOW,
      })) {
        domains.push(new URL(board.listings[0].company!.website!).hostname);
        sizes.push(board.listings.length);
        yield board;
      }
    }
    await jobs.importer.importBoards(boards(), {
      now: NOW,
      mergeIndex: false,
      onBoard: (_, summary) => {
        imported += summary.inserted;
        if (Date.now() - lastReport > 15_000) {
          lastReport = Date.now();
          process.stderr.write(`  technographics ${dialect}: ${imported.toLocaleString('en')} listings imported\n`);
        }
      },
    });
    await jobs.mergeStagedIndex();
    await jobs.optimizeSearchIndex();
    const importSeconds = (Date.now() - importStart) / 1000;
    const rand = seededRandom(7);
    const asked = Array.from({ length: options.queries }, () => domains[Math.floor(rand() * domains.length)]);
    let found = 0;
    const ask = async (domain: string) => {
      const company = await companies.resolve({ company_domain: domain, company_name: null, profile_url: null });
      if (company && (await jobs.technographics(company.id))) found++;
    };
    for (const domain of asked.slice(0, 20)) await ask(domain); // warm caches, as a running server has them
    found = 0;
    const pgBefore = await backendCpuMs(db, dialect);
    const cpuBefore = process.cpuUsage();
    const ms = await timeCalls(asked.length, (i) => ask(asked[i]));
    const cpuUsed = process.cpuUsage(cpuBefore);
    const pgAfter = await backendCpuMs(db, dialect);
    const samples = summarize(ms);
    const cpu = (cpuUsed.user + cpuUsed.system) / 1000 / asked.length;
    const askedFound = found;
    // The worst case: the 20 companies with the most listings, 5 calls each.
    const biggest = [...sizes.keys()].sort((a, b) => sizes[b] - sizes[a]).slice(0, 20);
    const ids: number[] = [];
    for (const k of biggest) ids.push((await companies.resolve({ company_domain: domains[k], company_name: null, profile_url: null }))!.id);
    const timeBiggest = async (answer: (id: number) => Promise<unknown>) => {
      const before = process.cpuUsage();
      const ms = await timeCalls(ids.length * 5, (i) => answer(ids[i % ids.length]));
      const used = process.cpuUsage(before);
      return { p99: summarize(ms).p99, max: Math.max(...ms), cpu: (used.user + used.system) / 1000 / ms.length };
    };
    const big = await timeBiggest((id) => jobs.technographics(id));
    const matchedPerCall = await timeBiggest((id) => technographicsFromDescriptions(db, id));
    return {
      dialect,
      listings: imported,
      companies: domains.length,
      found: askedFound,
      p50: samples.p50,
      p95: samples.p95,
      p99: samples.p99,
      max: Math.max(...ms),
      cpu,
      pgCpu: pgBefore === null || pgAfter === null ? null : (pgAfter - pgBefore) / asked.length,
      largest: { listings: sizes[biggest[0]], ...big },
      matchedPerCall,
      importSeconds,
      load: loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    };
  } finally {
    await bench.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * CPU time (ms) of PostgreSQL's backends serving this database, from /proc (the server runs on this
 * machine), or null when they cannot be read. Only this run's connections use the benchmark's database.
 */
async function backendCpuMs(db: Parameters<typeof migrateToLatest>[0], dialect: string): Promise<number | null> {
  if (dialect !== 'postgres') return null;
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(db);
  try {
    let ticks = 0;
    for (const { pid } of rows) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks * 10; // USER_HZ 100
  } catch {
    return null;
  }
}

/** Targets: p99 under 20 ms on SQLite, under 50 ms on PostgreSQL. */
const TARGET_MS: Record<string, number> = { sqlite: 20, postgres: 50 };

/** The figures as report lines, against the targets. */
export function technographicsReport(figures: TechnographicsFigures[]): string[] {
  return figures.map((f) => {
    const target = TARGET_MS[f.dialect] ?? 50;
    return (
      `technographics ${f.dialect}: ${f.listings.toLocaleString('en')} listings, ${f.companies.toLocaleString('en')} companies ` +
      `(imported in ${fmt(f.importSeconds, 0)} s), ${f.found} of the companies asked answered; p50 ${fmt(f.p50)} ms, ` +
      `p95 ${fmt(f.p95)} ms, p99 ${fmt(f.p99)} ms, max ${fmt(f.max)} ms; CPU per call ${fmt(f.cpu)} ms here` +
      (f.pgCpu === null ? '' : ` + ${fmt(f.pgCpu)} ms PostgreSQL`) +
      `; the 20 largest companies (up to ${f.largest.listings} listings, domain call without the resolve) p99 ${fmt(f.largest.p99)} ms, ` +
      `max ${fmt(f.largest.max)} ms, CPU ${fmt(f.largest.cpu)} ms per call here (descriptions matched per call, the earlier way: ` +
      `p99 ${fmt(f.matchedPerCall.p99)} ms, max ${fmt(f.matchedPerCall.max)} ms, CPU ${fmt(f.matchedPerCall.cpu)} ms); ` +
      `load average ${f.load} (target p99 < ${target} ms: ${f.p99 < target && f.largest.p99 < target ? 'met' : 'NOT met'})`
    );
  });
}
