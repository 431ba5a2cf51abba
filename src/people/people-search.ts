// People search: the people holding a current position that matches company filters (domain,
// industry, country, size) and person filters (job function, level, minimum seniority, whether we
// hold a work address), most senior first. It reads the roles of current positions (person_roles,
// one row per role of a current position) joined to their company; the function and level
// vocabularies below say which stored roles a request's words select.
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

/** A people search, its filters already read (the HTTP route refuses words it does not know). */
export interface PeopleSearchQuery {
  companyIds?: number[];
  industries?: string[];
  countryCodes?: string[];
  sizeLabels?: string[];
  minEmployees?: number;
  maxEmployees?: number;
  /** Function words: a role matches when its function holds one of them. */
  functionWords?: string[];
  /** The stored functions holding one of functionWords (storedFunctionsWith): set by searchPeople. */
  functions?: string[];
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
  fn: string;
  rank: number;
  company_name: string;
  company_domain: string | null;
  company_website: string | null;
  company_industry: string | null;
  company_size: string | null;
  company_country: string | null;
  has_email: number;
}

/** Work addresses we may serve: none a source or our engine called invalid. */
const hasWorkEmail = (db: Kysely<Database>) =>
  db
    .selectFrom('person_emails as e')
    .select(sql.lit(1).as('one'))
    .where(sql<SqlBool>`${sql.ref('e.person_id')} = ${sql.ref('r.person_id')}`)
    .where('e.kind', '=', 'work')
    .where((eb) => eb.or([eb('e.status', 'is', null), eb('e.status', '!=', 'invalid')]));

function filtered(db: Kysely<Database>, q: PeopleSearchQuery) {
  let query = db.selectFrom('person_roles as r');
  if (q.companyIds) query = query.where('r.company_id', 'in', q.companyIds.length ? q.companyIds : [-1]);
  // Company facts filter through their company only when asked: the join costs a lookup per role.
  if (
    q.industries?.length ||
    q.countryCodes?.length ||
    q.sizeLabels?.length ||
    q.minEmployees !== undefined ||
    q.maxEmployees !== undefined
  ) {
    let companies = db
      .selectFrom('companies as c')
      .select(sql.lit(1).as('one'))
      .where(sql<SqlBool>`${sql.ref('c.id')} = ${sql.ref('r.company_id')}`);
    if (q.industries?.length) companies = companies.where('c.industry', 'in', q.industries);
    if (q.countryCodes?.length) companies = companies.where('c.country_code', 'in', q.countryCodes);
    if (q.sizeLabels?.length) companies = companies.where('c.size_label', 'in', q.sizeLabels);
    if (q.minEmployees !== undefined) companies = companies.where('c.employee_count', '>=', q.minEmployees);
    if (q.maxEmployees !== undefined) companies = companies.where('c.employee_count', '<=', q.maxEmployees);
    query = query.where((eb) => eb.exists(companies));
  }
  if (q.minRank !== undefined) query = query.where('r.rank', '>=', q.minRank);
  if (q.levels?.length) query = query.where((eb) => eb.or(q.levels!.map((level) => eb('r.role_key', 'like', `${level}:%`))));
  if (q.functions) query = query.where('r.fn', 'in', q.functions.length ? q.functions : ['\u0000']);
  if (q.hasEmail === true) query = query.where((eb) => eb.exists(hasWorkEmail(db)));
  if (q.hasEmail === false) query = query.where((eb) => eb.not(eb.exists(hasWorkEmail(db))));
  return query;
}

/** The distinct stored functions, per database, read again after a minute (index person_roles_fn_rank). */
const storedFunctions = new WeakMap<object, { at: number; fns: Promise<string[]> }>();
const FUNCTIONS_TTL_MS = 60_000;

/** The stored role functions holding one of the words (a word of the function, not a substring). */
async function storedFunctionsWith(db: Kysely<Database>, words: string[]): Promise<string[]> {
  let cached = storedFunctions.get(db);
  if (!cached || Date.now() - cached.at > FUNCTIONS_TTL_MS) {
    cached = {
      at: Date.now(),
      fns: db
        .selectFrom('person_roles')
        .select('fn')
        .distinct()
        .execute()
        .then((rows) => rows.map((r) => r.fn)),
    };
    storedFunctions.set(db, cached);
  }
  const wanted = new Set(words);
  return (await cached.fns).filter((fn) => fn.split(' ').some((w) => wanted.has(w)));
}

/**
 * The ids of a page of people, most senior first (person id breaks ties): the matching roles read
 * in (rank, person) order, a person kept at their first (most senior) role, read in growing windows
 * until the page is full. The same order as grouping by person and sorting by their best rank, but
 * the work grows with the page's depth, not with how many match.
 */
async function pageOf(db: Kysely<Database>, q: PeopleSearchQuery): Promise<number[]> {
  const wanted = q.offset + q.limit;
  for (let window = wanted * 2; ; window *= 4) {
    const rows = await filtered(db, q).select(['r.person_id']).orderBy('r.rank', 'desc').orderBy('r.person_id').limit(window).execute();
    const people = [...new Set(rows.map((r) => Number(r.person_id)))];
    if (people.length >= wanted || rows.length < window) return people.slice(q.offset, wanted);
  }
}

/** A page of the people matching a search, most senior first (person id keeps pages stable), and how many match. */
export async function searchPeople(db: Kysely<Database>, search: PeopleSearchQuery): Promise<{ total: number; rows: PeopleSearchRow[] }> {
  const q = search.functionWords?.length ? { ...search, functions: await storedFunctionsWith(db, search.functionWords) } : search;
  const [count, ids] = await Promise.all([
    filtered(db, q)
      .select((eb) => eb.fn.count<number | string>('r.person_id').distinct().as('n'))
      .executeTakeFirstOrThrow(),
    pageOf(db, q),
  ]);
  if (!ids.length) return { total: Number(count.n), rows: [] };
  // Each person's best matching role with its position and company, and whether we hold a work address.
  const details = await filtered(db, q)
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
      'r.fn',
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
  return { total: Number(count.n), rows: ids.map((id) => best.get(id)!).filter(Boolean) };
}
