// The reads of one person (email to profile, profile search, personal emails, job change) on both
// dialects, from what an import recorded: the sample people file and a person who moved twice.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { PeopleService } from '../../src/people/service.ts';
import { readPeopleJsonl } from '../../src/ingest/people/jsonl.ts';
import { runPeopleImport } from '../../src/ingest/people/runner.ts';

const fixture = fileURLToPath(new URL('../fixtures/people/people.jsonl', import.meta.url));

/** A person who left Globex for Initech, then Initech for Umbrella; another who shares an inbox with a colleague. */
const MOVERS = [
  {
    id: 'm1',
    full_name: 'Rosa Moreno',
    profile_url: 'https://www.linkedin.com/in/rosa-moreno',
    positions: [
      { company_name: 'Globex', company_domain: 'globex.example.com', title: 'Account Executive', start: '2014-02', end: '2017-06' },
      { company_name: 'Initech', company_domain: 'initech.example', title: 'Sales Manager', start: '2017-07', end: '2022-03' },
      { company_name: 'Umbrella', company_domain: 'umbrella.example', title: 'Head of Sales', start: '2022-04' },
    ],
    emails: [
      { email: 'rosa@umbrella.example', type: 'work' },
      { email: 'rosa.moreno@gmail.com' },
      { email: 'rosa.m@yahoo.com', status: 'valid' },
      { email: 'old.rosa@hotmail.com', status: 'invalid' },
    ],
  },
  { id: 'm2', full_name: 'Sam Shared', profile_url: 'sam-shared', emails: [{ email: 'sales@umbrella.example', type: 'work' }] },
  { id: 'm3', full_name: 'Kim Shared', profile_url: 'kim-shared', emails: [{ email: 'sales@umbrella.example', type: 'work' }] },
];

for (const target of dbTargets) {
  describe(`reads of one person (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let people: PeopleService;

    before(async () => {
      database = await target.open();
      const companies = new CompanyService({ db: database.db });
      people = new PeopleService({ db: database.db, companies });
      const dir = mkdtempSync(join(tmpdir(), 'leadbase-movers-'));
      try {
        const movers = join(dir, 'movers.jsonl');
        writeFileSync(movers, MOVERS.map((m) => JSON.stringify(m)).join('\n') + '\n');
        for (const file of [fixture, movers])
          await runPeopleImport({
            db: database.db,
            companies,
            source: 'jsonl',
            records: readPeopleJsonl(file).records,
            defaultCountry: 'US',
          });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
    after(() => database?.destroy());

    it('email to profile: the one person holding the address, with their current position; shared or unknown addresses find no one', async () => {
      const found = await people.emailToProfile('John.Smith@acme-robotics.com');
      assert.equal(found?.profile_url, 'https://www.linkedin.com/in/john-smith-42');
      assert.equal(found?.full_name, 'John Smith');
      assert.equal(found?.job_title, 'VP of Sales');
      assert.equal(found?.company_website, 'https://acme-robotics.com');
      assert.equal((await people.emailToProfile('rosa.moreno@gmail.com'))?.profile_url, 'https://www.linkedin.com/in/rosa-moreno');
      assert.equal(await people.emailToProfile('sales@umbrella.example'), null, 'two people hold it: neither is guessed');
      assert.equal(await people.emailToProfile('nobody@acme-robotics.com'), null);
      // Anne-Marie has an address but no profile: there is no profile URL to answer.
      assert.equal(await people.emailToProfile('annemarie.lepen@acme-robotics.com'), null);
    });

    it('profile search: the person with current then past positions, latest first, ', async () => {
      const found = await people.profileSearch('https://uk.linkedin.com/in/Rosa-Moreno/?trk=x');
      assert.ok(found);
      assert.equal(found.public_identifier, 'rosa-moreno');
      assert.equal(found.professional_title, 'Head of Sales');
      assert.equal(found.company_name, 'Umbrella');
      assert.deepEqual(
        found.work_experience?.map((p) => [p.company_name, p.title, p.start_date, p.end_date, p.is_current]),
        [
          ['Umbrella', 'Head of Sales', '2022-04', null, true],
          ['Initech', 'Sales Manager', '2017-07', '2022-03', false],
          ['Globex', 'Account Executive', '2014-02', '2017-06', false],
        ],
      );
      assert.equal(await people.profileSearch('https://www.linkedin.com/in/not-held'), null);
      assert.equal(await people.profileSearch('not a profile at all!'), null);
    });

    it('personal emails: verified valid first, then latest seen; invalid and work addresses never; none held is not found', async () => {
      const found = await people.personalEmails('rosa-moreno');
      assert.equal(found?.personal_email, 'rosa.m@yahoo.com');
      assert.deepEqual(found?.personal_emails.sort(), ['rosa.m@yahoo.com', 'rosa.moreno@gmail.com']);
      assert.equal((await people.personalEmails('maria-de-la-cruz'))?.personal_email, 'maria.cruz@gmail.com');
      assert.equal(await people.personalEmails('john-smith-42'), null, 'John has only a work address');
      assert.equal(await people.personalEmails('not-held'), null);
    });

    it('job change: a current position is no change; only past ones a change from when it ended to where they went; none, never', async () => {
      const moved = await people.jobChange('rosa-moreno', { company_domain: 'initech.example' });
      assert.equal(moved?.status, 'JOB_CHANGE_DETECTED');
      assert.equal(moved?.job_change_detected, true);
      assert.equal(moved?.changed_at, '2022-03');
      assert.equal(moved?.previous_position?.company_name, 'Initech');
      assert.equal(moved?.current_position?.company_name, 'Umbrella');
      assert.equal(moved?.work_history?.length, 3);
      const byName = await people.jobChange('rosa-moreno', { company_name: 'Globex' });
      assert.equal(byName?.changed_at, '2017-06');
      const stays = await people.jobChange('rosa-moreno', { company_domain: 'umbrella.example' });
      assert.equal(stays?.status, 'NO_CHANGE');
      assert.equal(stays?.job_change_detected, false);
      assert.equal(stays?.current_position?.title, 'Head of Sales');
      const never = await people.jobChange('john-smith-42', { company_domain: 'umbrella.example' });
      assert.equal(never?.status, 'NEVER_WORKED_THERE');
      assert.equal(await people.jobChange('rosa-moreno', { company_domain: 'unknown.example' }), null, 'unknown company');
      assert.equal(await people.jobChange('not-held', { company_domain: 'initech.example' }), null, 'unknown person');
    });
  });
}
