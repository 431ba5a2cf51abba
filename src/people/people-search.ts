// People search: the people holding a current position that matches company filters (domain,
// industry, country, size) and person filters (job function, level, minimum seniority, whether we
// hold a work address), most senior first. It reads the roles of current positions (person_roles,
// one row per role of a current position) joined to their company; the function and level
// vocabularies below say which stored roles a request's words select.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
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
  let query = db.selectFrom('person_roles as r').innerJoin('companies as c', 'c.id', 'r.company_id');
  if (q.companyIds) query = query.where('r.company_id', 'in', q.companyIds.length ? q.companyIds : [-1]);
  if (q.industries?.length) query = query.where('c.industry', 'in', q.industries);
  if (q.countryCodes?.length) query = query.where('c.country_code', 'in', q.countryCodes);
  if (q.sizeLabels?.length) query = query.where('c.size_label', 'in', q.sizeLabels);
  if (q.minEmployees !== undefined) query = query.where('c.employee_count', '>=', q.minEmployees);
  if (q.maxEmployees !== undefined) query = query.where('c.employee_count', '<=', q.maxEmployees);
  if (q.minRank !== undefined) query = query.where('r.rank', '>=', q.minRank);
  if (q.levels?.length) query = query.where((eb) => eb.or(q.levels!.map((level) => eb('r.role_key', 'like', `${level}:%`))));
  if (q.functionWords?.length) {
    // A function word is one of the role's words: the whole function, or at its start, end or inside.
    query = query.where((eb) =>
      eb.or(
        q.functionWords!.flatMap((w): Expression<SqlBool>[] => [
          eb('r.fn', '=', w),
          eb('r.fn', 'like', `${w} %`),
          eb('r.fn', 'like', `% ${w}`),
          eb('r.fn', 'like', `% ${w} %`),
        ]),
      ),
    );
  }
  if (q.hasEmail === true) query = query.where((eb) => eb.exists(hasWorkEmail(db)));
  if (q.hasEmail === false) query = query.where((eb) => eb.not(eb.exists(hasWorkEmail(db))));
  return query;
}

/** A page of the people matching a search, most senior first (person id keeps pages stable), and how many match. */
export async function searchPeople(db: Kysely<Database>, q: PeopleSearchQuery): Promise<{ total: number; rows: PeopleSearchRow[] }> {
  const [count, page] = await Promise.all([
    filtered(db, q)
      .select((eb) => eb.fn.count<number | string>('r.person_id').distinct().as('n'))
      .executeTakeFirstOrThrow(),
    filtered(db, q)
      .select(['r.person_id'])
      .select((eb) => eb.fn.max('r.rank').as('best'))
      .groupBy('r.person_id')
      .orderBy('best', 'desc')
      .orderBy('r.person_id')
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
  ]);
  if (!page.length) return { total: Number(count.n), rows: [] };
  const ids = page.map((p) => Number(p.person_id));
  // Each person's best matching role with its position and company, and whether we hold a work address.
  const details = await filtered(db, q)
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
