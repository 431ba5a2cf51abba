// What the service can answer now: for each data endpoint, one request that finds something,
// picked from real rows of the stores and checked by asking the same domain service the endpoint
// asks (no charge, no HTTP); or, when none can be found, why and what would bring the data.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { CompanyService } from '../companies/service.ts';
import type { JobService } from '../jobs/service.ts';
import type { PeopleService } from '../people/service.ts';

export interface EndpointExample {
  /** The endpoint's path, such as /company-funding. */
  endpoint: string;
  /** A request body that finds something, or null when nothing can be found yet. */
  body: Body | null;
  /** Why nothing can be found yet, and what brings the data (when body is null). */
  reason: string | null;
}

export interface AnswerDeps {
  db: Db;
  companies: CompanyService;
  jobs: JobService;
  people: PeopleService;
}

/** Candidate rows tried per endpoint before saying nothing is found. */
const CANDIDATES = 8;

/** A request body: text fields, and has_remote for the jobs finder. */
type Body = Record<string, string | boolean>;
type Company = { name: string; domain: string | null };
const companyQuery = (c: Company): Record<string, string> => (c.domain ? { company_domain: c.domain } : { company_name: c.name });

/** The first candidate whose body the check finds something for. */
async function firstFound<T, B extends Body>(
  candidates: T[],
  bodyOf: (candidate: T) => B | null,
  check: (body: B) => Promise<boolean>,
): Promise<B | null> {
  for (const candidate of candidates) {
    const body = bodyOf(candidate);
    if (body && (await check(body).catch(() => false))) return body;
  }
  return null;
}

