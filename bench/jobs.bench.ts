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
//   --segment=N  import in segments of N listings, each one import then its index merge (as one
//                `leadbase import jobs` run), and report each segment's rate: the last segment's
//                against the first says whether ingest per listing holds as the store grows
//                (default: a tenth of --listings from 2,000,000 listings, else one segment)
//   --counted-terms=off  PostgreSQL: searches neither make nor use counted description terms
//                (src/jobs/counted-terms.ts), to measure what they save on the same store
//   --count-term=TEXT  PostgreSQL: makes TEXT a counted term before the queries and reports how long
//                its arrival held writers off (its matches counted from job_terms)
//   --schema=NAME  PostgreSQL: the store in this schema, kept (created when missing); with --resume an
//                interrupted run goes on: the boards already stored are skipped (the one cut off is
//                imported again, which changes nothing it had stored)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { CompanyService } from '../src/companies/service.ts';
import { JobService } from '../src/jobs/service.ts';
import { countTerm } from '../src/jobs/counted-terms.ts';
import { MIX } from './support/jobs-mix.ts';
import { generateBoards } from './support/jobs-generator.ts';
import { fmt, mainThreadCpuMs, ratio, summarize, timeCalls } from './support/stats.ts';
import { loadavg } from 'node:os';
import { openBenchDatabase } from './support/bench-db.ts';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const quick = process.argv.includes('--quick');
const LISTINGS = Number(arg('listings', quick ? '50000' : '1000000'));
const COMPANIES = Number(arg('companies', String(Math.max(10, Math.round(LISTINGS / 50)))));
const QUERIES = Number(arg('queries', quick ? '100' : '200'));
const keep = process.argv.includes('--keep');
const reuse = arg('db', '');
const SEGMENT = Number(arg('segment', String(LISTINGS >= 2_000_000 ? Math.ceil(LISTINGS / 10) : LISTINGS)));
const keptSchema = arg('schema', '') || undefined;
const resume = process.argv.includes('--resume');
const countedTerms = arg('counted-terms', 'on') !== 'off';
const countTermNow = arg('count-term', '') || undefined;
const pgUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const dialects = arg('dialects', pgUrl ? 'sqlite,postgres' : 'sqlite').split(',');
const NOW = Date.parse('2026-11-20T12:00:00Z');

console.log(
  `jobs benchmark: ${LISTINGS.toLocaleString('en')} listings over ${COMPANIES.toLocaleString('en')} company boards, ${QUERIES} timed calls per query of the mix`,
);

const dir = mkdtempSync(join(tmpdir(), 'leadbase-jobs-bench-'));

