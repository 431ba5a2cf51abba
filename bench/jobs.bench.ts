// Jobs at scale: ingest rate of the whole pipeline (normalize, link companies, store, index) and
// POST /jobs-finder search latency for a fixed query mix, on SQLite and (when DATABASE_URL names
// one) PostgreSQL. Baselines measured in the same run: inserting the same postings as bare rows
// into an unindexed table (ingest), and reading one page of 20 listings by primary key (queries).
//   npm run bench -- jobs                        1,000,000 listings over 20,000 company boards
//   npm run bench -- jobs --listings=200000 --companies=4000
//   npm run bench -- jobs --quick                50,000 listings over 1,000 boards
//   --dialects=sqlite,postgres   --queries=200   --keep (keep the SQLite file or PostgreSQL schema, print where)
//   --db=PATH    query phase only, on a SQLite file an earlier --keep run left (add --optimize to
//                compact its search index first, as `leadbase import jobs` does after a large import)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { CompanyService } from '../src/companies/service.ts';
import { JobService } from '../src/jobs/service.ts';
import { MIX } from './support/jobs-mix.ts';
import { generateBoards } from './support/jobs-generator.ts';
import { fmt, mainThreadCpuMs, ratio, summarize, timeCalls } from './support/stats.ts';
import { openBenchDatabase } from './support/bench-db.ts';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const quick = process.argv.includes('--quick');
const LISTINGS = Number(arg('listings', quick ? '50000' : '1000000'));
const COMPANIES = Number(arg('companies', String(Math.max(10, Math.round(LISTINGS / 50)))));
const QUERIES = Number(arg('queries', quick ? '100' : '200'));
const keep = process.argv.includes('--keep');
const reuse = arg('db', '');
const pgUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const dialects = arg('dialects', pgUrl ? 'sqlite,postgres' : 'sqlite').split(',');
const NOW = Date.parse('2026-11-20T12:00:00Z');

console.log(
  `jobs benchmark: ${LISTINGS.toLocaleString('en')} listings over ${COMPANIES.toLocaleString('en')} company boards, ${QUERIES} timed calls per query of the mix`,
);

const dir = mkdtempSync(join(tmpdir(), 'leadbase-jobs-bench-'));

async function open(dialect: string): Promise<{ handle: DatabaseHandle; where: string; drop: () => Promise<void> }> {
  return openBenchDatabase(dialect, { dir, sqliteFile: reuse || undefined, pgUrl, schemaPrefix: 'bench_jobs', poolSize: 4 });
}

const results: string[] = [];

