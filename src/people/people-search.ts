// People search: the people holding a current position that matches company filters (domain,
// industry, country, size) and person filters (job function, level, minimum seniority, whether we
// hold a work address), most senior first. It reads the roles of current positions (person_roles,
// one row per role of a current position, carrying its company's country, industry and size band);
// the function and level vocabularies below say which stored roles a request's words select.
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { LEVEL_RANK, type Level } from './titles.ts';

/**
 * Job functions: the label answered, the names a request may use for it (its short name first),
 * and the function words of stored roles (src/people/titles.ts) that belong to it.
 */
const JOB_FUNCTIONS: readonly { label: string; names: readonly string[]; words: readonly string[] }[] = [
  {
    label: 'Sales & Business Development',
    names: ['sales', 'business development'],
    words: ['sales', 'bizdev', 'account', 'revenue', 'commercial', 'partnerships'],
  },
  {
    label: 'Advertising & Marketing',
    names: ['marketing', 'advertising'],
    words: ['marketing', 'growth', 'brand', 'communications', 'advertising', 'demand'],
  },
  {
    label: 'Engineering',
    names: ['engineering'],
    words: ['engineer', 'engineering', 'software', 'technology', 'development', 'devops', 'rnd'],
  },
  { label: 'Product Management', names: ['product'], words: ['product'] },
  {
    label: 'Finance & Accounting',
    names: ['finance', 'accounting'],
    words: ['finance', 'accounting', 'accountant', 'controller', 'treasury'],
  },
  { label: 'Human Resources', names: ['hr', 'human resources', 'people'], words: ['people', 'recruiting', 'recruiter', 'talent'] },
  { label: 'Operations', names: ['operations'], words: ['operations', 'logistics', 'supply', 'procurement'] },
  { label: 'Information Technology', names: ['it', 'information technology'], words: ['it', 'information', 'security', 'infrastructure'] },
  { label: 'Legal', names: ['legal'], words: ['legal', 'counsel', 'compliance'] },
  { label: 'Customer Success & Support', names: ['customer success', 'support'], words: ['customersuccess', 'support', 'customer'] },
  { label: 'Design', names: ['design'], words: ['design', 'designer', 'ux'] },
  { label: 'Data & Analytics', names: ['data', 'analytics'], words: ['data', 'analytics', 'analyst'] },
  { label: 'Executive', names: ['executive', 'general management'], words: ['executive'] },
];

/** Job levels a request may name, and the stored levels (titles.ts LEVEL_RANK) each selects. */
const JOB_LEVELS: Readonly<Record<string, readonly Level[]>> = {
  'c-level': ['chief'],
  'c-suite': ['chief'],
  cxo: ['chief'],
  chief: ['chief'],
  president: ['president'],
  founder: ['founder'],
  owner: ['owner', 'founder'],
  chair: ['chair'],
  board: ['board', 'chair'],
  'managing director': ['managing_director'],
  partner: ['partner'],
  'general manager': ['general_manager'],
  vp: ['vp'],
  'vice president': ['vp'],
  director: ['head'],
  head: ['head'],
  manager: ['manager'],
  lead: ['lead'],
  senior: ['lead'],
  staff: ['ic'],
  entry: ['ic'],
  'individual contributor': ['ic'],
};

const key = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

/** The job function a request names (a short name or the full label), or undefined. */
export function jobFunctionNamed(name: string): (typeof JOB_FUNCTIONS)[number] | undefined {
  const k = key(name);
  return JOB_FUNCTIONS.find((f) => key(f.label) === k || f.names.includes(k));
}

/** The stored levels a request's level names, or undefined. */
export function jobLevelNamed(name: string): readonly Level[] | undefined {
  const k = key(name).replace(/_/g, ' ');
  return Object.hasOwn(JOB_LEVELS, k)
    ? JOB_LEVELS[k]
    : Object.hasOwn(LEVEL_RANK, k.replace(/ /g, '_'))
      ? [k.replace(/ /g, '_') as Level]
      : undefined;
}

