import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { PeopleService } from '../../src/people/service.ts';
import { readPeopleJsonl } from '../../src/ingest/people/jsonl.ts';
import { parseColumnMap, readPeopleCsv } from '../../src/ingest/people/csv.ts';
import { runPeopleImport } from '../../src/ingest/people/runner.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/people/${name}`, import.meta.url));
const CSV_MAP =
  'Person ID=id,Name=full_name,LinkedIn=profile_url,Employer=company_name,Website=company_domain,Job Title=title,Work Email=work_email,Mobile=mobile_phone,Office Phone=phone';

for (const target of dbTargets) {
  describe(`people store (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let companies: CompanyService;
    let people: PeopleService;

    const importJsonl = () =>
      runPeopleImport({
        db: database.db,
        companies,
        source: 'jsonl',
        records: readPeopleJsonl(fixture('people.jsonl')).records,
        defaultCountry: 'US',
        batchSize: 50,
      });

    before(async () => {
      database = await target.open();
      companies = new CompanyService({ db: database.db });
      people = new PeopleService({ db: database.db, companies });
    });
    after(() => database?.destroy());

    it('imports JSONL, rejecting bad rows without aborting and reporting dropped facts', async () => {
      const summary = await importJsonl();
      assert.equal(summary.read, 9);
      assert.equal(summary.inserted, 6);
      // The last line is John Smith again, in the same batch: applied after the first record.
      assert.equal(summary.updated, 1);
      assert.deepEqual(
        summary.rejected.map((r) => r.line),
        [6, 7],
      );
      assert.match(summary.rejected[0].reason, /not valid JSON/);
      assert.match(summary.rejected[1].reason, /full_name or first_name\/last_name is required/);
      assert.deepEqual(
        summary.warnings.map((w) => w.line),
        [8, 8],
      );
      assert.match(summary.format(), /rejected 2/);
    });

    it('imports a CSV export through a column map, linking companies by domain or name', async () => {
      const summary = await runPeopleImport({
        db: database.db,
        companies,
        source: 'csv',
        records: readPeopleCsv(fixture('people.csv'), parseColumnMap(CSV_MAP)).records,
        defaultCountry: 'US',
      });
      assert.equal(summary.read, 4);
      assert.equal(summary.inserted, 3);
      assert.deepEqual(
        summary.rejected.map((r) => r.line),
        [4],
      );
      const initech = await companies.findByDomain('initech.example.org');
      assert.ok(initech);
      const rows = await database.db
        .selectFrom('person_positions')
        .select('company_id')
        .where('title', '=', 'Sr. Software Engineer')
        .execute();
      assert.deepEqual(
        rows.map((r) => Number(r.company_id)),
        [initech.id],
      );
    });

    it('stores names, profile ids, sources and E.164 phones', async () => {
      const maria = await people.repository.findByProfileId('maria-de-la-cruz');
      assert.ok(maria);
      assert.equal(maria.first_name, 'Maria');
      assert.equal(maria.last_name, 'de la Cruz');
      assert.equal(maria.name_prefix, 'Dr.');
      assert.equal(JSON.parse(maria.field_sources).name.source, 'jsonl');
      const lvb = await people.repository.findByProfileId('lvb-composer');
      assert.equal(lvb?.name_suffix, 'III');
      const phones = await people.repository.phonesOf([lvb.id]);
      assert.deepEqual(phones.map((p) => [p.e164, p.type]).sort(), [
        ['+442079460958', 'fixed'],
        ['+447400123456', 'mobile'],
      ]);
      const emails = await people.repository.emailsOf(maria.id);
      assert.deepEqual(emails.map((e) => [e.email, e.kind, e.status, e.obtained_by]).sort(), [
        ['maria.cruz@gmail.com', 'personal', null, 'source'],
        ['maria@acme-robotics.com', 'work', 'valid', 'source'],
      ]);
    });

    it('re-importing the same file updates in place', async () => {
      const count = async (table: 'people' | 'person_positions' | 'person_roles' | 'person_emails' | 'person_phones') =>
        Number(
          (
            await database.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await Promise.all(
        (['people', 'person_positions', 'person_roles', 'person_emails', 'person_phones'] as const).map(count),
      );
      const summary = await importJsonl();
      assert.equal(summary.inserted, 0);
      assert.equal(summary.updated, 7);
      const afterCounts = await Promise.all(
        (['people', 'person_positions', 'person_roles', 'person_emails', 'person_phones'] as const).map(count),
      );
      assert.deepEqual(afterCounts, before);
    });

    describe('role finder', () => {
      it('finds the CEO by domain, with the role result fields', async () => {
        assert.deepEqual(
          await people.findRole({ company_domain: 'https://www.acme-robotics.com/about', job_title: 'Chief Executive Officer' }),
          {
            name: 'Dr. Maria de la Cruz',
            profile_url: 'https://www.linkedin.com/in/maria-de-la-cruz',
            first_name: 'Maria',
            last_name: 'de la Cruz',
            company_name: 'Acme Robotics, Inc.',
            company_website: 'https://acme-robotics.com',
          },
        );
      });
      it('finds by company name and prefers the exact title among equal roles', async () => {
        assert.equal(
          (await people.findRole({ company_name: 'Acme Robotics', job_title: 'Head of Sales' }))?.name,
          'Ludwig van Beethoven III',
        );
        assert.equal(
          (await people.findRole({ company_name: 'acme robotics inc', job_title: 'Sales Director' }))?.name,
          'Anne-Marie Le Pen',
        );
        assert.equal((await people.findRole({ company_domain: 'acme-robotics.com', job_title: 'VP Sales' }))?.last_name, 'Smith');
        assert.equal((await people.findRole({ company_domain: 'initech.example.org', job_title: 'CFO' }))?.name, 'Sofia García López');
        assert.equal(
          (await people.findRole({ company_domain: 'globex.example.com', job_title: 'CTO' }))?.profile_url,
          'https://www.linkedin.com/in/priya-n',
        );
      });
      it('only considers current positions, and never an assistant for the executive', async () => {
        assert.equal(await people.findRole({ company_domain: 'globex.example.com', job_title: 'Sales Director' }), null);
        const ceo = await people.findRole({ company_domain: 'acme-robotics.com', job_title: 'CEO' });
        assert.notEqual(ceo?.name, 'Ken Adams');
      });
      it('answers null for an unknown company, role or title', async () => {
        assert.equal(await people.findRole({ company_domain: 'unknown.example', job_title: 'CEO' }), null);
        assert.equal(await people.findRole({ company_domain: 'acme-robotics.com', job_title: 'Head of Marketing' }), null);
        assert.equal(await people.findRole({ company_domain: 'acme-robotics.com', job_title: '???' }), null);
      });
      it('a function-only query returns its most senior holder', async () => {
        assert.equal((await people.findRole({ company_domain: 'acme-robotics.com', job_title: 'Sales' }))?.last_name, 'Smith');
      });
    });

    it('a position that ends is no longer found by the role finder', async () => {
      const records = async function* () {
        yield {
          line: 1,
          input: {
            id: 'temp',
            full_name: 'Tess Temp',
            positions: [{ company_domain: 'globex.example.com', title: 'Head of Marketing', start: '2024-01' }],
          },
        };
      };
      await runPeopleImport({ db: database.db, companies, source: 'crm', records: records() });
      assert.equal((await people.findRole({ company_domain: 'globex.example.com', job_title: 'Marketing Director' }))?.name, 'Tess Temp');
      const ended = async function* () {
        yield {
          line: 1,
          input: {
            id: 'temp',
            full_name: 'Tess Temp',
            positions: [{ company_domain: 'globex.example.com', title: 'Head of Marketing', start: '2024-01', end: '2025-06' }],
          },
        };
      };
      const summary = await runPeopleImport({ db: database.db, companies, source: 'crm', records: ended() });
      assert.equal(summary.updated, 1);
      assert.equal(await people.findRole({ company_domain: 'globex.example.com', job_title: 'Marketing Director' }), null);
    });

    describe('mobile finder', () => {
      it('finds by profile URL or identifier, preferring a mobile over a fixed line', async () => {
        assert.deepEqual(await people.findMobile({ profile_url: 'https://www.linkedin.com/in/maria-de-la-cruz/' }), {
          profile_url: 'https://www.linkedin.com/in/maria-de-la-cruz',
          mobile_number: 14155552671,
        });
        assert.equal((await people.findMobile({ profile_url: 'LVB-Composer' }))?.mobile_number, 447400123456);
      });
      it('finds by work or personal email, possibly mobile numbers included', async () => {
        assert.deepEqual(await people.findMobile({ work_email: 'John.Smith@acme-robotics.com' }), {
          profile_url: 'https://www.linkedin.com/in/john-smith-42',
          mobile_number: 14155550199,
        });
        const john = await people.repository.findByProfileId('john-smith-42');
        assert.deepEqual(
          (await people.repository.phonesOf([john!.id])).map((p) => [p.e164, p.type]),
          [['+14155550199', 'mobile']],
        );
        assert.equal((await people.findMobile({ personal_email: 'maria.cruz@gmail.com' }))?.mobile_number, 14155552671);
        assert.equal((await people.findMobile({ work_email: 'annemarie.lepen@acme-robotics.com' }))?.profile_url, null);
        assert.equal((await people.findMobile({ profile_url: 'sofia-garcia' }))?.mobile_number, 34612345678);
      });
      it('answers null when there is no mobile or no person', async () => {
        assert.equal(await people.findMobile({ profile_url: 'kenadams' }), null);
        assert.equal(await people.findMobile({ profile_url: 'nobody-here', work_email: 'x@nowhere.example' }), null);
      });
    });

    describe('profile to email (stored addresses)', () => {
      it('serves a stored verified work address', async () => {
        assert.deepEqual(await people.findProfileEmail('https://www.linkedin.com/in/maria-de-la-cruz'), {
          profile_url: 'https://www.linkedin.com/in/maria-de-la-cruz',
          email: 'maria@acme-robotics.com',
        });
      });
      it('never serves an unverified address without the validation engine', async () => {
        assert.equal(await people.findProfileEmail('john-smith-42'), null);
        assert.equal(await people.findProfileEmail('nobody-here'), null);
      });
    });
  });
}

for (const target of dbTargets) {
  describe(`people import after a job board created the company by name (${target.name})`, { skip: target.skip }, () => {
    it('links positions to that company and gives it the domain, so the role finder works by domain and by name', async () => {
      const database = await target.open();
      try {
        const companies = new CompanyService({ db: database.db });
        const people = new PeopleService({ db: database.db, companies });
        const fromJobs = await companies.upsertCompany({ name: 'Acme Robotics' }, 'jobs:greenhouse');
        await runPeopleImport({
          db: database.db,
          companies,
          source: 'jsonl',
          records: readPeopleJsonl(fixture('people.jsonl')).records,
          defaultCountry: 'US',
        });
        assert.equal((await companies.findByDomain('acme-robotics.com'))?.id, fromJobs.id, 'the domain completed the existing company');
        const byDomain = await people.findRole({ company_domain: 'acme-robotics.com', job_title: 'CEO' });
        const byName = await people.findRole({ company_name: 'Acme Robotics', job_title: 'CEO' });
        assert.equal(byDomain?.first_name, 'Maria');
        assert.deepEqual(byName, byDomain);
      } finally {
        await database.destroy();
      }
    });
  });
}
