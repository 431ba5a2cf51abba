// People search at scale: POST /people-search's operation (the route's function: filters read,
// domains resolved, the search, the answer built) for a mix of realistic requests over a store of
// generated people, on SQLite and PostgreSQL. The store is written in bulk (multi-row inserts in
// transactions) at the schema before migration 0024_people_search, then migrated to the latest, so
// the run also times that migration's backfill at the same size. Targets: p99 < 20 ms on SQLite,
// < 50 ms on PostgreSQL.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { migrateToLatest, migrations } from '../../src/db/migrate.ts';
import { bulkInsert } from '../../src/db/bulk.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { PeopleService } from '../../src/people/service.ts';
import { LEVEL_RANK, storedRoles } from '../../src/people/titles.ts';
import { jobFunctionNamed, jobLevelNamed } from '../../src/people/people-search.ts';
import { searchPeople } from '../../src/operations/people-search.ts';
import type { PeopleSearchBody } from '../../src/contract/people.ts';
import type { Services } from '../../src/services.ts';
import { openBenchDatabase } from '../support/bench-db.ts';
import { seededRandom } from '../support/random.ts';
import { fmt, mainThreadCpuMs, summarize, timeCalls } from '../support/stats.ts';

const NOW = Date.UTC(2026, 10, 1);
/** The migration that stores the search fields: the store is generated at the schema before it. */
const SEARCH_MIGRATION = '0024_people_search';

const COUNTRIES: [string, number][] = [
  ['US', 40],
  ['GB', 10],
  ['IN', 7],
  ['DE', 6],
  ['FR', 5],
  ['CA', 4],
  ['BR', 3],
  ['AU', 3],
  ['NL', 3],
  ['ES', 3],
  ['IT', 2],
  ['SE', 2],
  ['SG', 2],
  ['JP', 2],
  ['IL', 1],
  ['IE', 1],
  ['CH', 1],
  ['MX', 1],
  ['PL', 1],
  ['NZ', 0.5],
];
const INDUSTRIES = [
  'software',
  'information technology and services',
  'financial services',
  'banking',
  'hospital & health care',
  'retail',
  'marketing and advertising',
  'staffing and recruiting',
  'construction',
  'real estate',
  'education management',
  'telecommunications',
  'logistics and supply chain',
  'insurance',
  'automotive',
  'industrial automation',
  'biotechnology',
  'consumer goods',
  'legal services',
  'media production',
];
/** Titles after each company's first person (its CEO), with their weights: most people are individual contributors. */
const TITLES: [string, number][] = [
  ['Software Engineer', 10],
  ['Senior Software Engineer', 6],
  ['Account Executive', 6],
  ['Sales Development Representative', 4],
  ['Customer Success Manager', 4],
  ['Customer Support Specialist', 3],
  ['Consultant', 3],
  ['Marketing Manager', 3],
  ['Product Manager', 3],
  ['Data Analyst', 3],
  ['Data Scientist', 2],
  ['Recruiter', 2],
  ['Accountant', 2],
  ['Designer', 2],
  ['DevOps Engineer', 2],
  ['Operations Manager', 2],
  ['Engineering Manager', 2],
  ['Sales Manager', 2],
  ['Intern', 1],
  ['UX Designer', 1],
  ['Office Manager', 1],
  ['IT Manager', 1],
  ['Security Engineer', 1],
  ['Product Marketing Manager', 1],
  ['Head of Marketing', 1],
  ['Head of People', 1],
  ['Director of Finance', 1],
  ['Director of Engineering', 1],
  ['Sales Director', 1],
  ['VP Sales', 1],
  ['VP of Engineering', 0.7],
  ['Controller', 0.7],
  ['VP Marketing', 0.5],
  ['Legal Counsel', 0.5],
  ['Procurement Specialist', 0.5],
  ['Sales Operations Manager', 0.5],
  ['Partner', 0.5],
  ['Managing Director', 0.5],
  ['Founder', 0.5],
  ['General Counsel', 0.4],
  ['Co-Founder & CEO', 0.3],
  ['Chief Financial Officer', 0.3],
];
const FIRST = ['James', 'Mary', 'Wei', 'Priya', 'Ahmed', 'Fatima', 'Lukas', 'Sofia', 'Hiroshi', 'Chloé', 'Olga', 'Kwame', 'José', 'Ana'];
const LAST = ['Smith', 'García', 'Müller', 'Nguyen', 'Kim', 'Patel', 'Singh', 'Rossi', 'Dubois', 'Tanaka', 'Silva', 'Cohen', 'Okafor'];
const SIZES: [string, number][] = [
  ['1-10', 10],
  ['11-50', 50],
  ['51-200', 200],
  ['201-500', 500],
  ['501-1000', 1000],
  ['1001-5000', 5000],
  ['5001-10000', 10000],
  ['10001+', Infinity],
];