/** The label of a stored role's function words (the first function one of its words belongs to), or null. */
export function jobFunctionLabel(fn: string): string | null {
  const words = fn.split(' ');
  return JOB_FUNCTIONS.find((f) => f.words.some((w) => words.includes(w)))?.label ?? null;
}

/**
 * What a role stores for people search (migration 0024), written with the role on every write:
 * its job function label and its level (the role key before ':', with its qualifier).
 */
export function searchFieldsOf(role: { key: string; fn: string }): { job_function: string | null; job_level: string } {
  return { job_function: jobFunctionLabel(role.fn), job_level: role.key.slice(0, role.key.indexOf(':')) };
}

/** A people search, its filters already read (the HTTP route refuses words it does not know). */
export interface PeopleSearchQuery {
  companyIds?: number[];
  industries?: string[];
  countryCodes?: string[];
  sizeLabels?: string[];
  minEmployees?: number;
  maxEmployees?: number;
  /** Job function labels: a role matches when its stored function (searchFieldsOf) is one of them. */
  functions?: string[];
  /** Stored levels: a role matches when its level (searchFieldsOf) is one of them. */
  levels?: Level[];
  minRank?: number;
  hasEmail?: boolean;
  offset: number;
  limit: number;
}

/** One person found: their most senior matching role and its company. */
export interface PeopleSearchRow {
  person_id: number;
  full_name: string;
  first_name: string | null;
  last_name: string | null;
  profile_id: string | null;
  title: string;
  role_key: string;
  job_function: string | null;
  job_level: string;
  rank: number;
  company_name: string;
  company_domain: string | null;
  company_website: string | null;
  company_industry: string | null;
  company_size: string | null;
  company_country: string | null;
  has_email: number;
}

/** How many people match: exact up to EXACT_COUNT_UP_TO, above it an estimate (`exact` false). */
export interface PeopleCount {
  total: number;
  exact: boolean;
}

/** Counted exactly up to this many people; above it, estimated from a fixed sample (docs/people.md). */
export const EXACT_COUNT_UP_TO = 1000;
/** Companies matching an employee range are read as a list of their ids when they are at most this many. */
const COMPANY_LIST_MAX = 500;
/** Sample keys run over 0..SAMPLE_KEYS-1 (sampleKeyOf). */
const SAMPLE_KEYS = 65536;
/** How many people the estimate's first sample reads; SAMPLE_GROWTH times more when it finds few matches. */
const SAMPLE_PEOPLE = 4096;
const SAMPLE_GROWTH = 8;
/** Matches in a sample below which the estimate reads the larger sample (few matches, a wide error). */
const SAMPLE_MATCHES_ENOUGH = 128;
/** An ordered read is split into at most this many equality reads merged here (orderedParts). */
const MAX_PARTS = 24;

/**
 * A person's sample key, written on each of their roles (migration 0027 backfills the same
 * expression): a multiplicative hash of the id, so consecutive ids (the people of one company,
 * often) get keys spread evenly over 0..65535 and the people under a threshold are spread evenly
 * over the store.
 */
export function sampleKeyOf(personId: number): number {
  return ((personId % SAMPLE_KEYS) * 40503) % SAMPLE_KEYS;
}

/** Work addresses we may serve: none a source or our engine called invalid. */
const hasWorkEmail = (db: Kysely<Database>) =>
  db
    .selectFrom('person_emails as e')
    .select(sql.lit(1).as('one'))
    .where(sql<SqlBool>`${sql.ref('e.person_id')} = ${sql.ref('r.person_id')}`)
    .where('e.kind', '=', 'work')
    .where((eb) => eb.or([eb('e.status', 'is', null), eb('e.status', '!=', 'invalid')]));

const hasEmployeeRange = (q: PeopleSearchQuery) => q.minEmployees !== undefined || q.maxEmployees !== undefined;

