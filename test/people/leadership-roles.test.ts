// A leader a company's own data names (JSONL `leadership`, a filing's related persons) answers the
// role finder for that role, even when no person record holds it; a person record still comes first.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets } from '../support/db.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { PeopleService } from '../../src/people/service.ts';
import { runPeopleImport } from '../../src/ingest/people/runner.ts';

for (const target of dbTargets) {
  describe(`company leadership in the role finder (${target.name})`, { skip: target.skip }, () => {
    it('finds a company leader by role, and prefers a person record when there is one', async () => {
      const database = await target.open();
      try {
        const companies = new CompanyService({ db: database.db });
        await companies.upsertCompany(
          {
            name: 'Northwind Analytics',
            domain: 'northwind.example',
            leadership: [
              {
                role: 'ceo',
                first_name: 'Ada',
                last_name: 'Quinn',
                designation: 'Chief Executive Officer',
                prof_url: 'https://www.linkedin.com/in/adaquinn',
              },
              { role: 'cfo', first_name: 'Bo', last_name: 'Chen', designation: 'Chief Financial Officer' },
            ],
          },
          'jsonl',
        );
        const people = new PeopleService({ db: database.db, companies });
        const ceo = await people.findRole({ job_title: 'CEO', company_domain: 'northwind.example' });
        assert.equal(ceo?.name, 'Ada Quinn');
        assert.match(ceo?.profile_url ?? '', /adaquinn/);
        assert.equal(ceo?.company_name, 'Northwind Analytics');
        const cfo = await people.findRole({ job_title: 'Chief Financial Officer', company_name: 'Northwind Analytics' });
        assert.equal(cfo?.name, 'Bo Chen');
        assert.equal(await people.findRole({ job_title: 'VP Engineering', company_domain: 'northwind.example' }), null);

        async function* records() {
          yield {
            line: 1,
            input: { full_name: 'Cy Moreno', positions: [{ title: 'CEO', company_domain: 'northwind.example', current: true }] },
          };
        }
        await runPeopleImport({ db: database.db, companies, source: 'crm', records: records() });
        assert.equal((await people.findRole({ job_title: 'CEO', company_domain: 'northwind.example' }))?.name, 'Cy Moreno');
      } finally {
        await database.destroy();
      }
    });
  });
}