function weighted<T>(items: [T, number][]): (u: number) => T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  return (u) => {
    let x = u * total;
    for (const [item, w] of items) if ((x -= w) < 0) return item;
    return items[items.length - 1][0];
  };
}

export const companyDomain = (c: number) => `co${c}.example`;

/** Bulk-writes `people` people over `companies` companies (company 0 the largest: sizes fall off as 1/sqrt(rank)). */
async function generate(db: Kysely<any>, people: number, companies: number, progress: (text: string) => void): Promise<void> {
  const rand = seededRandom(11);
  const country = weighted(COUNTRIES);
  const title = weighted(TITLES);
  // The company of person i: the first `companies` people are the companies' CEOs, the rest fall on
  // company floor(companies * u^2), so a few companies hold thousands and most a handful.
  const companyOf = (i: number, u: number) => (i < companies ? i : Math.min(companies - 1, Math.floor(companies * u * u)));
  const expected = (c: number) => 1 + (people - companies) * (Math.sqrt((c + 1) / companies) - Math.sqrt(c / companies));
  const companyRows: unknown[][] = [];
  const domainRows: unknown[][] = [];
  for (let c = 0; c < companies; c++) {
    const size = SIZES.find(([, max]) => expected(c) * 3 <= max)![0];
    companyRows.push([
      c + 1,
      `Company ${c}`,
      `company ${c}`,
      companyDomain(c),
      `https://${companyDomain(c)}`,
      INDUSTRIES[Math.floor(rand() * INDUSTRIES.length)],
      size,
      Math.round(expected(c) * 3),
      country(rand()),
      '{}',
      NOW,
      NOW,
    ]);
    domainRows.push([companyDomain(c), c + 1, 1, 'bench', NOW]);
  }
  await db.transaction().execute(async (trx) => {
    await bulkInsert(trx, {
      table: 'companies',
      columns: {
        id: 'int8',
        name: 'text',
        normalized_name: 'text',
        domain: 'text',
        website: 'text',
        industry: 'text',
        size_label: 'text',
        employee_count: 'int8',
        country_code: 'text',
        field_sources: 'text',
        created_at: 'int8',
        updated_at: 'int8',
      },
      values: companyRows,
    });
    await bulkInsert(trx, {
      table: 'company_domains',
      columns: { domain: 'text', company_id: 'int8', is_primary: 'int4', source: 'text', seen_at: 'int8' },
      values: domainRows,
    });
  });
  const rolesOf = new Map<string, ReturnType<typeof storedRoles>>();
  const BATCH = 20_000;
  let positionId = 0;
  let emailId = 0;
  for (let start = 0; start < people; start += BATCH) {
    const persons: unknown[][] = [];
    const positions: unknown[][] = [];
    const roles: unknown[][] = [];
    const emails: unknown[][] = [];
    for (let i = start; i < Math.min(people, start + BATCH); i++) {
      const id = i + 1;
      const first = FIRST[Math.floor(rand() * FIRST.length)];
      const last = LAST[Math.floor(rand() * LAST.length)];
      persons.push([id, `${first} ${last}`, first, last, `p-${id}`, '{}', NOW, NOW]);
      const company = companyOf(i, rand());
      const t = i < companies ? 'CEO' : title(rand());
      const analyzed = rolesOf.get(t) ?? storedRoles(t);
      rolesOf.set(t, analyzed);
      positionId++;
      positions.push([
        positionId,
        id,
        company + 1,
        t,
        analyzed.normalized,
        analyzed.modifier,
        1,
        `${company + 1}|${analyzed.normalized}|`,
        'bench',
        NOW,
      ]);
      for (const r of analyzed.roles) roles.push([positionId, id, company + 1, r.key, r.fn, r.rank]);
      if (rand() < 0.3) {
        // A past position elsewhere: stored, but not a role of the search.
        const before = (company + 7) % companies;
        positionId++;
        positions.push([
          positionId,
          id,
          before + 1,
          'Sales Manager',
          'sales manager',
          0,
          0,
          `${before + 1}|sales manager|2015`,
          'bench',
          NOW,
        ]);
      }
      if (rand() < 0.7) {
        emailId++;
        const status = rand() < 0.1 ? 'invalid' : 'valid';
        const email = `${first[0]}.${last}.${id}@${companyDomain(company)}`.toLowerCase();
        emails.push([emailId, id, email, 'work', companyDomain(company), 'source', status, 'bench', NOW]);
      }
    }
    await db.transaction().execute(async (trx) => {
      await bulkInsert(trx, {
        table: 'people',
        columns: {
          id: 'int8',
          full_name: 'text',
          first_name: 'text',
          last_name: 'text',
          profile_id: 'text',
          field_sources: 'text',
          created_at: 'int8',
          updated_at: 'int8',
        },
        values: persons,
      });
      await bulkInsert(trx, {
        table: 'person_positions',
        columns: {
          id: 'int8',
          person_id: 'int8',
          company_id: 'int8',
          title: 'text',
          title_normalized: 'text',
          seniority_modifier: 'int4',
          is_current: 'int4',
          position_key: 'text',
          source: 'text',
          seen_at: 'int8',
        },
        values: positions,
      });
      await bulkInsert(trx, {
        table: 'person_roles',
        columns: { position_id: 'int8', person_id: 'int8', company_id: 'int8', role_key: 'text', fn: 'text', rank: 'int4' },
        values: roles,
      });
      await bulkInsert(trx, {
        table: 'person_emails',
        columns: {
          id: 'int8',
          person_id: 'int8',
          email: 'text',
          kind: 'text',
          domain: 'text',
          obtained_by: 'text',
          status: 'text',
          source: 'text',
          seen_at: 'int8',
        },
        values: emails,
      });
    });
    if ((start / BATCH) % 10 === 9) progress(`${(start + BATCH).toLocaleString('en')} people written`);
  }
}

