// SEC Form D, every quarter since 2009Q1, into a fresh SQLite database through the source kind, as
// a scheduled run does it: a local stand-in for the SEC (test/support/upstreams/sec.ts) serves one
// zip per quarter at the SEC's paths, 50 ms late, refusing more than 10 requests a second as the
// SEC's fair-access rule does. Quarters are generated from the recorded data sets' layout at the
// sizes the SEC publishes (about 4,000 filings a quarter in 2009 growing to about 14,000 now; a
// third pooled funds, a third amendments, related persons per filing).
//   npx tsx bench/bootstrap/formd.ts [--quick]   (or through `npm run bench -- bootstrap`)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpClient } from '../../src/net/http-client.ts';
import { readFormD } from '../../src/ingest/companies/formd.ts';
import { runCompanyImport } from '../../src/ingest/companies/runner.ts';
import { RobotsRules } from '../../src/net/robots.ts';
import { HostPoliteness } from '../../src/sources/politeness.ts';
import { SourceRunner } from '../../src/sources/runner.ts';
import { formDQuarters } from '../../src/sources/kinds/formd/index.ts';
import { formDZip } from '../../test/support/upstreams/sec.ts';
import { startTsWorker } from '../../src/platform/ts-worker.ts';
import { measurement, openSourceBench, timed, type SourceMeasurement } from '../support/source-bench.ts';
import { seededRandom } from '../support/random.ts';

/** The SEC's fair-access rule: at most 10 requests a second. */
const REQUESTS_PER_SECOND = 10;
const LATENCY_MS = 50;

const COLUMNS = {
  FORMDSUBMISSION:
    'ACCESSIONNUMBER FILE_NUM FILING_DATE SIC_CODE SCHEMAVERSION SUBMISSIONTYPE TESTORLIVE OVER100PERSONSFLAG OVER100ISSUERFLAG',
  ISSUERS:
    'ACCESSIONNUMBER IS_PRIMARYISSUER_FLAG ISSUER_SEQ_KEY CIK ENTITYNAME STREET1 STREET2 CITY STATEORCOUNTRY STATEORCOUNTRYDESCRIPTION ZIPCODE ISSUERPHONENUMBER JURISDICTIONOFINC ISSUER_PREVIOUSNAME_1 ISSUER_PREVIOUSNAME_2 ISSUER_PREVIOUSNAME_3 EDGAR_PREVIOUSNAME_1 EDGAR_PREVIOUSNAME_2 EDGAR_PREVIOUSNAME_3 ENTITYTYPE ENTITYTYPEOTHERDESC YEAROFINC_TIMESPAN_CHOICE YEAROFINC_VALUE_ENTERED',
  OFFERING:
    'ACCESSIONNUMBER INDUSTRYGROUPTYPE INVESTMENTFUNDTYPE IS40ACT REVENUERANGE AGGREGATENETASSETVALUERANGE FEDERALEXEMPTIONS_ITEMS_LIST ISAMENDMENT PREVIOUSACCESSIONNUMBER SALE_DATE YETTOOCCUR MORETHANONEYEAR ISEQUITYTYPE ISDEBTTYPE ISOPTIONTOACQUIRETYPE ISSECURITYTOBEACQUIREDTYPE ISPOOLEDINVESTMENTFUNDTYPE ISTENANTINCOMMONTYPE ISMINERALPROPERTYTYPE ISOTHERTYPE DESCRIPTIONOFOTHERTYPE ISBUSINESSCOMBINATIONTRANS BUSCOMBCLARIFICATIONTEXT MINIMUMINVESTMENTACCEPTED OVER100RECIPIENTFLAG TOTALOFFERINGAMOUNT TOTALAMOUNTSOLD TOTALREMAINING SALESAMTCLARIFICATIONTEXT HASNONACCREDITEDINVESTORS NUMBERNONACCREDITEDINVESTORS TOTALNUMBERALREADYINVESTED',
  RELATEDPERSONS:
    'ACCESSIONNUMBER RELATEDPERSON_SEQ_KEY FIRSTNAME MIDDLENAME LASTNAME STREET1 STREET2 CITY STATEORCOUNTRY STATEORCOUNTRYDESCRIPTION ZIPCODE RELATIONSHIP_1 RELATIONSHIP_2 RELATIONSHIP_3 RELATIONSHIPCLARIFICATION',
} as const;
type Table = keyof typeof COLUMNS;

const STATES = [
  ['CA', 'CALIFORNIA', 'San Francisco'],
  ['NY', 'NEW YORK', 'New York'],
  ['MA', 'MASSACHUSETTS', 'Boston'],
  ['TX', 'TEXAS', 'Austin'],
  ['DE', 'DELAWARE', 'Wilmington'],
] as const;
const INDUSTRIES = [
  'Other Technology',
  'Biotechnology',
  'Commercial',
  'Other Real Estate',
  'Oil and Gas',
  'Retailing',
  'Other Health Care',
];
const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Katherine', 'Linus'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus', 'Johnson', 'Torvalds'];
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** Filings in a quarter: about 4,000 in 2009, growing to about 14,000. */
const filingsIn = (index: number, count: number, scale: number) => Math.round((4000 + (10_000 * index) / Math.max(1, count - 1)) * scale);

