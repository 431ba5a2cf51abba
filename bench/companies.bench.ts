// Company store at scale: imports N synthetic companies (our JSONL format, bench/generate-companies.ts)
// through the real importer, then measures lookups by domain and by name. Baselines measured in the
// same run: reading + parsing + validating the file without storing it (import), and a primary-key
// SELECT of a company row (lookups).
// Usage: npm run bench -- companies [--rows=1000000] [--lookups=20000] [--batch=10000] [--quick] [--sqlite-only|--postgres-only]
//        [--parallel|--no-parallel] (parse and validate in a worker thread or not; default as `leadbase import
//        companies jsonl`: in a worker when the machine has 2 or more cores)
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { CompanyService } from '../src/companies/service.ts';
import { prepareCompany } from '../src/companies/input.ts';
import { DEFAULT_BATCH_SIZE, runCompanyImport } from '../src/ingest/companies/runner.ts';
import { parallelByDefault, prepareFileInWorker } from '../src/ingest/companies/parallel.ts';
import { readLines } from '../src/ingest/companies/lines.ts';
import { parseCompanyJsonl } from '../src/ingest/companies/jsonl.ts';
import { generateCompanies, writeCompanies } from './generate-companies.ts';
import { fmt, ratio, summarize, timeCalls } from './support/stats.ts';
import { openBenchDatabase } from './support/bench-db.ts';