/** The companies of the company facts asked (industry, country, size, employees). */
function companiesWithFacts(db: Kysely<Database>, q: PeopleSearchQuery) {
  let companies = db.selectFrom('companies as c');
  if (q.industries?.length) companies = companies.where('c.industry', 'in', q.industries);
  if (q.countryCodes?.length) companies = companies.where('c.country_code', 'in', q.countryCodes);
  if (q.sizeLabels?.length) companies = companies.where('c.size_label', 'in', q.sizeLabels);
  if (q.minEmployees !== undefined) companies = companies.where('c.employee_count', '>=', q.minEmployees);
  if (q.maxEmployees !== undefined) companies = companies.where('c.employee_count', '<=', q.maxEmployees);
  return companies;
}

/** The columns of person_roles a filter may name. */
type RoleColumn =
  'company_id' | 'rank' | 'job_function' | 'job_level' | 'company_country' | 'company_industry' | 'company_size' | 'sample_key';

/**
 * Which index a read starts from, and the columns whose filters it serves: the roles of companies
 * (person_roles_company_function), of a function, a level or a country in the answer's order
 * (person_roles_function_order, _level_order, _country_order), of an industry, country and
 * function (person_roles_industry_order), all roles in that order (person_roles_order), the roles
 * of given people (person_roles_person), or the estimate's sample (person_roles_sample). The other
 * filters are written so that no index can serve them (`col + 0`, `col || ''`): without planner
 * statistics SQLite would otherwise start from an index the filter names and read far more roles
 * than the chosen one does. Each of these indexes holds the columns the other filters read, so
 * those filters cost no lookup of the row.
 */
const DRIVES = {
  company: ['company_id'],
  'company function': ['company_id', 'job_function'],
  function: ['job_function', 'rank'],
  level: ['job_level', 'rank'],
  country: ['company_country', 'rank'],
  industry: ['company_industry', 'company_country', 'job_function'],
  order: ['rank'],
  person: [],
  sample: ['sample_key'],
} as const satisfies Record<string, readonly RoleColumn[]>;
type Drive = keyof typeof DRIVES;

/**
 * The matching roles, read from `drive`. Company country, industry and size filter on the role's
 * copy of them (migration 0027); an employee range through an `exists` on the role's company.
 */
function filtered(db: Kysely<Database>, q: PeopleSearchQuery, drive: Drive) {
  const served: readonly RoleColumn[] = DRIVES[drive];
  const col = (column: RoleColumn) =>
    served.includes(column)
      ? sql.ref(`r.${column}`)
      : column === 'company_id' || column === 'rank' || column === 'sample_key'
        ? sql`${sql.ref(`r.${column}`)} + 0`
        : sql`${sql.ref(`r.${column}`)} || ''`;
  const oneOf = (values: readonly string[]) => (values.length ? values : ['\u0000']);
  let query = db.selectFrom('person_roles as r');
  if (q.companyIds) query = query.where(col('company_id'), 'in', q.companyIds.length ? q.companyIds : [-1]);
  if (q.industries?.length) query = query.where(col('company_industry'), 'in', q.industries);
  if (q.countryCodes?.length) query = query.where(col('company_country'), 'in', q.countryCodes);
  if (q.sizeLabels?.length) query = query.where(col('company_size'), 'in', q.sizeLabels);
  if (hasEmployeeRange(q)) {
    const { minEmployees, maxEmployees } = q;
    query = query.where((eb) =>
      eb.exists(
        companiesWithFacts(db, { minEmployees, maxEmployees, offset: 0, limit: 0 })
          .select(sql.lit(1).as('one'))
          .where(sql<SqlBool>`${sql.ref('c.id')} = ${sql.ref('r.company_id')}`),
      ),
    );
  }
  if (q.minRank !== undefined) query = query.where(col('rank'), '>=', q.minRank);
  if (q.levels) query = query.where(col('job_level'), 'in', oneOf(q.levels));
  if (q.functions) query = query.where(col('job_function'), 'in', oneOf(q.functions));
  if (q.hasEmail === true) query = query.where((eb) => eb.exists(hasWorkEmail(db)));
  if (q.hasEmail === false) query = query.where((eb) => eb.not(eb.exists(hasWorkEmail(db))));
  return query;
}