/** Generates the quarters' data sets; issuers recur across quarters and amendments name the filing they amend. */
function generator(scale: number) {
  const random = seededRandom(26);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const earlier: { cik: number; accession: string; name: string }[] = [];
  let nextCik = 1_500_000;
  let sequence = 0;
  return (year: number, quarter: number, index: number, count: number) => {
    const rows: Record<Table, string[]> = { FORMDSUBMISSION: [], ISSUERS: [], OFFERING: [], RELATEDPERSONS: [] };
    const n = filingsIn(index, count, scale);
    for (let i = 0; i < n; i++) {
      const amends = earlier.length > 0 && random() < 0.33 ? pick(earlier) : null;
      const cik = amends?.cik ?? nextCik++;
      const name = amends?.name ?? `${pick(LAST)} ${pick(['Robotics', 'Labs', 'Therapeutics', 'Holdings', 'Systems'])} ${cik}, Inc.`;
      const accession = `000${cik}-${String(year).slice(2)}-${String(++sequence).padStart(6, '0')}`;
      const fund = !amends && random() < 0.33;
      const [state, stateName, city] = pick(STATES);
      const day = `${String(1 + Math.floor(random() * 28)).padStart(2, '0')}-${MONTHS[(quarter - 1) * 3 + Math.floor(random() * 3)]}-${year}`;
      const sold = Math.round(random() * 50_000) * 1000;
      rows.FORMDSUBMISSION.push([accession, `021-${cik}`, day, '', 'X0708', amends ? 'D/A' : 'D', 'LIVE', 'false', 'false'].join('\t'));
      rows.ISSUERS.push(
        [accession, 'YES', '1', String(cik).padStart(10, '0'), name, `${1 + (cik % 900)} Main Street`, '', city, state, stateName]
          .concat([String(10_000 + (cik % 89_999)), `555-01${String(cik % 100).padStart(2, '0')}`, 'DELAWARE', '', '', '', '', '', ''])
          .concat([fund ? 'Limited Partnership' : 'Corporation', '', 'withinFiveYears', String(year - (cik % 5))])
          .join('\t'),
      );
      rows.OFFERING.push(
        [accession, fund ? 'Pooled Investment Fund' : pick(INDUSTRIES), fund ? 'Venture Capital Fund' : '', fund ? 'false' : '']
          .concat(['Decline to Disclose', '', '06b', amends ? 'true' : 'false', amends?.accession ?? '', `${year}-0${quarter * 3 - 2}-15`])
          .concat(['false', 'false', 'true', 'false', 'false', 'false', fund ? 'true' : 'false', 'false', 'false', 'false', '', 'false'])
          .concat(['', '0', 'false', String(sold * 2), String(sold), String(sold), '', 'false', '0', String(1 + (cik % 40))])
          .join('\t'),
      );
      const persons = 1 + Math.floor(random() * 4);
      for (let p = 1; p <= persons; p++)
        rows.RELATEDPERSONS.push(
          [accession, String(p), pick(FIRST), '', pick(LAST), '100 Main Street', '', city, state, stateName, '02110']
            .concat(['Executive Officer', p === 1 ? 'Director' : '', '', p === 1 ? 'Chief Executive Officer' : p === 2 ? 'CFO' : ''])
            .join('\t'),
        );
      if (!amends && !fund) earlier.push({ cik, accession, name });
    }
    const tables = Object.fromEntries(
      (Object.keys(COLUMNS) as Table[]).map((t) => [t, Buffer.from(`${COLUMNS[t].split(' ').join('\t')}\n${rows[t].join('\n')}\n`)]),
    );
    const dataRows = Object.values(rows).reduce((sum, list) => sum + list.length, 0);
    return { zip: formDZip(year, quarter, tables), dataRows };
  };
}