const args = process.argv.slice(2);
// `--rows=N` (what `npm run bench -- companies --rows=N` passes through) or `--rows N`.
const flag = (name: string) => {
  const joined = args.find((a) => a.startsWith(`${name}=`));
  if (joined) return joined.slice(name.length + 1);
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const ROWS = Number(flag('--rows') ?? (quick ? 50_000 : 1_000_000));
const LOOKUPS = Number(flag('--lookups') ?? (quick ? 5_000 : 20_000));
const BATCH = Number(flag('--batch') ?? DEFAULT_BATCH_SIZE);
const PARALLEL = args.includes('--parallel') || (!args.includes('--no-parallel') && parallelByDefault());
const PG_URL = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const targets =
  args.includes('--sqlite-only') || !PG_URL ? ['sqlite'] : args.includes('--postgres-only') ? ['postgres'] : ['sqlite', 'postgres'];

const dir = mkdtempSync(join(tmpdir(), 'leadbase-bench-companies-'));
const file = join(dir, 'companies.jsonl');
let started = Date.now();
await writeCompanies(file, ROWS);
console.log(
  `generated ${ROWS.toLocaleString('en-US')} companies (${(statSync(file).size / 1e6).toFixed(0)} MB JSONL, ~20% with 1-3 funding rounds) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);

// CPU time of this process (every thread) per row: less sensitive to a busy machine than wall time.
const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

// Baseline: the importer's work without the database.
started = performance.now();
let cpuStarted = cpuMicros();
let parsed = 0;
for await (const record of parseCompanyJsonl(readLines(file).lines)) {
  if ('input' in record) prepareCompany(record.input);
  parsed += 1;
}
const parseRate = parsed / ((performance.now() - started) / 1000);
const parseCpu = (cpuMicros() - cpuStarted) / parsed;

// Lookup samples: random existing companies, by domain and by name (names are unique in the set).
const sampleIndexes = new Set<number>();
while (sampleIndexes.size < Math.min(LOOKUPS, ROWS)) sampleIndexes.add(Math.floor(Math.random() * ROWS));
const samples: { name: string; domain: string }[] = [];
let index = 0;
for (const c of generateCompanies(ROWS)) {
  if (sampleIndexes.has(index)) samples.push({ name: c.name, domain: c.domain });
  index += 1;
}
samples.sort(() => Math.random() - 0.5);

async function open(target: string): Promise<{ handle: DatabaseHandle; cleanup: () => Promise<void>; where: string }> {
  const db = await openBenchDatabase(target, { dir, pgUrl: PG_URL, schemaPrefix: 'bench' });
  return { handle: db.handle, where: db.where, cleanup: () => db.drop() };
}

interface Row {
  target: string;
  what: string;
  value: string;
  vs: string;
}
const rows: Row[] = [
  {
    target: '-',
    what: 'read + parse + validate, no storage (import baseline)',
    value: `${fmt(parseRate, 0)} rows/s (CPU ${fmt(parseCpu, 1)} µs/row)`,
    vs: '1.00x',
  },
];

for (const target of targets) {
  const { handle, cleanup, where } = await open(target);
  try {
    await migrateToLatest(handle.db);
    const service = new CompanyService({ db: handle.db });
    started = performance.now();
    cpuStarted = cpuMicros();
    const input = PARALLEL
      ? { batches: prepareFileInWorker('jsonl', file, BATCH).batches }
      : { records: parseCompanyJsonl(readLines(file).lines) };
    const summary = await runCompanyImport({ service, source: 'jsonl', ...input, batchSize: BATCH });
    const seconds = (performance.now() - started) / 1000;
    const rate = summary.read / seconds;
    const cpu = (cpuMicros() - cpuStarted) / summary.read;
    if (summary.inserted !== ROWS) throw new Error(`expected ${ROWS} inserted, got ${JSON.stringify(summary.toJSON()).slice(0, 300)}`);
    console.log(`${target}: ${where}: imported ${summary.inserted.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s`);
    rows.push({
      target,
      what: `import ${ROWS.toLocaleString('en-US')} rows (batches of ${BATCH}${PARALLEL ? ', parsed in a worker thread' : ', parsed on the storing thread'})`,
      value: `${fmt(rate, 0)} rows/s (CPU ${fmt(cpu, 1)} µs/row${target === 'postgres' ? ' in this process' : ''})`,
      vs: ratio(rate, parseRate),
    });

    // Warm up the statement caches, then measure sequential single lookups.
    const maxId = await service.repository.count();
    for (let i = 0; i < 200; i++) {
      await service.getById(1 + (i % maxId));
      await service.findByDomain(samples[i % samples.length].domain);
      await service.matchByName(samples[i % samples.length].name);
    }
    const byId = summarize(await timeCalls(samples.length, (i) => service.getById(1 + ((i * 7919) % maxId))));
    const byDomain = summarize(
      await timeCalls(samples.length, async (i) => {
        if (!(await service.findByDomain(samples[i].domain))) throw new Error(`domain ${samples[i].domain} not found`);
      }),
    );
    const byEmail = summarize(
      await timeCalls(samples.length, async (i) => {
        if (!(await service.findByDomain(`someone@${samples[i].domain}`))) throw new Error('email domain not found');
      }),
    );
    const byName = summarize(
      await timeCalls(samples.length, async (i) => {
        if (!(await service.matchByName(samples[i].name))) throw new Error(`name ${samples[i].name} not matched`);
      }),
    );
    const line = (what: string, s: ReturnType<typeof summarize>) =>
      rows.push({
        target,
        what: `${what} (${s.count} lookups)`,
        value: `p50 ${fmt(s.p50, 3)} ms, p99 ${fmt(s.p99, 3)} ms`,
        vs: `p50 ${ratio(s.p50, byId.p50)}, p99 ${ratio(s.p99, byId.p99)}`,
      });
    line('primary-key SELECT of a company row (lookup baseline)', byId);
    line('findByDomain(domain)', byDomain);
    line('findByDomain(email)', byEmail);
    line('matchByName(display name)', byName);
  } finally {
    await cleanup();
  }
}

console.log(
  `\ncompanies benchmark: ${ROWS.toLocaleString('en-US')} synthetic companies, ${samples.length} lookups of each kind, sequential, one process`,
);
console.log('| storage | measurement | result | vs baseline |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(`| ${r.target} | ${r.what} | ${r.value} | ${r.vs} |`);
rmSync(dir, { recursive: true, force: true });