/** Every combination of one value of each list: [[a, b], [x]] → [[a, x], [b, x]]. */
const combinations = <T>(lists: readonly (readonly T[])[]): T[][] =>
  lists.reduce<T[][]>((acc, list) => acc.flatMap((pick) => list.map((v) => [...pick, v])), [[]]);

/**
 * How a page is read: the drive, and the searches whose ordered reads together make the page. Each
 * is an equality on the drive's index columns, so it reads in the answer's order; an `in` over
 * several values would read and sort every matching role. A list of companies is read whole
 * (their roles are few). Industry, country and function together read person_roles_industry_order;
 * a country (without all three) person_roles_country_order, the other filters checked in the index.
 */
function orderedParts(q: PeopleSearchQuery): { drive: Drive; parts: PeopleSearchQuery[] } {
  if (q.companyIds) return { drive: 'company', parts: [q] };
  const { industries, countryCodes, functions, levels } = q;
  if (industries?.length && countryCodes?.length && functions?.length) {
    const picks = combinations<string>([industries, countryCodes, functions]);
    if (picks.length <= MAX_PARTS)
      return { drive: 'industry', parts: picks.map(([i, c, f]) => ({ ...q, industries: [i], countryCodes: [c], functions: [f] })) };
  }
  if (countryCodes?.length && countryCodes.length <= MAX_PARTS)
    return { drive: 'country', parts: countryCodes.map((c) => ({ ...q, countryCodes: [c] })) };
  if (functions) return { drive: 'function', parts: functions.length > 1 ? functions.map((f) => ({ ...q, functions: [f] })) : [q] };
  if (levels) return { drive: 'level', parts: levels.length > 1 ? levels.map((l) => ({ ...q, levels: [l] })) : [q] };
  return { drive: 'order', parts: [q] };
}

/**
 * Where a count starts (its order does not matter): the companies, else an industry (with the
 * country and function, if asked, on the same index), else a country, else as a page does (an
 * `in` over several functions or levels is a few ranges of their index).
 */
const countDrive = (q: PeopleSearchQuery): Drive =>
  q.companyIds
    ? 'company function'
    : q.industries?.length
      ? 'industry'
      : q.countryCodes?.length
        ? 'country'
        : q.functions
          ? 'function'
          : q.levels
            ? 'level'
            : 'order';

/**
 * The search with an employee range that selects few companies read as the list of their ids (the
 * same people: a role matches when its company is one of them), so its reads start from those
 * companies' roles instead of checking each role's company. Country, industry and size alone need
 * no list: the roles carry them.
 */
async function withCompanyList(db: Kysely<Database>, q: PeopleSearchQuery): Promise<PeopleSearchQuery> {
  if (q.companyIds || !hasEmployeeRange(q)) return q;
  const rows = await companiesWithFacts(db, q)
    .select('c.id')
    .limit(COMPANY_LIST_MAX + 1)
    .execute();
  if (rows.length > COMPANY_LIST_MAX) return q;
  const { industries: _i, countryCodes: _c, sizeLabels: _s, minEmployees: _min, maxEmployees: _max, ...rest } = q;
  return { ...rest, companyIds: rows.map((r) => Number(r.id)) };
}

/**
 * The columns a part of an ordered read fixes by equality before the drive's rank order. The read
 * orders by them first (no change to the order, each holds one value): PostgreSQL then reads the
 * drive's index in order instead of walking person_roles_order and filtering, which its estimates
 * prefer when they take the matching roles for spread evenly over the rank order.
 */
const equalities = (drive: Drive): RoleColumn[] =>
  drive === 'function' || drive === 'level' || drive === 'country' || drive === 'industry' ? DRIVES[drive].filter((c) => c !== 'rank') : [];