for (const dialect of dialects) {
  const { handle, where, drop } = await open(dialect);
  try {
    await migrateToLatest(handle.db);
    const companies = new CompanyService({ db: handle.db });
    const jobs = new JobService({ db: handle.db, companies });
    let baselineRows = 0;
    let baselineRate = NaN;
    let ingestMs = NaN;
    let imported = 0;
    let rejected = 0;
    let analyzeMs = NaN;
    let ingestCpuSeconds = NaN;
    let mergeMs = NaN;
    let ingestMainCpuMs = NaN;
    let mergeMainCpuMs = NaN;
    if (!reuse) {
      // Ingest baseline: the same postings as bare rows (JSON) into an unindexed table, same batch size.
      await sql`create table bench_baseline (id integer primary key, payload text not null)`.execute(handle.db);
      const baselineCount = Math.min(LISTINGS, 100_000);
      let baselineMs = 0;
      for (const board of generateBoards({
        listings: baselineCount,
        companies: Math.max(1, Math.round((COMPANIES * baselineCount) / LISTINGS)),
        now: NOW,
      })) {
        const t = performance.now();
        for (let i = 0; i < board.listings.length; i += 500) {
          const chunk = board.listings.slice(i, i + 500).map((l) => ({ id: ++baselineRows, payload: JSON.stringify(l) }));
          await handle.db.transaction().execute((trx) =>
            trx
              .insertInto('bench_baseline' as never)
              .values(chunk as never)
              .execute(),
          );
        }
        baselineMs += performance.now() - t;
      }
      baselineRate = baselineRows / (baselineMs / 1000);
      await sql`drop table bench_baseline`.execute(handle.db);

      // Ingest: every board through the real import path (JobService.importer.importBoards, as `leadbase import
      // jobs` runs it), the time spent generating boards excluded.
      let generationMs = 0;
      let lastReport = Date.now();
      const generated = generateBoards({ listings: LISTINGS, companies: COMPANIES, now: NOW });
      function* timedBoards() {
        for (;;) {
          const t = performance.now();
          const next = generated.next();
          generationMs += performance.now() - t;
          if (next.done) return;
          yield { source: next.value.source, board: next.value.board, listings: next.value.listings };
        }
      }
      const cpuStart = process.cpuUsage();
      const mainCpuStart = mainThreadCpuMs();
      const ingestStart = performance.now();
      await jobs.importer.importBoards(timedBoards(), {
        now: NOW,
        mergeIndex: false,
        onBoard: (_, summary) => {
          imported += summary.inserted;
          rejected += summary.rejectedTotal;
          if (Date.now() - lastReport > 15_000) {
            lastReport = Date.now();
            process.stderr.write(
              `  ${dialect}: ${imported.toLocaleString('en')} listings, ${fmt(imported / ((performance.now() - ingestStart - generationMs) / 1000), 0)}/s\n`,
            );
          }
        },
      });
      // As `leadbase import jobs` does: the boards' new listings become searchable in one sorted merge.
      const mergeStart = performance.now();
      const mergeCpuStart = mainThreadCpuMs();
      await jobs.mergeStagedIndex();
      mergeMs = performance.now() - mergeStart;
      mergeMainCpuMs = mainThreadCpuMs() - mergeCpuStart;
      ingestMainCpuMs = mainThreadCpuMs() - mainCpuStart - generationMs;
      ingestMs = performance.now() - ingestStart - generationMs;
      const cpu = process.cpuUsage(cpuStart);
      ingestCpuSeconds = (cpu.user + cpu.system) / 1e6;
    }
    const ingestRate = imported / (ingestMs / 1000);
    // After the load, what production does after a large import: the importer compacts the search
    // index (SQLite: FTS5 optimize + analyze); PostgreSQL's autovacuum is done here at once.
    const maintain = !reuse || process.argv.includes('--optimize');
    if (maintain) {
      const t0 = performance.now();
      if (dialect === 'postgres') await sql`vacuum`.execute(handle.db);
      await jobs.optimizeSearchIndex();
      analyzeMs = performance.now() - t0;
    }
    if (reuse) imported = Number((await sql<{ n: number }>`select count(*) as n from jobs`.execute(handle.db)).rows[0].n);

    const ids = (await handle.db.selectFrom('jobs').select('id').orderBy('id').limit(50_000).execute()).map((r) => Number(r.id));
    let k = 0;
    const page = () => ids.slice((k = (k + 20) % (ids.length - 20)), k + 20);
    // Warm-up: prepared statements and page cache.
    for (const [, body] of MIX) for (let i = 0; i < 10; i++) await jobs.search(body(i), NOW);
    const baseline = summarize(
      await timeCalls(QUERIES, () => handle.db.selectFrom('jobs').selectAll().where('id', 'in', page()).execute()),
    );

    const size = dialect === 'sqlite' ? `, database file ${(statSync(reuse || join(dir, 'bench.sqlite')).size / 1e9).toFixed(2)} GB` : '';
    const lines = [
      `\n## ${dialect}: ${imported.toLocaleString('en')} listings${size}`,
      '| measure | value | vs baseline |',
      '|---|---|---|',
      `| baseline: bare rows into an unindexed table (${baselineRows.toLocaleString('en')} rows) | ${fmt(baselineRate, 0)} rows/s | 1.00x |`,
      `| ingest: normalize + link company + store + index (${rejected} rejected; the index merge, ${fmt(mergeMs / 1000, 1)} s, included) | ${fmt(ingestRate, 0)} listings/s in ${fmt(ingestMs / 1000, 0)} s | ${ratio(ingestRate, baselineRate)} |`,
      `| ingest per CPU-second of this process (generation included${dialect === 'postgres' ? '; server CPU not counted' : ''}) | ${fmt(imported / ingestCpuSeconds, 0)} listings per CPU-s | |`,
      `| importing thread's CPU per listing (generation excluded): whole ingest / the merge alone | ${fmt((ingestMainCpuMs * 1000) / imported, 1)} / ${fmt((mergeMainCpuMs * 1000) / imported, 1)} µs | |`,
      `| after the load: ${dialect === 'postgres' ? 'vacuum, analyze' : 'search index compacted (FTS5 optimize), analyze'} | ${maintain ? `${fmt(analyzeMs / 1000, 1)} s` : 'not run (--db without --optimize)'} | |`,
      `| baseline: one page of 20 listings by primary key, p50 / p95 / p99 | ${fmt(baseline.p50, 2)} / ${fmt(baseline.p95, 2)} / ${fmt(baseline.p99, 2)} ms | 1.00x |`,
    ];
    for (const [name, body] of MIX) {
      const totals: number[] = [];
      const s = summarize(await timeCalls(QUERIES, async (i) => totals.push((await jobs.search(body(i), NOW)).total_count)));
      const avgTotal = Math.round(totals.reduce((a, b) => a + b, 0) / totals.length);
      lines.push(
        `| ${name} (mean total_count ${avgTotal.toLocaleString('en')}), p50 / p95 / p99 | ${fmt(s.p50, 2)} / ${fmt(s.p95, 2)} / ${fmt(s.p99, 2)} ms | ${ratio(s.p95, baseline.p95)} at p95 |`,
      );
    }
    console.log(lines.join('\n'));
    results.push(...lines);
  } finally {
    if ((keep || reuse) && dialect === 'sqlite') {
      await handle.close();
      if (!reuse) console.log(`(kept ${join(dir, 'bench.sqlite')})`);
    } else if (keep) {
      await handle.close();
      console.log(`(kept ${where}; drop it with \`drop schema … cascade\`)`);
    } else {
      await drop();
    }
  }
}
if (!keep) rmSync(dir, { recursive: true, force: true });
else console.log(`(kept ${dir})`);
