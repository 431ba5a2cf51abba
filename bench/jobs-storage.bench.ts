// The storage half of a jobs import, alone: listings are normalized before the clock starts, then
// stored board by board (one transaction each) through JobService.importer.importNormalized and
// expireUnseen, then the staged index entries merged, on a fresh SQLite file. Reports wall-clock
// and process CPU per listing, so the cost of writing the listing, its index rows, day counts and
// full-text row can be compared with the normalization budget. (`leadbase import jobs` stores
// groups of boards per transaction: see JobService.importer.importBoards and the jobs benchmark.)
//   npm run bench -- jobs-storage                 50,000 listings over 1,000 boards
//   npm run bench -- jobs-storage --listings=200000
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { CompanyService } from '../src/companies/service.ts';
import { JobService } from '../src/jobs/service.ts';
import { normalizeListing, type NormalizedListing } from '../src/jobs/listing.ts';
import { generateBoards } from './support/jobs-generator.ts';
import { fmt } from './support/stats.ts';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const LISTINGS = Number(arg('listings', '50000'));
const COMPANIES = Number(arg('companies', String(Math.max(10, Math.round(LISTINGS / 50)))));
const NOW = Date.parse('2026-11-20T12:00:00Z');

const dir = mkdtempSync(join(tmpdir(), 'leadbase-jobs-storage-'));
const handle = openDatabase(`sqlite:${join(dir, 'bench.sqlite')}`);
try {
  await migrateToLatest(handle.db);
  const jobs = new JobService({ db: handle.db, companies: new CompanyService({ db: handle.db }) });
  const boards: { source: string; board: string; listings: NormalizedListing[] }[] = [];
  for (const b of generateBoards({ listings: LISTINGS, companies: COMPANIES, now: NOW })) {
    boards.push({
      source: b.source,
      board: b.board,
      listings: b.listings.map((raw) => normalizeListing(raw, { source: b.source, board: b.board, now: NOW })),
    });
  }
  let stored = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const b of boards) {
    await jobs.importer.importNormalized(b.listings, NOW);
    await jobs.repository.expireUnseen(b.source, b.board, NOW, NOW);
    stored += b.listings.length;
  }
  await jobs.mergeStagedIndex();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuUs = (cpu.user + cpu.system) / stored;
  console.log(`\n## jobs storage only (SQLite): ${stored.toLocaleString('en')} listings over ${boards.length.toLocaleString('en')} boards`);
  console.log('| measure | value |\n|---|---|');
  console.log(`| stored (normalization excluded) | ${fmt(stored / (wallMs / 1000), 0)} listings/s in ${fmt(wallMs / 1000, 1)} s |`);
  console.log(`| wall clock per listing | ${fmt((wallMs * 1000) / stored, 1)} µs |`);
  console.log(`| process CPU per listing | ${fmt(cpuUs, 1)} µs (${fmt(1e6 / cpuUs, 0)} listings per CPU-s) |`);
} finally {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
}
