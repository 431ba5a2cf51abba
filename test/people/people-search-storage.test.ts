// People search's stored fields on both dialects: each role's job function and level are written
// by the one write path of roles (PeopleRepository.saveMany: every people import, first time and
// again), migration 0024 backfills roles stored before it, and total_count is exact up to the cap,
// then an estimate marked total_count_exact: false.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator, sql } from 'kysely';
import { dbTargets, besideOtherTests, type TestDatabase } from '../support/db.ts';
import { migrateToLatest, migrations } from '../../src/db/migrate.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { PeopleService } from '../../src/people/service.ts';
import { runPeopleImport, type PersonSourceRecord } from '../../src/ingest/people/runner.ts';
import type { PersonInput } from '../../src/people/input.ts';
import { EXACT_COUNT_UP_TO, jobFunctionNamed, searchFieldsOf } from '../../src/people/people-search.ts';
import { storedRoles } from '../../src/people/titles.ts';
import { searchPeople } from '../../src/operations/people-search.ts';
import type { Services } from '../../src/services.ts';

const TITLES = [
  'Chief Revenue Officer',
  'Deputy Chief Executive Officer',
  'Assistant Vice President of Sales',
  'Product Marketing Manager',
  'Co-Founder & CEO',
  'Office Manager',
  'Head of People',
  'Senior Software Engineer',
];

async function* records(inputs: PersonInput[]): AsyncIterable<PersonSourceRecord> {
  let line = 0;
  for (const input of inputs) yield { line: ++line, input };
}

const person = (i: number, title: string, domain = 'store.example'): PersonInput => ({
  id: `p${i}`,
  full_name: `Person ${i}`,
  profile_url: `person-${i}`,
  positions: [{ company_domain: domain, company_name: domain, title, start: '2022-01' }],
});