/**
 * The ids of a page of people, most senior first (person id breaks ties): the matching roles read
 * in (rank, person) order, a person kept at their first (most senior) role, read in growing windows
 * until the page is full. The same order as grouping by person and sorting by their best rank, but
 * the work grows with the page's depth, not with how many match.
 */
async function pageOf(db: Kysely<Database>, q: PeopleSearchQuery): Promise<number[]> {
  const wanted = q.offset + q.limit;
  const { drive, parts } = orderedParts(q);
  // Most people hold one role: a little more than the page's depth usually fills it.
  for (let window = Math.ceil(wanted * 1.25) + 10; ; window *= 4) {
    const reads = await Promise.all(
      parts.map((part) =>
        equalities(drive)
          .reduce((read, column) => read.orderBy(sql.ref(`r.${column}`)), filtered(db, part, drive).select(['r.person_id', 'r.rank']))
          .orderBy('r.rank', 'desc')
          .orderBy('r.person_id')
          .limit(window)
          .execute(),
      ),
    );
    const rows = reads
      .flat()
      .map((r) => ({ person: Number(r.person_id), rank: Number(r.rank) }))
      .sort((a, b) => b.rank - a.rank || a.person - b.person)
      .slice(0, window);
    const people = [...new Set(rows.map((r) => r.person))];
    if (people.length >= wanted || reads.every((read) => read.length < window)) return people.slice(q.offset, wanted);
  }
}

/**
 * How many people match: the matching roles read up to twice the cap (from the index of the
 * company facts asked, if any); exact when that read them all or found more roles than people to
 * the cap, else estimated from a sample (estimateOf).
 */
async function countOf(db: Kysely<Database>, q: PeopleSearchQuery): Promise<PeopleCount> {
  const probe = 2 * EXACT_COUNT_UP_TO + 1;
  const first = await db
    .selectFrom(filtered(db, q, countDrive(q)).select('r.person_id').limit(probe).as('m'))
    .select((eb) => [eb.fn.countAll<number | string>().as('roles'), eb.fn.count<number | string>('m.person_id').distinct().as('people')])
    .executeTakeFirstOrThrow();
  if (Number(first.roles) < probe) return { total: Number(first.people), exact: true };
  if (Number(first.people) <= EXACT_COUNT_UP_TO) {
    // Many roles per person (rare): the exact count, whatever it costs.
    const all = await filtered(db, q, countDrive(q))
      .select((eb) => eb.fn.count<number | string>('r.person_id').distinct().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(all.n) <= EXACT_COUNT_UP_TO) return { total: Number(all.n), exact: true };
  }
  return { total: await estimateOf(db, q), exact: false };
}

/** How long the span of person ids is reused: it only sizes the sample (the estimate scales by the keys read, not by it). */
const ID_SPAN_TTL_MS = 60_000;
const idSpans = new WeakMap<Kysely<Database>, { span: number; at: number }>();

/** max - min + 1 of the person ids holding a role (about how many people the store holds), read at most once a minute. */
async function idSpanOf(db: Kysely<Database>): Promise<number> {
  const known = idSpans.get(db);
  if (known && Date.now() - known.at < ID_SPAN_TTL_MS) return known.span;
  // Two statements: SQLite reads a lone min() or max() from the end of the index, both together by a scan.
  const [low, high] = await Promise.all(
    (['min', 'max'] as const).map(async (f) =>
      Number(
        (
          await db
            .selectFrom('person_roles')
            .select((eb) => eb.fn[f]('person_id').as('id'))
            .executeTakeFirstOrThrow()
        ).id,
      ),
    ),
  );
  const span = Number.isFinite(high - low) ? Math.max(1, high - low + 1) : 1;
  idSpans.set(db, { span, at: Date.now() });
  return span;
}