async function open(dialect: string): Promise<{ handle: DatabaseHandle; where: string; drop: () => Promise<void> }> {
  return openBenchDatabase(dialect, {
    dir,
    sqliteFile: reuse || undefined,
    pgUrl,
    schemaPrefix: 'bench_jobs',
    keptSchema: dialect === 'postgres' ? keptSchema : undefined,
    poolSize: 4,
  });
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/** Disk use of each table of the store (PostgreSQL): heap, indexes, out-of-line values, and in all; a partitioned table's partitions summed under its name. */
async function tableSizes(db: DatabaseHandle['db']): Promise<string[]> {
  const { rows } = await sql<{ name: string; heap: string; indexes: string; toast: string; total: string }>`
    select coalesce(p.relname, c.relname) || case when count(*) > 1 then ' (' || count(*) || ' partitions)' else '' end as name,
      sum(pg_relation_size(c.oid)) as heap, sum(pg_indexes_size(c.oid)) as indexes,
      sum(coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0)) as toast, sum(pg_total_relation_size(c.oid)) as total
    from pg_class c left join pg_inherits i on i.inhrelid = c.oid left join pg_class p on p.oid = i.inhparent
    where c.relkind = 'r' and c.relnamespace = current_schema()::regnamespace
    group by coalesce(p.relname, c.relname) order by sum(pg_total_relation_size(c.oid)) desc`.execute(db);
  const mb = (bytes: string | number) => fmt(Number(bytes) / 1e6, 0);
  const sum = rows.reduce((n, r) => n + Number(r.total), 0);
  return [
    `\n### disk use at the end: ${fmt(sum / 1e9, 2)} GB in all`,
    '| table | heap MB | indexes MB | out-of-line (TOAST) MB | total MB |',
    '|---|---|---|---|---|',
    ...rows
      .filter((r) => Number(r.total) >= 1e6)
      .map((r) => `| ${r.name} | ${mb(r.heap)} | ${mb(r.indexes)} | ${mb(r.toast)} | ${mb(r.total)} |`),
  ];
}

/** PostgreSQL: the server settings an ingest rate depends on most (docs/jobs.md, "Ingest on PostgreSQL"), so runs on different servers compare. */
async function serverSettings(db: DatabaseHandle['db']): Promise<string> {
  const names = ['shared_buffers', 'max_wal_size', 'checkpoint_timeout', 'wal_compression'];
  const { rows } = await sql<{ name: string; setting: string }>`
    select name, current_setting(name) as setting from pg_settings where name in (${sql.join(names)}) order by name`.execute(db);
  return `server: ${rows.map((r) => `${r.name} ${r.setting}`).join(', ')}\n`;
}

const results: string[] = [];

for (const dialect of dialects) {
  const { handle, where, drop } = await open(dialect);
  try {
    await migrateToLatest(handle.db);
    const companies = new CompanyService({ db: handle.db });
    const jobs = new JobService({ db: handle.db, companies, search: { countedTerms } });
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
    const segments: { k: number; storeBefore: number; listings: number; ms: number; mergeMs: number; load: string }[] = [];
    if (!reuse) {
      // Ingest baseline: the same postings as bare rows (JSON) into an unindexed table, same batch size.
      await sql`create table bench_baseline (id integer primary key, payload text not null)`.execute(handle.db);
      const baselineCount = resume ? 0 : Math.min(LISTINGS, 100_000);
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
      baselineRate = baselineRows ? baselineRows / (baselineMs / 1000) : NaN;
      await sql`drop table bench_baseline`.execute(handle.db);

      // Ingest: every board through the real import path (JobService.importer.importBoards, as `leadbase import
      // jobs` runs it), the time spent generating boards excluded, in segments (--segment) each
      // merged at its end. A resumed run skips the boards already stored.
      let stored = resume ? Number((await sql<{ n: string }>`select count(*) as n from jobs`.execute(handle.db)).rows[0].n) : 0;
      let generationMs = 0;
      let skipped = 0;
      const generated = generateBoards({ listings: LISTINGS, companies: COMPANIES, now: NOW });
      const nextBoard = () => {
        const t = performance.now();
        const next = generated.next();
        generationMs += performance.now() - t;
        return next.done ? undefined : next.value;
      };
      let pending = nextBoard();
      while (pending && skipped + pending.listings.length <= stored) {
        skipped += pending.listings.length;
        pending = nextBoard();
      }
      if (skipped)
        console.log(
          `resuming: ${stored.toLocaleString('en')} listings stored, ${skipped.toLocaleString('en')} of them in whole boards skipped`,
        );
      function* segmentBoards(size: number) {
        let taken = 0;
        while (pending && taken < size) {
          taken += pending.listings.length;
          yield { source: pending.source, board: pending.board, listings: pending.listings };
          pending = nextBoard();
        }
      }
      const cpuStart = process.cpuUsage();
      const mainCpuStart = mainThreadCpuMs();
      const ingestStart = performance.now();
      let lastReport = { at: performance.now(), generationMs: 0, imported: 0 };
      const toImport = LISTINGS - skipped;
      mergeMs = 0;
      mergeMainCpuMs = 0;
      for (let k = 1; pending; k++) {
        const segmentStart = { at: performance.now(), generationMs, imported, stored };
        await jobs.importer.importBoards(segmentBoards(SEGMENT), {
          now: NOW,
          mergeIndex: false,
          onBoard: (_, summary) => {
            imported += summary.inserted;
            rejected += summary.rejectedTotal;
            if (performance.now() - lastReport.at < 15_000) return;
            const recent =
              (imported - lastReport.imported) / ((performance.now() - lastReport.at - (generationMs - lastReport.generationMs)) / 1000);
            lastReport = { at: performance.now(), generationMs, imported };
            const etaMinutes = (toImport - imported) / recent / 60;
            process.stderr.write(
              `  ${dialect}: ${(skipped + imported).toLocaleString('en')} of ${LISTINGS.toLocaleString('en')} listings, ${fmt(recent, 0)}/s lately, ${fmt(imported / ((performance.now() - ingestStart - generationMs) / 1000), 0)}/s overall, ETA ${fmt(etaMinutes, 0)} min before merges; load ${load()}\n`,
            );
          },
        });
        // As `leadbase import jobs` does: the boards' new listings become searchable in one sorted merge.
        const mergeStart = performance.now();
        const mergeCpuStart = mainThreadCpuMs();
        await jobs.mergeStagedIndex();
        const segmentMergeMs = performance.now() - mergeStart;
        mergeMs += segmentMergeMs;
        mergeMainCpuMs += mainThreadCpuMs() - mergeCpuStart;
        const n = imported - segmentStart.imported;
        const ms = performance.now() - segmentStart.at - (generationMs - segmentStart.generationMs);
        stored += n;
        segments.push({ k, storeBefore: segmentStart.stored, listings: n, ms, mergeMs: segmentMergeMs, load: load() });
        if (SEGMENT < LISTINGS)
          console.log(
            `segment ${k}: ${n.toLocaleString('en')} listings into a store of ${segmentStart.stored.toLocaleString('en')}: ${fmt(n / (ms / 1000), 0)} listings/s (${fmt(ms / 1000, 0)} s, merge ${fmt(segmentMergeMs / 1000, 0)} s), load ${load()}`,
          );
      }
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
    let arrival = '';
    if (dialect === 'postgres' && countTermNow) {
      const t0 = performance.now();
      const outcome = await countTerm(handle.db, countTermNow);
      arrival = `| "${countTermNow}" made counted (--count-term): ${outcome} | ${fmt(performance.now() - t0, 0)} ms | |`;
    }
    // PostgreSQL: the costly one-term searches of the warm-up made their terms counted (in the background).
    const countingStart = performance.now();
    await jobs.searcher.settled();
    const countingWaitMs = performance.now() - countingStart;
    const countedNow =
      dialect === 'postgres'
        ? (await sql<{ term: string }>`select term from job_counted_terms order by term`.execute(handle.db)).rows.map((r) => r.term)
        : [];
    const baseline = summarize(
      await timeCalls(QUERIES, () => handle.db.selectFrom('jobs').selectAll().where('id', 'in', page()).execute()),
    );

    const size = dialect === 'sqlite' ? `, database file ${(statSync(reuse || join(dir, 'bench.sqlite')).size / 1e9).toFixed(2)} GB` : '';
    const lines = [
      `\n## ${dialect}: ${imported.toLocaleString('en')} listings${size} (load average at the end ${load()})`,
      ...(dialect === 'postgres' ? [await serverSettings(handle.db)] : []),
      '| measure | value | vs baseline |',
      '|---|---|---|',
      `| baseline: bare rows into an unindexed table (${baselineRows.toLocaleString('en')} rows) | ${fmt(baselineRate, 0)} rows/s | 1.00x |`,
      `| ingest: normalize + link company + store + index (${rejected} rejected; the index merge, ${fmt(mergeMs / 1000, 1)} s, included) | ${fmt(ingestRate, 0)} listings/s in ${fmt(ingestMs / 1000, 0)} s | ${ratio(ingestRate, baselineRate)} |`,
      `| ingest per CPU-second of this process (generation included${dialect === 'postgres' ? '; server CPU not counted' : ''}) | ${fmt(imported / ingestCpuSeconds, 0)} listings per CPU-s | |`,
      `| importing thread's CPU per listing (generation excluded): whole ingest / the merge alone | ${fmt((ingestMainCpuMs * 1000) / imported, 1)} / ${fmt((mergeMainCpuMs * 1000) / imported, 1)} µs | |`,
      `| after the load: ${dialect === 'postgres' ? 'vacuum, analyze' : 'search index compacted (FTS5 optimize), analyze'} | ${maintain ? `${fmt(analyzeMs / 1000, 1)} s` : 'not run (--db without --optimize)'} | |`,
      ...(dialect === 'postgres'
        ? [
            ...(arrival ? [arrival] : []),
            `| counted description terms after the warm-up (${countedTerms ? 'on' : 'off: neither made nor used'}; waited ${fmt(countingWaitMs / 1000, 1)} s for those being counted) | ${countedNow.length ? countedNow.join(', ') : 'none'} | |`,
          ]
        : []),
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
    if (segments.length > 1) {
      const [first, last] = [segments[0], segments[segments.length - 1]];
      const rate = (x: (typeof segments)[number]) => x.listings / (x.ms / 1000);
      lines.push(
        `\n### ingest per listing as the store grows (each segment: import, then its merge)`,
        '| segment | store before | listings | listings/s | merge s | load average |',
        '|---|---|---|---|---|---|',
        ...segments.map(
          (x) =>
            `| ${x.k} | ${x.storeBefore.toLocaleString('en')} | ${x.listings.toLocaleString('en')} | ${fmt(rate(x), 0)} | ${fmt(x.mergeMs / 1000, 0)} | ${x.load} |`,
        ),
        `last segment / first: ${ratio(rate(last), rate(first))} the rate (1.00x or more: no slower per listing in the larger store)`,
      );
    }
    if (dialect === 'postgres') lines.push(...(await tableSizes(handle.db)));
    console.log(lines.join('\n'));
    results.push(...lines);
  } finally {
    if ((keep || reuse) && dialect === 'sqlite') {
      await handle.close();
      if (!reuse) console.log(`(kept ${join(dir, 'bench.sqlite')})`);
    } else if (keep || (keptSchema && dialect === 'postgres')) {
      await handle.close();
      console.log(`(kept ${where}; drop it with \`drop schema … cascade\`)`);
    } else {
      await drop();
    }
  }
}
if (!keep) rmSync(dir, { recursive: true, force: true });
else console.log(`(kept ${dir})`);
