// People search: the people holding a current position that matches company filters (domain,
// industry, country, size) and person filters (job function, level, minimum seniority, whether we
// hold a work address), most senior first. It reads the roles of current positions (person_roles,
// one row per role of a current position) joined to their company; the function and level
// vocabularies below say which stored roles a request's words select.
import { sql, type Kysely, type QueryCreator, type SqlBool } from 'kysely';
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
/** Company facts matching at most this many companies are read as a list of their ids. */
const COMPANY_LIST_MAX = 500;
/** The estimate's sample: SAMPLE_SLICES runs of SAMPLE_SLICE person ids spread evenly over the ids of the store. */
const SAMPLE_SLICES = 32;
const SAMPLE_SLICE = 64;

/** Work addresses we may serve: none a source or our engine called invalid. */
const hasWorkEmail = (db: Kysely<Database>) =>
  db
    .selectFrom('person_emails as e')
    .select(sql.lit(1).as('one'))
    .where(sql<SqlBool>`${sql.ref('e.person_id')} = ${sql.ref('r.person_id')}`)
    .where('e.kind', '=', 'work')
    .where((eb) => eb.or([eb('e.status', 'is', null), eb('e.status', '!=', 'invalid')]));

const hasCompanyFacts = (q: PeopleSearchQuery) =>
  !!(
    q.industries?.length ||
    q.countryCodes?.length ||
    q.sizeLabels?.length ||
    q.minEmployees !== undefined ||
    q.maxEmployees !== undefined
  );

/** The companies of the company facts asked (industry, country, size). */
function companiesWithFacts(db: Kysely<Database>, q: PeopleSearchQuery) {
  let companies = db.selectFrom('companies as c');
  if (q.industries?.length) companies = companies.where('c.industry', 'in', q.industries);
  if (q.countryCodes?.length) companies = companies.where('c.country_code', 'in', q.countryCodes);
  if (q.sizeLabels?.length) companies = companies.where('c.size_label', 'in', q.sizeLabels);
  if (q.minEmployees !== undefined) companies = companies.where('c.employee_count', '>=', q.minEmployees);
  if (q.maxEmployees !== undefined) companies = companies.where('c.employee_count', '<=', q.maxEmployees);
  return companies;
}

/**
 * Which index a read starts from: the roles of the companies (with their function:
 * person_roles_company_function; a page orders few roles, so it takes them all), of a function or
 * a level (in the answer's order), all roles in that order, the roles of given people
 * (person_roles_person), or a sample already read. The other filters are written so that no index
 * can serve them (`col + 0`, `col || ''`): without planner statistics SQLite would otherwise start
 * from an index the filter names and read far more roles than the chosen one does.
 */
type Drive = 'company' | 'company function' | 'function' | 'level' | 'order' | 'person' | 'sample';

/**
 * The matching roles, read from `drive`. Company facts filter as `company_id in (the companies)`
 * when the read starts from companies, else through an `exists` on the role's company.
 */
function filtered(
  db: Kysely<Database>,
  q: PeopleSearchQuery,
  drive: Drive,
  sample?: QueryCreator<Database & { person_roles_sample: Database['person_roles'] }>,
) {
  const indexed = (column: 'company_id' | 'rank' | 'job_function' | 'job_level', usable: boolean) =>
    usable
      ? sql.ref(`r.${column}`)
      : column === 'company_id' || column === 'rank'
        ? sql`${sql.ref(`r.${column}`)} + 0`
        : sql`${sql.ref(`r.${column}`)} || ''`;
  const byCompany = drive === 'company' || drive === 'company function';
  const company = indexed('company_id', byCompany);
  let query = sample ? sample.selectFrom('person_roles_sample as r') : db.selectFrom('person_roles as r');
  if (q.companyIds) query = query.where(company, 'in', q.companyIds.length ? q.companyIds : [-1]);
  if (hasCompanyFacts(q)) {
    const companies = companiesWithFacts(db, q);
    query =
      byCompany && !q.companyIds
        ? query.where(company, 'in', companies.select('c.id'))
        : query.where((eb) =>
            eb.exists(companies.select(sql.lit(1).as('one')).where(sql<SqlBool>`${sql.ref('c.id')} = ${sql.ref('r.company_id')}`)),
          );
  }
  if (q.minRank !== undefined)
    query = query.where(indexed('rank', drive === 'order' || drive === 'function' || drive === 'level'), '>=', q.minRank);
  if (q.levels) query = query.where(indexed('job_level', drive === 'level'), 'in', q.levels.length ? q.levels : ['\u0000']);
  if (q.functions)
    query = query.where(
      indexed('job_function', drive === 'function' || drive === 'company function'),
      'in',
      q.functions.length ? q.functions : ['\u0000'],
    );
  if (q.hasEmail === true) query = query.where((eb) => eb.exists(hasWorkEmail(db)));
  if (q.hasEmail === false) query = query.where((eb) => eb.not(eb.exists(hasWorkEmail(db))));
  return query;
}