for (const target of dbTargets) {
  describe(`people search stored fields (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let companies: CompanyService;
    let people: PeopleService;
    before(async () => {
      database = await target.open();
      companies = new CompanyService({ db: database.db });
      people = new PeopleService({ db: database.db, companies });
    });
    after(() => database?.destroy());

    const import_ = (inputs: PersonInput[]) => runPeopleImport({ db: database.db, companies, source: 'test', records: records(inputs) });
    const storedOf = async (profile: string) =>
      (
        await database.db
          .selectFrom('person_roles as r')
          .innerJoin('people as p', 'p.id', 'r.person_id')
          .select(['r.role_key', 'r.fn', 'r.job_function', 'r.job_level'])
          .where('p.profile_id', '=', profile)
          .orderBy('r.role_key')
          .execute()
      ).map((r) => ({ key: r.role_key, job_function: r.job_function, job_level: r.job_level }));
    const expected = (title: string) =>
      storedRoles(title)
        .roles.map((r) => ({ key: r.key, ...searchFieldsOf(r) }))
        .sort((a, b) => (a.key < b.key ? -1 : 1));

    it('an import writes each role with its function label and level, and a later import rewrites them', async () => {
      await import_(TITLES.map((t, i) => person(i, t)));
      for (const [i, title] of TITLES.entries()) assert.deepEqual(await storedOf(`person-${i}`), expected(title), title);
      assert.deepEqual(await storedOf('person-1'), [
        { key: 'deputy chief:executive', job_function: 'Executive', job_level: 'deputy chief' },
      ]);
      assert.deepEqual(await storedOf('person-3'), [
        { key: 'manager:product marketing', job_function: 'Advertising & Marketing', job_level: 'manager' },
      ]);
      assert.deepEqual(await storedOf('person-5'), [{ key: 'manager:office', job_function: null, job_level: 'manager' }]);

      // The same person again, the same position and one more: the roles of both are written.
      await import_([
        {
          ...person(5, 'Office Manager'),
          positions: [
            { company_domain: 'store.example', title: 'Office Manager', start: '2022-01' },
            { company_domain: 'store.example', title: 'VP of Finance', start: '2024-01' },
          ],
        },
      ]);
      assert.deepEqual(await storedOf('person-5'), [
        { key: 'manager:office', job_function: null, job_level: 'manager' },
        { key: 'vp:finance', job_function: 'Finance & Accounting', job_level: 'vp' },
      ]);
      const found = await people.search({ functions: ['Finance & Accounting'], levels: ['vp'], offset: 0, limit: 10 });
      assert.deepEqual(
        found.people.map((p) => [p.full_name, p.job_function, p.job_level]),
        [['Person 5', 'Finance & Accounting', 'vp']],
      );
      assert.deepEqual([found.total, found.exact], [1, true]);
    });

    it(`total_count: exact up to ${EXACT_COUNT_UP_TO}, then an estimate marked total_count_exact false, the same on every page`, async () => {
      // More matching roles than the exact count reads (twice the cap).
      const many = 2 * EXACT_COUNT_UP_TO + 200;
      await import_(
        Array.from({ length: many }, (_, i) => person(10_000 + i, i % 2 ? 'Account Executive' : 'Sales Manager', 'many.example')),
      );
      const services = { companies, people } as unknown as Services;
      const ask = async (body: object) =>
        (await searchPeople(services, body)).body as { total_count: number; total_count_exact: boolean; returned_count: number };
      const sales = { people_filters: { contact_job_function: ['Sales'] } };
      const first = await ask(sales);
      assert.equal(first.total_count_exact, false);
      assert.ok(
        first.total_count > EXACT_COUNT_UP_TO && first.total_count < 2 * many,
        `an estimate above the cap and near ${many}: ${first.total_count}`,
      );
      assert.equal(first.returned_count, 25);
      const later = await ask({ ...sales, page: 7, per_page: 50 });
      assert.deepEqual([later.total_count, later.total_count_exact], [first.total_count, false], 'the same estimate on another page');
      // Narrower: at most twice the cap, exact.
      const managers = await ask({ people_filters: { contact_job_function: ['Sales'], contact_job_level: ['Manager'] } });
      assert.deepEqual([managers.total_count, managers.total_count_exact], [many / 2, true]);
      const vps = await ask({ people_filters: { contact_job_level: ['VP'] } });
      assert.deepEqual([vps.total_count, vps.total_count_exact], [1, true]);
      const oneCompany = await ask({ company_filters: { company_domain: ['store.example'] } });
      assert.deepEqual([oneCompany.total_count, oneCompany.total_count_exact], [TITLES.length, true]);
      assert.equal(jobFunctionNamed('Sales')?.label, 'Sales & Business Development');
    });
  });

  describe(`migration 0024_people_search backfills roles stored before it (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    before(async () => {
      database = await target.open();
    });
    after(() => database?.destroy());

    it('each role gets the function label and level its function words and key give', async () => {
      const db = database.db;
      // Back to the schema before 0024, with roles written as they were then.
      const schema = database.pgSchema;
      await besideOtherTests(schema ?? '', async () => {
        const { error } = await new Migrator({
          db,
          provider: { getMigrations: async () => migrations },
          migrationTableSchema: schema,
        }).migrateTo('0023_company_relations');
        if (error) throw error instanceof Error ? error : new Error(String(error));
      });
      const now = Date.now();
      const company = await db
        .insertInto('companies')
        .values({ name: 'Old', normalized_name: 'old', field_sources: '{}', created_at: now, updated_at: now } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      const roles = TITLES.flatMap((title, i) => storedRoles(title).roles.map((r) => ({ title, i, r })));
      for (const [i, title] of TITLES.entries()) {
        const p = await db
          .insertInto('people')
          .values({ full_name: `Old ${i}`, profile_id: `old-${i}`, field_sources: '{}', created_at: now, updated_at: now } as never)
          .returning('id')
          .executeTakeFirstOrThrow();
        const pos = await db
          .insertInto('person_positions')
          .values({
            person_id: p.id,
            company_id: company.id,
            title,
            title_normalized: title.toLowerCase(),
            is_current: 1,
            position_key: `${company.id}|${title}|`,
            source: 'old',
            seen_at: now,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow();
        for (const { r } of roles.filter((x) => x.i === i))
          await sql`insert into person_roles (position_id, person_id, company_id, role_key, fn, rank)
            values (${pos.id}, ${p.id}, ${company.id}, ${r.key}, ${r.fn}, ${r.rank})`.execute(db);
      }
      await besideOtherTests(schema ?? '', () => migrateToLatest(db));
      const stored = await db.selectFrom('person_roles').select(['role_key', 'fn', 'job_function', 'job_level']).execute();
      assert.equal(stored.length, roles.length);
      for (const row of stored) {
        assert.deepEqual(
          { job_function: row.job_function, job_level: row.job_level },
          searchFieldsOf({ key: row.role_key, fn: row.fn }),
          row.role_key,
        );
      }
    });
  });
}
