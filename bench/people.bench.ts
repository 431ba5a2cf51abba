// People at scale: import rate of our JSONL importer, and role-finder / mobile-finder / employee
// finder / company search latency,
// on SQLite and (when DATABASE_URL names one) PostgreSQL. Baselines measured in the same run:
// reading and parsing the file without storing it (import), and a primary-key read of one
// person through the same Kysely connection (lookups).
//   npm run bench -- people                      1,000,000 people over 100,000 companies
//   npm run bench -- people --people=200000 --companies=20000
//   npm run bench -- people --quick              20,000 people over 2,000 companies
//   --dialects=sqlite,postgres   --lookups=2000
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { CompanyService } from '../src/companies/service.ts';
import { PeopleService } from '../src/people/service.ts';
import { preparePerson } from '../src/people/input.ts';
import { readPeopleJsonl } from '../src/ingest/people/jsonl.ts';
import { runPeopleImport } from '../src/ingest/people/runner.ts';
import { companyDomain, person, profileId, writePeopleJsonl } from './support/people-generator.ts';
import { seededRandom as random } from './support/random.ts';
import { openBenchDatabase } from './support/bench-db.ts';
import { fmt, ratio, summarize, timeCalls } from './support/stats.ts';
import { jobFunctionNamed } from '../src/people/people-search.ts';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const quick = process.argv.includes('--quick');
const PEOPLE = Number(arg('people', quick ? '20000' : '1000000'));
const COMPANIES = Number(arg('companies', quick ? '2000' : '100000'));
const LOOKUPS = Number(arg('lookups', quick ? '500' : '2000'));
const pgUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const dialects = arg('dialects', pgUrl ? 'sqlite,postgres' : 'sqlite').split(',');

const dir = mkdtempSync(join(tmpdir(), 'leadbase-people-bench-'));
const file = join(dir, 'people.jsonl');
let generated = Date.now();
const bytes = await writePeopleJsonl(file, PEOPLE, COMPANIES);
generated = Date.now() - generated;
console.log(
  `people benchmark: ${PEOPLE.toLocaleString('en')} people over ${COMPANIES.toLocaleString('en')} companies, ${(bytes / 1e6).toFixed(0)} MB of JSONL (generated in ${(generated / 1000).toFixed(1)} s), ${LOOKUPS} lookups per finder`,
);

// Import baseline: read and parse every line and prepare each person, store nothing.
let t0 = Date.now();
let parsed = 0;
for await (const record of readPeopleJsonl(file).records) {
  if ('input' in record) preparePerson(record.input, 'US');
  parsed += 1;
}
const parseRate = parsed / ((Date.now() - t0) / 1000);

async function open(dialect: string): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  return openBenchDatabase(dialect, { dir, pgUrl, schemaPrefix: 'bench_people', poolSize: 4 });
}

const ROLE_QUERIES = ['CEO', 'Chief Technology Officer', 'VP of Sales', 'Head of Marketing', 'Software Engineer', 'CFO', 'Sales Director'];