/** The SEC stand-in (test/support/upstreams/sec.ts) on its own thread; close() gives its request log. */
async function startUpstream(zips: Map<string, Uint8Array>): Promise<{ url: string; close(): Promise<unknown[]> }> {
  const worker = startTsWorker(new URL('../support/formd-upstream.ts', import.meta.url), {
    workerData: { zips: [...zips], latencyMs: LATENCY_MS, perSecond: REQUESTS_PER_SECOND },
  });
  const { url } = await new Promise<{ url: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  let closed: Promise<unknown[]> | null = null;
  return {
    url,
    close: () =>
      (closed ??= new Promise<unknown[]>((resolve) => {
        worker.once('message', (m: { log: unknown[] }) => void worker.terminate().then(() => resolve(m.log)));
        worker.postMessage('close');
      })),
  };
}

/**
 * The storage bound: the same zips imported from local disk, oldest first, as `leadbase import
 * companies formd <zip>` imports one (readFormD of the file, runCompanyImport), into a fresh
 * SQLite database of its own; no network, no rate limit. A bootstrap run cannot be faster than this.
 */
async function storageSeconds(zips: Map<string, Uint8Array>): Promise<{ seconds: number; cpuSeconds: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-bench-formd-zips-'));
  const bench = await openSourceBench({ name: 'formd-local', allowHosts: [], env: { CRAWL_ENABLED: '0' } });
  try {
    const files = [...zips].map(([quarter, zip]) => {
      const path = join(dir, `${quarter}_d.zip`);
      writeFileSync(path, zip);
      return path;
    });
    const amendedOfferings = new Map<string, string>();
    const { seconds, cpuSeconds } = await timed(async () => {
      for (const path of files) {
        const formD = await readFormD(path, { amendedOfferings });
        await runCompanyImport({ service: bench.services.companies, source: 'sec-formd', records: formD.records });
      }
    });
    return { seconds, cpuSeconds };
  } finally {
    await bench.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function measure(options: { quick: boolean }): Promise<SourceMeasurement> {
  const now = Date.now();
  const quarters = formDQuarters(now);
  // Quick: the last 8 quarters at a quarter of their size; the older ones are published with no rows.
  const scale = options.quick ? 0.25 : 1;
  const fullFrom = options.quick ? quarters.length - 8 : 0;
  const generate = generator(scale);
  const zips = new Map<string, Uint8Array>();
  let zipBytes = 0;
  let dataRows = 0;
  for (const [index, q] of quarters.entries()) {
    if (index < fullFrom) continue;
    const generated = generate(q.year, q.quarter, index, quarters.length);
    zips.set(`${q.year}q${q.quarter}`, generated.zip);
    zipBytes += generated.zip.byteLength;
    dataRows += generated.dataRows;
  }
  const storage = await storageSeconds(zips);
  const mirror = await startUpstream(zips);
  const host = new URL(mirror.url).host;
  const bench = await openSourceBench({ name: 'formd', allowHosts: [host], env: { CRAWL_ENABLED: '0' } });
  const { db, config, services } = bench;
  try {
    const http = new HttpClient({ userAgent: config.crawl.userAgent, timeoutMs: 120_000, allowPrivateHosts: [host] });
    const runner = new SourceRunner({
      db,
      http,
      robots: new RobotsRules(http),
      // The stand-in is the SEC: its published rate applies to it.
      politeness: new HostPoliteness({
        db,
        minIntervalMs: config.crawl.hostIntervalMs,
        hostIntervalsMs: { [host]: 1000 / REQUESTS_PER_SECOND },
      }),
      jobs: services.jobs,
      companies: services.companies,
      people: services.people,
    });
    const { source } = await services.sources.registry.add({ type: 'formd', base_url: mirror.url });
    const { result, seconds, cpuSeconds } = await timed(() => runner.run(source, { now }));
    if (result.outcome === 'failed') throw new Error(`the run failed: ${result.error}`);
    // What was stored answers /company-funding: a company, its round, its leaders.
    const sample = await db.selectFrom('companies').select('name').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    const funding = await services.companies.funding({ company_name: sample.name });
    if (!funding?.financialInfo.lastFundingRound || !funding.leadership.ceo) throw new Error(`${sample.name}: no funding answer`);
    const requests = (await mirror.close()).length;
    const rateSeconds = requests / REQUESTS_PER_SECOND;
    // The run's true bound: the slower of what the SEC's rate allows and what storing the rows takes.
    const boundSeconds = Math.max(rateSeconds, storage.seconds);
    // A row is a row of the data set: a line of one of the four tables read (a filing is about 5.5).
    const rows = dataRows;
    const filings = result.counts.read;
    const stored = result.counts.inserted + result.counts.updated;
    return measurement(
      'formd',
      rows,
      seconds,
      boundSeconds,
      `ratio against max(rate-limit bound ${rateSeconds.toFixed(1)} s, storage bound ${storage.seconds.toFixed(1)} s); ` +
        `against the rate-limit bound alone ${(seconds / rateSeconds).toFixed(2)}; storage bound = the same zips imported from ` +
        `local disk as leadbase import companies formd does (${Math.round(rows / storage.seconds)} rows/s, ${storage.cpuSeconds.toFixed(1)} CPU-s); ` +
        `${quarters.length} quarters (${requests} requests, ${(zipBytes / 1048576).toFixed(1)} MiB of zips); ` +
        `${rows} data-set rows in 4 tables = ${filings} filings (${Math.round(filings / seconds)}/s), ` +
        `${stored} stored (${result.counts.inserted} new companies), ${result.counts.refused} refused (pooled funds); ` +
        `rate-limit bound = ${requests} requests at ${REQUESTS_PER_SECOND}/s; ${cpuSeconds.toFixed(1)} CPU-seconds ` +
        `(${Math.round(rows / cpuSeconds)} data-set rows per CPU-second; the wall clock includes waiting for a busy machine)`,
    );
  } finally {
    await bench.close();
    await mirror.close();
  }
}

if (process.argv[1]?.endsWith('formd.ts')) {
  const result = await measure({ quick: process.argv.includes('--quick') });
  console.log(JSON.stringify(result, null, 2));
}
