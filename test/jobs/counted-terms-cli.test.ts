// `leadbase jobs counted-terms` and `leadbase jobs count-term`: an operator lists the description
// terms counted per day and adds one by hand (src/cli/jobs-terms.ts). On PostgreSQL a term added
// from the command line is keyed as a quoted query keys it and counts every live listing holding
// it; a term that is not a word, pair or triple is refused with a non-zero exit. On SQLite, which
// keeps no counted terms, the list says so and adding one is refused.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompanyService } from '../../src/companies/service.ts';
import { JobService } from '../../src/jobs/service.ts';
import type { SourceListing } from '../../src/ingest/jobs/types.ts';
import { openOwnPostgresDatabase, PG_SKIP, type TestDatabase } from '../support/db.ts';
import { runLeadbase } from '../support/cli.ts';

const NOW = Date.now();
const DAY = 86_400_000;

/** 30 listings over 30 days; every third asks for month-end close experience. */
function listings(): SourceListing[] {
  return Array.from({ length: 30 }, (_, i) => ({
    sourceId: `t${i}`,
    title: 'Accountant',
    location: 'Dallas, TX',
    employmentTypes: ['Full-time'],
    publishedAt: NOW - i * DAY - 3_600_000,
    descriptionHtml: i % 3 ? '<p>Reconciliations and audit support.</p>' : '<p>You own the Month-End Close and reconciliations.</p>',
    applyUrl: `https://jobs.example/t${i}`,
    company: { name: 'Ledger Works', website: 'https://ledger.example' },
  }));
}

describe('leadbase jobs counted-terms on SQLite', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'leadbase-counted-cli-'));
    env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'jobs.sqlite')}`, REDIS_URL: '', LOG_LEVEL: 'silent' };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists none and says why; refuses to add one', async () => {
    const list = await runLeadbase(['jobs', 'counted-terms', '--json'], env);
    assert.equal(list.status, 0, list.stderr);
    const body = JSON.parse(list.stdout);
    assert.deepEqual(body.counted_terms, []);
    assert.match(body.note, /PostgreSQL only/);
    const add = await runLeadbase(['jobs', 'count-term', 'react'], env);
    assert.notEqual(add.status, 0);
    assert.match(add.stderr, /PostgreSQL only/);
  });
});

describe('leadbase jobs counted-terms on PostgreSQL', { skip: PG_SKIP }, () => {
  let postgres: TestDatabase;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    postgres = await openOwnPostgresDatabase();
    env = { ...process.env, DATABASE_URL: postgres.url, REDIS_URL: '', LOG_LEVEL: 'silent' };
    const jobs = new JobService({ db: postgres.db, companies: new CompanyService({ db: postgres.db }) });
    await jobs.importer.importBoard(listings(), { source: 'lever', board: 'ledger', now: NOW });
    await jobs.close();
  });
  after(async () => postgres?.destroy());

  it('adds a phrase keyed as a quoted query keys it, counts its listings, and lists it', async () => {
    const add = await runLeadbase(['jobs', 'count-term', 'Month-end', 'close', '--json'], env);
    assert.equal(add.status, 0, add.stderr);
    assert.deepEqual({ ...JSON.parse(add.stdout), seconds: 0 }, { term: 'month end close', outcome: 'added', seconds: 0 });
    const again = await runLeadbase(['jobs', 'count-term', '"month end close"'], env);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /was counted already/);

    const list = await runLeadbase(['jobs', 'counted-terms', '--json'], env);
    assert.equal(list.status, 0, list.stderr);
    const [term, ...rest] = JSON.parse(list.stdout).counted_terms;
    assert.deepEqual(rest, []);
    assert.equal(term.term, 'month end close');
    assert.equal(term.listings, 10, 'every third of 30 listings holds it');
    assert.ok(Math.abs(Date.parse(term.counted_since) - Date.now()) < 120_000);

    const text = await runLeadbase(['jobs', 'counted-terms'], env);
    assert.match(text.stdout, /1 of at most 1000 description terms counted/);
    assert.match(text.stdout, /month end close/);
  });

  it('refuses what is not a word, pair or triple, with a non-zero exit', async () => {
    const long = await runLeadbase(['jobs', 'count-term', 'month', 'end', 'close', 'process'], env);
    assert.notEqual(long.status, 0);
    assert.match(long.stderr, /one word or a phrase of up to three words/);
    const empty = await runLeadbase(['jobs', 'count-term', '--', '-'], env);
    assert.notEqual(empty.status, 0);
  });
});