/** One kind of request of the mix and its latencies. */
interface QueryFigures {
  name: string;
  p50: number;
  p95: number;
  p99: number;
  /** Mean total_count answered, and how many answers marked it an estimate. */
  meanTotal: number;
  estimated: number;
  meanReturned: number;
  /** This process's CPU per request (on SQLite the whole query; on PostgreSQL the client's part): load on the machine does not inflate it. */
  cpuMs: number;
  /** With checkEstimates: how far the estimates were from the exact counts, in % (mean and worst over `checked` distinct requests). */
  estimateError?: { checked: number; mean: number; max: number };
}

/** Distinct requests whose estimate is checked per kind (each exact count reads every match). */
const ESTIMATES_CHECKED = 20;

/**
 * The exact number of people a request of the mix matches, counted here from the stored roles
 * without the search's code, against which its estimate is checked.
 */
async function exactCount(db: Kysely<any>, body: PeopleSearchBody): Promise<number> {
  const c = body.company_filters ?? {};
  const p = body.people_filters ?? {};
  let q = db.selectFrom('person_roles as r').innerJoin('companies as c', 'c.id', 'r.company_id');
  if (c.company_country?.length) q = q.where('c.country_code', 'in', c.company_country);
  if (c.company_industry?.length) q = q.where('c.industry', 'in', c.company_industry);
  if (c.company_size?.length) q = q.where('c.size_label', 'in', c.company_size);
  if (p.contact_job_function?.length)
    q = q.where(
      'r.job_function',
      'in',
      p.contact_job_function.map((f) => jobFunctionNamed(f)!.label),
    );
  if (p.contact_job_level?.length)
    q = q.where(
      'r.job_level',
      'in',
      p.contact_job_level.flatMap((l) => jobLevelNamed(l)!),
    );
  if (p.min_seniority) q = q.where('r.rank', '>=', Math.min(...jobLevelNamed(p.min_seniority)!.map((l) => LEVEL_RANK[l])));
  if (p.has_email)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('person_emails as e')
          .select('e.id')
          .whereRef('e.person_id', '=', 'r.person_id')
          .where('e.kind', '=', 'work')
          .where((eb) => eb.or([eb('e.status', 'is', null), eb('e.status', '!=', 'invalid')])),
      ),
    );
  const row = await q.select((eb) => eb.fn.count('r.person_id').distinct().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The error of up to ESTIMATES_CHECKED estimates (request → total_count answered) against exact counts. */
async function estimateErrors(db: Kysely<any>, estimates: Map<string, number>): Promise<QueryFigures['estimateError']> {
  const errors: number[] = [];
  for (const [body, estimate] of [...estimates].slice(0, ESTIMATES_CHECKED)) {
    const exact = await exactCount(db, JSON.parse(body) as PeopleSearchBody);
    errors.push((Math.abs(estimate - exact) / exact) * 100);
  }
  return errors.length
    ? { checked: errors.length, mean: errors.reduce((a, b) => a + b, 0) / errors.length, max: Math.max(...errors) }
    : undefined;
}

/** One dialect's figures. */
export interface PeopleSearchFigures {
  dialect: string;
  people: number;
  companies: number;
  roles: number;
  /** Size of the data: the SQLite file, or the PostgreSQL tables with their indexes. */
  bytes: number;
  generateSeconds: number;
  migrateSeconds: number;
  all: { p50: number; p95: number; p99: number };
  queries: QueryFigures[];
}

const FUNCTIONS = ['Sales', 'Engineering', 'Marketing', 'Finance', 'Legal', 'Data', 'Customer Success', 'HR'];

/** The request mix: a name and, per call index, a request body. */
function requestMix(companies: number): { name: string; body: (rand: () => number) => PeopleSearchBody }[] {
  const anyCompany = (rand: () => number) => companyDomain(Math.floor(rand() * companies));
  const fn = (rand: () => number) => FUNCTIONS[Math.floor(rand() * FUNCTIONS.length)];
  const country = weighted(COUNTRIES);
  return [
    { name: 'one company (domain)', body: (r) => ({ company_filters: { company_domain: [anyCompany(r)] } }) },
    {
      name: 'three companies + Sales, Director/VP',
      body: (r) => ({
        company_filters: { company_domain: [anyCompany(r), anyCompany(r), anyCompany(r)] },
        people_filters: { contact_job_function: ['Sales'], contact_job_level: ['Director', 'VP'] },
      }),
    },
    { name: 'function across the store', body: (r) => ({ people_filters: { contact_job_function: [fn(r)] } }) },
    {
      name: 'two functions + level',
      body: (r) => ({ people_filters: { contact_job_function: [fn(r), fn(r)], contact_job_level: ['Manager', 'Director'] } }),
    },
    { name: 'min seniority VP', body: () => ({ people_filters: { min_seniority: 'VP' } }) },
    { name: 'country', body: (r) => ({ company_filters: { company_country: [country(r())] } }) },
    {
      name: 'combined: country + industry + function + has_email',
      body: (r) => ({
        company_filters: { company_country: [country(r())], company_industry: [INDUSTRIES[Math.floor(r() * INDUSTRIES.length)]] },
        people_filters: { contact_job_function: [fn(r)], has_email: true },
      }),
    },
    {
      name: 'paged: function, pages 2-40 of 25',
      body: (r) => ({ people_filters: { contact_job_function: [fn(r)] }, page: 2 + Math.floor(r() * 39), per_page: 25 }),
    },
    {
      name: 'paged: country + size, pages 2-20 of 100',
      body: (r) => ({
        company_filters: { company_country: [country(r())], company_size: ['11-50', '51-200'] },
        page: 2 + Math.floor(r() * 19),
        per_page: 100,
      }),
    },
  ];
}

/** Generates the store on one dialect and times `queries` requests of each kind of the mix. */
export async function measurePeopleSearch(
  dialect: string,
  options: {
    people: number;
    companies: number;
    queries: number;
    /** Keep the store for later runs of the same size: a SQLite file in this folder, a PostgreSQL schema of a fixed name. */
    keep?: string;
    /** Check the estimates answered against exact counts (slow at 1M: each reads every match). */
    checkEstimates?: boolean;
  },
): Promise<PeopleSearchFigures> {
  const dir = options.keep ?? mkdtempSync(join(tmpdir(), 'leadbase-people-search-'));
  const storeName = `people_search_${options.people}_${options.companies}`;
  const sqliteFile = join(dir, options.keep ? `${storeName}.sqlite` : 'bench.sqlite');
  const bench = await openBenchDatabase(dialect, {
    dir,
    sqliteFile,
    pgUrl: process.env.DATABASE_URL,
    schemaPrefix: 'bench_psearch',
    keptSchema: options.keep ? `bench_${storeName}` : undefined,
    poolSize: 4,
  }).catch((error: unknown) => {
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  const progress = (text: string) => process.stderr.write(`  people search ${dialect}: ${text}\n`);
  try {
    const db = bench.handle.db;
    // A kept store is reused when it holds every person (its generation finished); it is migrated to the latest.
    const stored = await sql<{ n: string }>`select count(*) as n from people`.execute(db).catch(() => undefined);
    const kept = !!options.keep && Number(stored?.rows[0].n ?? 0) === options.people;
    if (options.keep && !kept && stored)
      throw new Error(`an unfinished kept store: remove ${dialect === 'postgres' ? `schema bench_${storeName}` : sqliteFile}`);
    if (kept) progress('reusing the kept store');
    else {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < SEARCH_MIGRATION));
      const { error } = await new Migrator({
        db,
        provider: { getMigrations: async () => before },
        migrationTableSchema:
          dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0].s : undefined,
      }).migrateToLatest();
      if (error) throw error instanceof Error ? error : new Error(String(error));
    }
    let t0 = Date.now();
    if (!kept) await generate(db, options.people, options.companies, progress);
    const generateSeconds = (Date.now() - t0) / 1000;
    progress(`generated in ${generateSeconds.toFixed(0)} s; migrating`);
    t0 = Date.now();
    await migrateToLatest(db);
    const migrateSeconds = (Date.now() - t0) / 1000;
    // Fresh planner statistics and visibility map after a bulk load and the migrations' rewrite of
    // every role, as autovacuum would (index-only reads skip the table only for pages marked visible).
    if (dialect === 'postgres') await sql`vacuum analyze`.execute(db);
    const roles = Number(
      (
        await db
          .selectFrom('person_roles')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const bytes =
      dialect === 'postgres'
        ? Number(
            (
              await sql<{ n: string }>`select sum(pg_total_relation_size(c.oid)) as n from pg_class c
                where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r'`.execute(db)
            ).rows[0].n,
          )
        : statSync(sqliteFile).size;

    const companies = new CompanyService({ db });
    const services = { companies, people: new PeopleService({ db, companies }) } as unknown as Services;
    const rand = seededRandom(23);
    const mix = requestMix(options.companies);
    // Warm-up, as a running server is: statements prepared, pages cached.
    for (const kind of mix) for (let i = 0; i < 5; i++) await searchPeople(services, kind.body(rand));
    const queries: QueryFigures[] = [];
    const all: number[] = [];
    for (const kind of mix) {
      const bodies = Array.from({ length: options.queries }, () => kind.body(rand));
      let total = 0;
      let returned = 0;
      let estimated = 0;
      const estimates = new Map<string, number>();
      const cpu = mainThreadCpuMs();
      const ms = await timeCalls(bodies.length, async (i) => {
        const answer = (await searchPeople(services, bodies[i])).body as {
          total_count: number;
          returned_count: number;
          total_count_exact?: boolean;
        };
        total += answer.total_count;
        returned += answer.returned_count;
        if (answer.total_count_exact === false) {
          estimated++;
          estimates.set(JSON.stringify({ ...bodies[i], page: undefined, per_page: undefined }), answer.total_count);
        }
      });
      const cpuMs = (mainThreadCpuMs() - cpu) / bodies.length;
      all.push(...ms);
      const s = summarize(ms);
      queries.push({
        name: kind.name,
        p50: s.p50,
        p95: s.p95,
        p99: s.p99,
        meanTotal: total / bodies.length,
        estimated,
        meanReturned: returned / bodies.length,
        cpuMs,
        estimateError: options.checkEstimates ? await estimateErrors(db, estimates) : undefined,
      });
    }
    const s = summarize(all);
    return {
      dialect,
      people: options.people,
      companies: options.companies,
      roles,
      bytes,
      generateSeconds,
      migrateSeconds,
      all: { p50: s.p50, p95: s.p95, p99: s.p99 },
      queries,
    };
  } finally {
    await bench.drop();
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  }
}

/** p99 targets of people search. */
const TARGET_MS: Record<string, number> = { sqlite: 20, postgres: 50 };

/** The figures as report lines: a table per dialect, ratios against the target. */
export function peopleSearchReport(figures: PeopleSearchFigures[]): string[] {
  const lines: string[] = [];
  for (const f of figures) {
    const target = TARGET_MS[f.dialect] ?? 50;
    lines.push(
      '',
      `people search ${f.dialect}: ${f.people.toLocaleString('en')} people, ${f.companies.toLocaleString('en')} companies, ` +
        `${f.roles.toLocaleString('en')} roles, ${(f.bytes / 1e9).toFixed(2)} GB; generated in ${fmt(f.generateSeconds, 0)} s, ` +
        `migrated (search fields backfilled, indexes built) in ${fmt(f.migrateSeconds, 1)} s; target p99 < ${target} ms`,
      '| request | p50 / p95 / p99 ms | p99 vs target | CPU ms / request | mean total_count (estimated) | estimate off, mean / worst % (checked) | mean returned |',
      '|---|---|---|---|---|---|---|',
    );
    for (const q of f.queries)
      lines.push(
        `| ${q.name} | ${fmt(q.p50)} / ${fmt(q.p95)} / ${fmt(q.p99)} | ${fmt(q.p99 / target)}x | ${fmt(q.cpuMs)} | ` +
          `${Math.round(q.meanTotal).toLocaleString('en')} (${q.estimated}) | ` +
          `${q.estimateError ? `${fmt(q.estimateError.mean, 1)} / ${fmt(q.estimateError.max, 1)} (${q.estimateError.checked})` : ''} | ${fmt(q.meanReturned, 1)} |`,
      );
    lines.push(
      `| all requests | ${fmt(f.all.p50)} / ${fmt(f.all.p95)} / ${fmt(f.all.p99)} | ${fmt(f.all.p99 / target)}x | | | | |`,
      `(target p99 < ${target} ms: ${f.all.p99 < target ? 'met' : 'NOT met'})`,
    );
  }
  return lines;
}
