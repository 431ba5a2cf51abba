// Companies House at scale: a BasicCompanyData release of ROWS companies (5,000,000 by default,
// about the register's size; 50,000 with --quick), generated from the recorded real rows' shapes
// (bench/support/companies-house-generator.ts), served as the one-file zip by a local
// download.companieshouse.gov.uk with a round-trip latency, and read by a companies_house source
// into a fresh SQLite database, as `leadbase bootstrap` runs it.
// Run alone: npx tsx bench/bootstrap/companies_house.ts [--quick] [--rows=N] [--keep-file=PATH]
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { measurement, openSourceBench, timed, type SourceMeasurement } from '../support/source-bench.ts';
import { generatedName, writeCompaniesHouseZip } from '../support/companies-house-generator.ts';
import { currentReleaseDate, startCompaniesHouseServer } from '../../test/support/upstreams/companies-house.ts';

/** The rate the load must reach on SQLite (rows stored per second). */
const TARGET_ROWS_PER_SECOND = 20_000;
/** The upstream's round trip, waited before each answer. */
const LATENCY_MS = 50;

export async function measure(options: { quick: boolean; rows?: number; keepFile?: string }): Promise<SourceMeasurement> {
  const rows = options.rows ?? (options.quick ? 50_000 : 5_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-bench-companies-house-'));
  const date = currentReleaseDate();
  const zip = options.keepFile ?? join(dir, `BasicCompanyDataAsOneFile-${date}.zip`);
  try {
    const started = performance.now();
    if (!options.keepFile || !existsSync(zip)) await writeCompaniesHouseZip(zip, rows, `BasicCompanyDataAsOneFile-${date}.csv`);
    const generated = (performance.now() - started) / 1000;
    const size = statSync(zip).size;
    const server = await startCompaniesHouseServer({ date, oneFile: { path: zip }, parts: [], latencyMs: LATENCY_MS });
    const bench = await openSourceBench({
      name: 'companies-house',
      allowHosts: [new URL(server.url).host],
      env: { ...process.env, CRAWL_USER_AGENT: 'leadbase-bench (ops@example.test)', CRAWL_TIMEOUT_MS: '60000' },
    });
    const { services } = bench;
    try {
      const { source } = await services.sources.registry.add({ type: 'companies_house', locator: `${server.url}/en_output.html` });
      // CPU time of every thread of this process (the importer and its parsing worker): on a busy
      // machine the wall time says more about the other work than about the load.
      const { result, seconds, cpuSeconds } = await timed(async () => (await services.sources.scheduler.runNow(Number(source.id)))!);
      if (result.outcome === 'failed') throw new Error(`the run failed: ${result.error}`);
      if (result.counts.read !== rows || result.counts.refused !== 0)
        throw new Error(`read ${result.counts.read} of ${rows} rows, ${result.counts.refused} refused`);
      const probe = await services.companies.matchByName(generatedName(Math.floor(rows / 2)));
      if (!probe) throw new Error('a generated company is not found by its name');
      // No published rate limit governs the bulk file (two requests: the page and the zip): the
      // bound is the rate the load must reach, TARGET_ROWS_PER_SECOND, plus the two round trips.
      const boundSeconds = rows / TARGET_ROWS_PER_SECOND + (2 * LATENCY_MS) / 1000;
      return measurement(
        'companies_house',
        rows,
        seconds,
        boundSeconds,
        `${rows.toLocaleString('en-US')} companies, one ${(size / 1e6).toFixed(0)} MB zip (generated in ${generated.toFixed(0)} s) ` +
          `downloaded, unzipped, parsed and stored on SQLite; ${cpuSeconds.toFixed(0)} s of CPU in all threads ` +
          `(${Math.round((cpuSeconds * 1e6) / rows)} µs a row, ${Math.round(rows / cpuSeconds).toLocaleString('en-US')} rows per CPU-second), ` +
          `load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores; ` +
          `bound = ${TARGET_ROWS_PER_SECOND.toLocaleString('en-US')} rows/s (the bulk file has no published rate limit)`,
      );
    } finally {
      await bench.close();
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const value = (name: string) => args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
  const rows = value('--rows');
  const result = await measure({ quick: args.includes('--quick'), rows: rows ? Number(rows) : undefined, keepFile: value('--keep-file') });
  console.log(JSON.stringify(result, null, 2));
}