/** Where a page's ordered read starts: the companies named, else a function, else a level, else all roles in order. */
const pageDrive = (q: PeopleSearchQuery): Drive => (q.companyIds ? 'company' : q.functions ? 'function' : q.levels ? 'level' : 'order');

/** Where a count starts: the companies named or selected by their facts (and the function), else as a page does. */
const countDrive = (q: PeopleSearchQuery): Drive => (q.companyIds || hasCompanyFacts(q) ? 'company function' : pageDrive(q));

/**
 * The search with company facts that select few companies read as the list of their ids (the
 * same people: a role matches when its company is one of them), so its reads start from those
 * companies' roles instead of walking every role to check its company.
 */
async function withCompanyList(db: Kysely<Database>, q: PeopleSearchQuery): Promise<PeopleSearchQuery> {
  if (q.companyIds || !hasCompanyFacts(q)) return q;
  const rows = await companiesWithFacts(db, q)
    .select('c.id')
    .limit(COMPANY_LIST_MAX + 1)
    .execute();
  if (rows.length > COMPANY_LIST_MAX) return q;
  const { industries: _i, countryCodes: _c, sizeLabels: _s, minEmployees: _min, maxEmployees: _max, ...rest } = q;
  return { ...rest, companyIds: rows.map((r) => Number(r.id)) };
}

/**
 * The searches whose ordered reads together make the page: one per function (or, without a
 * function, per level) when several are asked, each an equality on an index in the answer's order
 * (person_roles_function_order, person_roles_level_order), merged here; an `in` over several values
 * would read and sort every matching role. A list of companies is read whole (their roles are few).
 */
function orderedParts(q: PeopleSearchQuery): PeopleSearchQuery[] {
  if (q.companyIds) return [q];
  if (q.functions && q.functions.length > 1) return q.functions.map((f) => ({ ...q, functions: [f] }));
  if (!q.functions && q.levels && q.levels.length > 1) return q.levels.map((l) => ({ ...q, levels: [l] }));
  return [q];
}

/**
 * The ids of a page of people, most senior first (person id breaks ties): the matching roles read
 * in (rank, person) order, a person kept at their first (most senior) role, read in growing windows
 * until the page is full. The same order as grouping by person and sorting by their best rank, but
 * the work grows with the page's depth, not with how many match.
 */
async function pageOf(db: Kysely<Database>, q: PeopleSearchQuery): Promise<number[]> {
  const wanted = q.offset + q.limit;
  const parts = orderedParts(q);
  for (let window = wanted * 2; ; window *= 4) {
    const reads = await Promise.all(
      parts.map((part) =>
        filtered(db, part, pageDrive(part))
          .select(['r.person_id', 'r.rank'])
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
 * How many people match: the matching roles read up to twice the cap (from the companies when
 * company facts are asked); exact when that read them all or found more roles than people to the
 * cap, else estimated from a sample (estimateOf).
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

/**
 * An estimate of how many people match, above EXACT_COUNT_UP_TO: the matching people among a
 * fixed sample of person ids (SAMPLE_SLICES runs spread evenly over the store's ids), scaled to the
 * whole id range. Its cost does not grow with the store or with how many match; the same search
 * gets the same estimate while the store is unchanged. Never below the cap the exact count passed.
 */
async function estimateOf(db: Kysely<Database>, q: PeopleSearchQuery): Promise<number> {
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
  const span = high - low + 1;
  const slices = Math.max(1, Math.min(SAMPLE_SLICES, Math.floor(span / SAMPLE_SLICE)));
  const width = Math.min(SAMPLE_SLICE, span);
  const ranges = Array.from({ length: slices }, (_, i) => low + Math.floor(((i + 0.5) * span) / slices - width / 2));
  // The sample is read first (materialized), so the filters cannot steer the read to another index.
  const sample = db
    .selectFrom('person_roles')
    .selectAll()
    .where((eb) => eb.or(ranges.map((start) => eb.between('person_id', start, start + width - 1))));
  const found = await db
    .selectFrom(
      filtered(
        db,
        q,
        'sample',
        db.with(
          (wb) => wb('person_roles_sample').materialized(),
          () => sample,
        ),
      )
        .select('r.person_id')
        .as('m'),
    )
    .select((eb) => eb.fn.count<number | string>('m.person_id').distinct().as('n'))
    .executeTakeFirstOrThrow();
  const estimate = (Number(found.n) * span) / (slices * width);
  return Math.max(EXACT_COUNT_UP_TO + 1, roundTo3Digits(estimate));
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
  const [count, ids] = await Promise.all([countOf(db, q), pageOf(db, q)]);
  if (!ids.length) return { count, rows: [] };
  // Each person's best matching role with its position and company, and whether we hold a work address.
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
  return { count, rows: ids.map((id) => best.get(id)!).filter(Boolean) };
}