for (const dialect of dialects) {
  const { handle, drop } = await open(dialect);
  try {
    await migrateToLatest(handle.db);
    const companies = new CompanyService({ db: handle.db });
    const people = new PeopleService({ db: handle.db, companies });

    t0 = Date.now();
    const summary = await runPeopleImport({
      db: handle.db,
      companies,
      source: 'bench',
      records: readPeopleJsonl(file).records,
      defaultCountry: 'US',
      batchSize: 1000,
    });
    const importSeconds = (Date.now() - t0) / 1000;
    const importRate = summary.read / importSeconds;
    if (summary.rejectedTotal) console.log(`  (${summary.rejectedTotal} rows rejected, first: ${summary.rejected[0]?.reason})`);
    // Fresh planner statistics after a bulk load, as an operator would (autovacuum does it later).
    if (dialect === 'postgres') await sql`analyze`.execute(handle.db);

    const rnd = random(42);
    const pick = (n: number) => Math.floor(rnd() * n);
    // Warm-up: prepared statements and page cache.
    for (let i = 0; i < 200; i++) await people.findRole({ company_domain: companyDomain(pick(COMPANIES)), job_title: 'CEO' });

    const baseline = summarize(
      await timeCalls(LOOKUPS, () =>
        handle.db
          .selectFrom('people')
          .selectAll()
          .where('id', '=', 1 + pick(PEOPLE))
          .executeTakeFirst(),
      ),
    );
    let roleFound = 0;
    const role = summarize(
      await timeCalls(LOOKUPS, async (i) => {
        const found = await people.findRole({
          company_domain: companyDomain(pick(COMPANIES)),
          job_title: ROLE_QUERIES[i % ROLE_QUERIES.length],
        });
        if (found) roleFound += 1;
      }),
    );
    let roleByNameFound = 0;
    const roleByName = summarize(
      await timeCalls(LOOKUPS, async () => {
        if (await people.findRole({ company_name: `Company ${pick(COMPANIES)}`, job_title: 'CEO' })) roleByNameFound += 1;
      }),
    );
    let mobileFound = 0;
    const mobile = summarize(
      await timeCalls(LOOKUPS, async (i) => {
        const p = pick(PEOPLE);
        const query =
          i % 2 === 0
            ? { profile_url: profileId(p) }
            : { work_email: JSON.parse(person(p, PEOPLE, COMPANIES).line).emails[0]?.email ?? 'none@example.com' };
        if (await people.findMobile(query)) mobileFound += 1;
      }),
    );
    let employeesListed = 0;
    const employees = summarize(
      await timeCalls(LOOKUPS, async () => {
        const page = await people.employees({ company_domain: companyDomain(pick(COMPANIES)) }, 0, 20);
        employeesListed += page?.employees.length ?? 0;
      }),
    );
    let profilesFound = 0;
    const profile = summarize(
      await timeCalls(LOOKUPS, async () => {
        if (await companies.profile({ company_domain: companyDomain(pick(COMPANIES)) })) profilesFound += 1;
      }),
    );
    // The reads of one person, and people search (by company; by function across the store).
    const profileSearch = summarize(await timeCalls(LOOKUPS, () => people.profileSearch(profileId(pick(PEOPLE)))));
    const jobChange = summarize(
      await timeCalls(LOOKUPS, () => people.jobChange(profileId(pick(PEOPLE)), { company_domain: companyDomain(pick(COMPANIES)) })),
    );
    const sales = [jobFunctionNamed('Sales')!.label];
    const byCompany = summarize(
      await timeCalls(LOOKUPS, async () => {
        const company = await companies.findByDomain(companyDomain(pick(COMPANIES)));
        await people.search({ companyIds: company ? [company.id] : [], functions: sales, offset: 0, limit: 25 });
      }),
    );
    const byFunction = summarize(
      await timeCalls(Math.min(LOOKUPS, 50), (i) => people.search({ functions: sales, offset: (i % 5) * 25, limit: 25 })),
    );
    const size = dialect === 'sqlite' ? `, database file ${(statSync(join(dir, 'bench.sqlite')).size / 1e9).toFixed(2)} GB` : '';
    console.log(`\n## ${dialect}${size}`);
    console.log('| measure | value | vs baseline |');
    console.log('|---|---|---|');
    console.log(`| baseline: read + parse + prepare JSONL, no storage | ${fmt(parseRate, 0)} rows/s | 1.00x |`);
    console.log(
      `| import (${summary.inserted} inserted, ${summary.rejectedTotal} rejected) | ${fmt(importRate, 0)} rows/s in ${fmt(importSeconds, 0)} s | ${ratio(importRate, parseRate)} |`,
    );
    console.log(`| baseline: person by primary key p50 / p99 | ${fmt(baseline.p50, 3)} / ${fmt(baseline.p99, 3)} ms | 1.00x / 1.00x |`);
    console.log(
      `| role finder by domain p50 / p99 (${roleFound}/${LOOKUPS} found) | ${fmt(role.p50, 3)} / ${fmt(role.p99, 3)} ms | ${ratio(role.p50, baseline.p50)} / ${ratio(role.p99, baseline.p99)} |`,
    );
    console.log(
      `| role finder by name p50 / p99 (${roleByNameFound}/${LOOKUPS} found) | ${fmt(roleByName.p50, 3)} / ${fmt(roleByName.p99, 3)} ms | ${ratio(roleByName.p50, baseline.p50)} / ${ratio(roleByName.p99, baseline.p99)} |`,
    );
    console.log(
      `| employee finder, a page of 20, p50 / p99 (${fmt(employeesListed / LOOKUPS, 1)} employees per page) | ${fmt(employees.p50, 3)} / ${fmt(employees.p99, 3)} ms | ${ratio(employees.p50, baseline.p50)} / ${ratio(employees.p99, baseline.p99)} |`,
    );
    console.log(
      `| company search by domain p50 / p99 (${profilesFound}/${LOOKUPS} found) | ${fmt(profile.p50, 3)} / ${fmt(profile.p99, 3)} ms | ${ratio(profile.p50, baseline.p50)} / ${ratio(profile.p99, baseline.p99)} |`,
    );
    console.log(
      `| profile search p50 / p99 | ${fmt(profileSearch.p50, 3)} / ${fmt(profileSearch.p99, 3)} ms | ${ratio(profileSearch.p50, baseline.p50)} / ${ratio(profileSearch.p99, baseline.p99)} |`,
    );
    console.log(
      `| job change detector p50 / p99 | ${fmt(jobChange.p50, 3)} / ${fmt(jobChange.p99, 3)} ms | ${ratio(jobChange.p50, baseline.p50)} / ${ratio(jobChange.p99, baseline.p99)} |`,
    );
    console.log(
      `| people search, one company, Sales, p50 / p99 | ${fmt(byCompany.p50, 3)} / ${fmt(byCompany.p99, 3)} ms | ${ratio(byCompany.p50, baseline.p50)} / ${ratio(byCompany.p99, baseline.p99)} |`,
    );
    console.log(
      `| people search, Sales across the store, p50 / p99 | ${fmt(byFunction.p50, 3)} / ${fmt(byFunction.p99, 3)} ms | ${ratio(byFunction.p50, baseline.p50)} / ${ratio(byFunction.p99, baseline.p99)} |`,
    );
    console.log(
      `| mobile finder p50 / p99 (${mobileFound}/${LOOKUPS} found) | ${fmt(mobile.p50, 3)} / ${fmt(mobile.p99, 3)} ms | ${ratio(mobile.p50, baseline.p50)} / ${ratio(mobile.p99, baseline.p99)} |`,
    );
  } finally {
    await drop();
  }
}
rmSync(dir, { recursive: true, force: true });
