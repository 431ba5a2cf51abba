// Technographics at scale: the operation's domain call (a company resolved by domain, its most recent
// listings read and matched against the technology dictionary) for random companies of a store of
// generated listings (bench/support/jobs-generator.ts, imported through the real import path, so the
// descriptions name technologies as real postings do), on SQLite and, when DATABASE_URL names one,
// PostgreSQL. The HTTP and adapter overhead over a domain call is what the rest of this benchmark measures.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { JobService } from '../../src/jobs/service.ts';
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
  p99: number;
  max: number;
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
    let imported = 0;
    let lastReport = Date.now();
    function* boards() {
      for (const board of generateBoards({
        listings: options.listings,
        companies: Math.max(10, Math.round(options.listings / 50)),
        now: NOW,
      })) {
        domains.push(new URL(board.listings[0].company!.website!).hostname);
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
    const rand = seededRandom(7);
    const asked = Array.from({ length: options.queries }, () => domains[Math.floor(rand() * domains.length)]);
    let found = 0;
    const ask = async (domain: string) => {
      const company = await companies.resolve({ company_domain: domain, company_name: null, profile_url: null });
      if (company && (await jobs.technographics(company.id))) found++;
    };
    for (const domain of asked.slice(0, 20)) await ask(domain); // warm caches, as a running server has them
    found = 0;
    const ms = await timeCalls(asked.length, (i) => ask(asked[i]));
    const samples = summarize(ms);
    return { dialect, listings: imported, companies: domains.length, found, p50: samples.p50, p99: samples.p99, max: Math.max(...ms) };
  } finally {
    await bench.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures as report lines, against the target (p99 under 50 ms). */
export function technographicsReport(figures: TechnographicsFigures[]): string[] {
  return figures.map(
    (f) =>
      `technographics ${f.dialect}: ${f.listings.toLocaleString('en')} listings, ${f.companies.toLocaleString('en')} companies, ` +
      `${f.found} of the companies asked answered; p50 ${fmt(f.p50)} ms, p99 ${fmt(f.p99)} ms, max ${fmt(f.max)} ms ` +
      `(target p99 < 50 ms: ${f.p99 < 50 ? 'met' : 'NOT met'})`,
  );
}