/**
 * An estimate of how many people match, above EXACT_COUNT_UP_TO: the matching people among the
 * people whose sample key is below a threshold (about SAMPLE_PEOPLE of them, read from
 * person_roles_sample), scaled by the share of keys below it; SAMPLE_GROWTH times more people when
 * that finds few matches. The keys spread over the store whatever order its ids came in, so
 * people clustered by company are sampled across many companies. Its cost does not grow with the
 * store or with how many match; the same search gets the same estimate while the store is
 * unchanged. Never below the cap the exact count passed.
 */
async function estimateOf(db: Kysely<Database>, q: PeopleSearchQuery): Promise<number> {
  const people = await idSpanOf(db);
  let threshold = Math.min(SAMPLE_KEYS, Math.max(1, Math.round((SAMPLE_KEYS * SAMPLE_PEOPLE) / people)));
  for (let grown = false; ; grown = true) {
    // Read first (materialized): SQLite would otherwise walk person_roles_person for the distinct count.
    const found = await db
      .with(
        (wb) => wb('m').materialized(),
        () => filtered(db, q, 'sample').select('r.person_id').where('r.sample_key', '<', threshold),
      )
      .selectFrom('m')
      .select((eb) => eb.fn.count<number | string>('m.person_id').distinct().as('n'))
      .executeTakeFirstOrThrow();
    const n = Number(found.n);
    if (n >= SAMPLE_MATCHES_ENOUGH || threshold >= SAMPLE_KEYS || grown) {
      return Math.max(EXACT_COUNT_UP_TO + 1, roundTo3Digits((n * SAMPLE_KEYS) / threshold));
    }
    threshold = Math.min(SAMPLE_KEYS, threshold * SAMPLE_GROWTH);
  }
}

/** An estimate written with three significant digits (123,456 → 123,000): no more precise than it is. */
function roundTo3Digits(n: number): number {
  if (n < 1000) return Math.round(n);
  const unit = 10 ** (Math.floor(Math.log10(n)) - 2);
  return Math.round(n / unit) * unit;
}

/** A page of the people matching a search, most senior first (person id keeps pages stable), and how many match. */
export async function searchPeople(
  db: Kysely<Database>,
  search: PeopleSearchQuery,
): Promise<{ count: PeopleCount; rows: PeopleSearchRow[] }> {
  const q = await withCompanyList(db, search);
  const [count, rows] = await Promise.all([countOf(db, q), pageOf(db, q).then((ids) => detailsOf(db, q, ids))]);
  return { count, rows };
}

/** Each person's best matching role with its position and company, and whether we hold a work address, in the order of `ids`. */
async function detailsOf(db: Kysely<Database>, q: PeopleSearchQuery, ids: number[]): Promise<PeopleSearchRow[]> {
  if (!ids.length) return [];
  const details = await filtered(db, q, 'person')
    .innerJoin('companies as c', 'c.id', 'r.company_id')
    .innerJoin('person_positions as pos', 'pos.id', 'r.position_id')
    .innerJoin('people as p', 'p.id', 'r.person_id')
    .select([
      'r.person_id',
      'p.full_name',
      'p.first_name',
      'p.last_name',
      'p.profile_id',
      'pos.title',
      'r.role_key',
      'r.job_function',
      'r.job_level',
      'r.rank',
      'c.name as company_name',
      'c.domain as company_domain',
      'c.website as company_website',
      'c.industry as company_industry',
      'c.size_label as company_size',
      'c.country_code as company_country',
    ])
    .select((eb) => eb.exists(hasWorkEmail(db)).as('has_email'))
    .where('r.person_id', 'in', ids)
    .orderBy('r.rank', 'desc')
    .orderBy('r.position_id')
    .execute();
  const best = new Map<number, PeopleSearchRow>();
  for (const d of details) {
    const id = Number(d.person_id);
    if (!best.has(id)) best.set(id, { ...d, person_id: id, rank: Number(d.rank), has_email: Number(d.has_email) });
  }
  return ids.map((id) => best.get(id)!).filter(Boolean);
}