/** One example per data endpoint, in the order the README lists them. */
export async function endpointExamples(deps: AnswerDeps): Promise<EndpointExample[]> {
  const { db, companies, jobs, people } = deps;
  const out: EndpointExample[] = [];
  const add = (endpoint: string, body: Body | null, reason: string) => out.push({ endpoint, body, reason: body ? null : reason });

  const funded = await db
    .selectFrom('company_funding_rounds as r')
    .innerJoin('companies as c', 'c.id', 'r.company_id')
    .select(['c.name', 'c.domain'])
    .orderBy('r.id', 'desc')
    .limit(CANDIDATES)
    .execute();
  add(
    '/company-funding',
    await firstFound(funded, companyQuery, async (q) => (await companies.funding(q)) !== null),
    'no company has funding data yet: it comes from SEC Form D filings (the formd data set) and your own company imports',
  );

  const named = await db
    .selectFrom('companies')
    .select(['name', 'domain'])
    .where('domain', 'is not', null)
    .orderBy('id', 'desc')
    .limit(CANDIDATES)
    .execute();
  const anyCompany = named.length
    ? named
    : await db.selectFrom('companies').select(['name', 'domain']).orderBy('id', 'desc').limit(CANDIDATES).execute();
  add(
    '/company-search',
    await firstFound(anyCompany, companyQuery, async (q) => (await companies.profile(q)) !== null),
    'no company is stored yet: the data sets (leadbase bootstrap) and leadbase import companies bring them',
  );

  const listings = await db
    .selectFrom('job_live as l')
    .innerJoin('jobs as j', 'j.id', 'l.job_id')
    .select(['j.company_name', 'j.published_at', 'j.has_remote'])
    .orderBy('l.job_id', 'desc')
    .limit(CANDIDATES)
    .execute();
  // The finder searches the last weeks' postings unless a date is given: the listing's own day is.
  const dayOf = (ms: number) => new Date(Number(ms)).toISOString().slice(0, 10);
  add(
    '/jobs-finder',
    await firstFound(
      listings,
      (l) => ({ company_name: l.company_name, posted_after: dayOf(l.published_at), has_remote: Number(l.has_remote) === 1 }),
      async (q) => (await jobs.search(q)).results.length > 0,
    ),
    'no live listing yet: the job boards bring them (leadbase bootstrap --only boards, leadbase sources add, leadbase import jobs)',
  );

  const positions = await db
    .selectFrom('person_positions as p')
    .innerJoin('companies as c', 'c.id', 'p.company_id')
    .select(['p.title', 'c.name', 'c.domain'])
    .where('p.is_current', '=', 1)
    .orderBy('p.id', 'desc')
    .limit(CANDIDATES)
    .execute();
  const leaders = await db
    .selectFrom('company_leaders as l')
    .innerJoin('companies as c', 'c.id', 'l.company_id')
    .select([sql<string>`coalesce(l.designation, l.role)`.as('title'), 'c.name', 'c.domain'])
    .orderBy('l.id', 'desc')
    .limit(CANDIDATES)
    .execute();
  add(
    '/role-finder',
    await firstFound(
      [...leaders, ...positions],
      (p): Record<string, string> | null => (p.title ? { ...companyQuery(p), job_title: p.title } : null),
      async (q) =>
        (await people.findRole({ company_name: q.company_name, company_domain: q.company_domain, job_title: q.job_title })) !== null,
    ),
    "no one holding a known role is stored yet: the data sets' officers and directors, and leadbase import people, bring them",
  );

  add(
    '/employee-finder',
    await firstFound(
      positions,
      companyQuery,
      async (q) => ((await people.employees(q, /* offset */ 0, /* count */ 1))?.employees.length ?? 0) > 0,
    ),
    'no current employee is stored yet: they come from your own contact exports (leadbase import people)',
  );

  const verified = await db
    .selectFrom('person_emails as e')
    .innerJoin('people as p', 'p.id', 'e.person_id')
    .select(['p.first_name', 'p.last_name', 'p.profile_id', 'e.domain'])
    .where('e.kind', '=', 'work')
    .where('e.status', '=', 'valid')
    .orderBy('e.id', 'desc')
    .limit(CANDIDATES)
    .execute();
  add(
    '/email-finder',
    await firstFound(
      verified,
      (v) => (v.first_name && v.last_name ? { first_name: v.first_name, last_name: v.last_name, domain: v.domain } : null),
      async (q) => (await people.findEmail({ first_name: q.first_name, last_name: q.last_name, domain: q.domain })).email !== null,
    ),
    "no verified work address is stored yet (leadbase import people brings them); the finder still works live, asking the company's mail server (outbound port 25)",
  );

  const mobiles = await db
    .selectFrom('person_phones as ph')
    .innerJoin('people as p', 'p.id', 'ph.person_id')
    .select(['p.id', 'p.profile_id'])
    .where('ph.type', 'in', ['mobile', 'possibly_mobile'])
    .orderBy('ph.id', 'desc')
    .limit(CANDIDATES)
    .execute();
  const workEmailOf = async (personId: number) =>
    (await db.selectFrom('person_emails').select('email').where('person_id', '=', personId).where('kind', '=', 'work').executeTakeFirst())
      ?.email ?? null;
  const mobileBodies = await Promise.all(
    mobiles.map(async (m): Promise<Record<string, string> | null> =>
      m.profile_id ? { profile_url: m.profile_id } : await workEmailOf(Number(m.id)).then((e) => (e ? { work_email: e } : null)),
    ),
  );
  add(
    '/mobile-finder',
    await firstFound(
      mobileBodies,
      (b) => b,
      async (q) =>
        (await people.findMobile({ profile_url: q.profile_url ?? null, work_email: q.work_email ?? null, personal_email: null })) !== null,
    ),
    'mobiles come only from your own contact exports (CRM, address books): leadbase import people',
  );

  add(
    '/b2b-profile-email',
    await firstFound(
      verified,
      (v) => (v.profile_id ? { profile_url: v.profile_id } : null),
      async (q) => (await people.findProfileEmail(q.profile_url)) !== null,
    ),
    'needs people with a profile URL and a verified work address, from your own contact exports: leadbase import people',
  );
  return out;
}

/** A curl line asking the example (the key and address from the environment the operator sets). */
export function curlLine(example: EndpointExample, baseUrl: string): string {
  const json = JSON.stringify(example.body).replace(/'/g, `'\\''`);
  return `curl -s -X POST ${baseUrl}${example.endpoint} -H "X-API-Key: $LEADBASE_API_KEY" -H 'content-type: application/json' -d '${json}'`;
}
