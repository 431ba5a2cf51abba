// Competitors search at scale: the operation's domain call (a company resolved by domain, its named
// competitors and its peers of the same industry and size band ranked) for random companies of a
// store of generated companies (bench/generate-companies.ts: industries, sizes, countries), imported
// through the real company import, on SQLite and, when DATABASE_URL names one, PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { runCompanyImport } from '../../src/ingest/companies/runner.ts';
import { prepareFileInWorker } from '../../src/ingest/companies/parallel.ts';
import { generateCompanies, writeCompanies } from '../generate-companies.ts';
import { openBenchDatabase } from '../support/bench-db.ts';
import { seededRandom } from '../support/random.ts';
import { fmt, summarize, timeCalls } from '../support/stats.ts';

/** One dialect's figures: companies held and asked, latency (ms) and CPU per call (ms, this process). */
export interface CompetitorsFigures {
  dialect: string;
  companies: number;
  found: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  cpu: number;
  load: string;
}

/** Fills a fresh database with `companies` generated companies and times `queries` competitors calls (10 each). */
export async function measureCompetitors(dialect: string, options: { companies: number; queries: number }): Promise<CompetitorsFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-competitors-'));
  const bench = await openBenchDatabase(dialect, { dir, pgUrl: process.env.DATABASE_URL, schemaPrefix: 'bench_competitors', poolSize: 4 });
  try {
    const db = bench.handle.db;
    await migrateToLatest(db);
    const file = join(dir, 'companies.jsonl');
    await writeCompanies(file, options.companies);
    const service = new CompanyService({ db });
    await runCompanyImport({ service, source: 'jsonl', batches: prepareFileInWorker('jsonl', file, 1000).batches, batchSize: 1000 });
    const rand = seededRandom(11);
    const picked = new Set(Array.from({ length: options.queries + 20 }, () => Math.floor(rand() * options.companies)));
    const domains: string[] = [];
    let i = 0;
    for (const c of generateCompanies(options.companies)) if (picked.has(i++)) domains.push(c.domain);
    domains.sort(() => rand() - 0.5);
    let found = 0;
    const ask = async (domain: string) => {
      if (await service.competitors({ company_domain: domain }, 10)) found++;
    };
    for (const domain of domains.slice(0, 20)) await ask(domain); // warm caches, as a running server has them
    found = 0;
    const asked = domains.slice(20);
    const cpuBefore = process.cpuUsage();
    const ms = await timeCalls(asked.length, (k) => ask(asked[k]));
    const cpuUsed = process.cpuUsage(cpuBefore);
    const s = summarize(ms);
    return {
      dialect,
      companies: options.companies,
      found,
      p50: s.p50,
      p95: s.p95,
      p99: s.p99,
      max: Math.max(...ms),
      cpu: (cpuUsed.user + cpuUsed.system) / 1000 / asked.length,
      load: loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    };
  } finally {
    await bench.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures as report lines (no target was set for competitors search; measured against technographics'). */
export function competitorsReport(figures: CompetitorsFigures[]): string[] {
  return figures.map(
    (f) =>
      `competitors-search ${f.dialect}: ${f.companies.toLocaleString('en')} companies, ${f.found} of the companies asked answered; ` +
      `p50 ${fmt(f.p50)} ms, p95 ${fmt(f.p95)} ms, p99 ${fmt(f.p99)} ms, max ${fmt(f.max)} ms; CPU per call ${fmt(f.cpu)} ms in this process; ` +
      `load average ${f.load}`,
  );
}
