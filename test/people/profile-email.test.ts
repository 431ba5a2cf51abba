// Profile to email with the real email validation engine, against local fake DNS and SMTP servers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { startTestApp } from '../support/app.ts';
import { startMailWorld, type FakeMx, type MailWorld } from '../support/fake-smtp.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { PeopleService } from '../../src/people/service.ts';
import { runPeopleImport } from '../../src/ingest/people/runner.ts';
import type { PersonInput } from '../../src/people/input.ts';
import { createEmailValidationService, type EmailValidationService } from '../../src/email/service.ts';

const people: PersonInput[] = [
  // Known addresses at pattern.test follow "flast": that pattern is tried first.
  {
    id: 'k1',
    full_name: 'Anna Doe',
    positions: [{ company_domain: 'pattern.test', company_name: 'Pattern', title: 'Engineer' }],
    emails: [{ email: 'adoe@pattern.test', status: 'valid' }],
  },
  {
    id: 'k2',
    full_name: 'Bob King',
    positions: [{ company_domain: 'pattern.test', title: 'Designer' }],
    emails: [{ email: 'bking@pattern.test' }],
  },
  {
    id: 'k3',
    full_name: 'Cem Ozturk',
    positions: [{ company_domain: 'pattern.test', title: 'Recruiter' }],
    emails: [{ email: 'cem.ozturk@pattern.test' }],
  },
  { id: 't1', full_name: 'Carla de la Fuente', profile_url: 'carla-fuente', positions: [{ company_domain: 'pattern.test', title: 'CFO' }] },
  // No evidence at plain.test: the usual order (first.last first); the mailbox is "dana".
  {
    id: 't2',
    full_name: 'Dana Scully',
    profile_url: 'https://www.linkedin.com/in/dana-scully',
    positions: [{ company_name: 'Plain', company_domain: 'plain.test', title: 'Agent' }],
  },
  { id: 't6', full_name: 'Hana Ito', profile_url: 'hana-ito', positions: [{ company_domain: 'plain.test', title: 'Analyst' }] },
  // A catch-all domain: nothing can be verified, nothing is served.
  {
    id: 't3',
    full_name: 'Evan Catch',
    profile_url: 'evan-catch',
    positions: [{ company_name: 'Catchy', company_domain: 'catchall.test', title: 'CEO' }],
  },
  // No candidate exists at the domain.
  {
    id: 't4',
    full_name: 'Finn Nobody',
    profile_url: 'finn-nobody',
    positions: [{ company_name: 'Empty', company_domain: 'empty.test', title: 'CEO' }],
  },
  // A past position only: no current domain to derive from.
  {
    id: 't5',
    full_name: 'Gail Gone',
    profile_url: 'gail-gone',
    positions: [{ company_domain: 'plain.test', title: 'CTO', start: '2010', end: '2012' }],
  },
];

for (const target of dbTargets) {
  describe(`profile to email with the email engine (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    let world: MailWorld;
    let service: PeopleService;
    const mx: Record<string, FakeMx> = {};
    let emailValidator: EmailValidationService;

    before(async () => {
      database = await target.open();
      world = await startMailWorld();
      mx.pattern = await world.domain('pattern.test', { mailboxes: ['adoe', 'bking', 'cem.ozturk', 'cdelafuente'] });
      mx.plain = await world.domain('plain.test', { mailboxes: ['dana', 'hana'] });
      mx.catchall = await world.domain('catchall.test', { acceptAll: true });
      mx.empty = await world.domain('empty.test', { mailboxes: ['someone.else'] });
      const companies = new CompanyService({ db: database.db });
      const records = async function* () {
        let line = 0;
        for (const input of people) yield { line: ++line, input };
      };
      await runPeopleImport({ db: database.db, companies, source: 'test', records: records() });
      emailValidator = createEmailValidationService({
        db: database.db,
        dialect: database.dialect,
        config: { ...world.emailConfig, connectTimeoutMs: 2000, commandTimeoutMs: 2000, deadlineMs: 5000, greylistRecheckMs: 0 },
        recheckWorker: false,
      });
      service = new PeopleService({ db: database.db, companies, emailValidator });
    });
    after(async () => {
      await emailValidator?.close();
      await world?.close();
      await database?.destroy();
    });

    it('tries the domain pattern first and serves the address the engine finds valid', async () => {
      assert.deepEqual(await service.findProfileEmail('https://www.linkedin.com/in/carla-fuente/'), {
        profile_url: 'https://www.linkedin.com/in/carla-fuente',
        email: 'cdelafuente@pattern.test',
      });
      assert.equal(mx.pattern.rcpts.filter((r) => r.startsWith('c')).at(0), 'cdelafuente@pattern.test');
    });

    it('remembers a derived address: the next call needs no SMTP', async () => {
      const before = mx.pattern.rcpts.length;
      assert.equal((await service.findProfileEmail('carla-fuente'))?.email, 'cdelafuente@pattern.test');
      assert.equal(mx.pattern.rcpts.length, before);
      const person = await service.repository.findByProfileId('carla-fuente');
      const [stored] = await service.repository.emailsOf(person!.id);
      assert.equal(stored.obtained_by, 'derived');
      assert.equal(stored.status, 'valid');
    });

    it('walks the usual order when the domain shows no pattern', async () => {
      assert.equal((await service.findProfileEmail('dana-scully'))?.email, 'dana@plain.test');
      assert.equal(
        mx.plain.rcpts.some((r) => r.startsWith('dana.scully@')),
        true,
        'first.last was tried before first',
      );
    });

    it('POST /b2b-profile-email derives through the app, learning the pattern from the address found before', async () => {
      const app = await startTestApp(undefined, { database, credits: 10, deps: { email: { ...world.emailConfig, greylistRecheckMs: 0 } } });
      try {
        const res = await app.post('/b2b-profile-email', { profile_url: 'hana-ito' });
        assert.deepEqual(res.json(), {
          profile_url: 'https://www.linkedin.com/in/hana-ito',
          credits_consumed: 5,
          message: 'Email found.',
          email: 'hana@plain.test',
          work_email: 'hana@plain.test',
          status: 'found',
        });
        // dana@plain.test (found above) shows the domain uses "first": tried before first.last.
        assert.equal(mx.plain.rcpts.filter((r) => r.startsWith('h')).at(0), 'hana@plain.test');
        const none = await app.post('/b2b-profile-email', { profile_url: 'evan-catch' });
        assert.equal(none.json().credits_consumed, 0);
        assert.equal(none.json().message, 'No email found for this profile.');
      } finally {
        await app.close();
      }
    });

    it('never serves a guess: catch-all domains and domains without the mailbox give nothing', async () => {
      assert.equal(await service.findProfileEmail('evan-catch'), null);
      assert.equal(await service.findProfileEmail('finn-nobody'), null);
      assert.ok(mx.empty.rcpts.length <= 8 * 2, `bounded probing, saw ${mx.empty.rcpts.length}`);
      assert.equal(await service.findProfileEmail('gail-gone'), null);
    });
  });
}
