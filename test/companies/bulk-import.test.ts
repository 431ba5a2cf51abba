// The fast import path: large batches, prepared single-row statements on SQLite, array literals on
// PostgreSQL, and the primary-domain rule now kept by company_domains alone (migration 0007).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Migration } from 'kysely';
import { dbTargets, reopen, POSTGRES_URL } from '../support/db.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import * as platform from '../../src/db/migrations/0001_platform.ts';
import * as companiesMigration from '../../src/db/migrations/0002_companies.ts';
import * as email from '../../src/db/migrations/0003_email.ts';
import * as jobs from '../../src/db/migrations/0004_jobs.ts';
import * as people from '../../src/db/migrations/0005_people.ts';
import * as jobsSearch from '../../src/db/migrations/0006_jobs_search.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { prepareCompany, type CompanyInput } from '../../src/companies/input.ts';
import { runCompanyImport, type SourceRecord } from '../../src/ingest/companies/runner.ts';

async function* recordsOf(inputs: CompanyInput[]): AsyncIterable<SourceRecord> {
  let line = 0;
  for (const input of inputs) yield { line: ++line, input };
}

for (const target of dbTargets) {
  describe(`company bulk import (${target.name})`, { skip: target.skip }, () => {
    it('stores a large batch with every child row, and a second import of it changes nothing', async () => {
      const t = await target.open();
      try {
        const companies = new CompanyService({ db: t.db });
        const inputs: CompanyInput[] = Array.from({ length: 2500 }, (_, i) => ({
          name: `Bulk ${i} "Quoted" \\ Co`,
          domain: `bulk-${i}.example`,
          domains: [`bulk-${i}.example.org`],
          aliases: [`Bulk Alias ${i}`],
          external_ids: { crm: `B-${i}` },
          industry: 'computer software',
          employee_count: i,
          revenue: i % 2 ? 1_500_000.5 : null,
          location: { locality: 'Berlin', country: 'DE' },
          funding_rounds:
            i % 10 === 0
              ? [{ round: 'Seed', date: '2021-03-01', amount: 1_000_000 + i, investors: ['A, "quoted" fund', 'B\\C'] }]
              : undefined,
        }));
        const first = await runCompanyImport({ service: companies, source: 'jsonl', records: recordsOf(inputs) });
        assert.deepEqual([first.read, first.inserted, first.rejected.length], [2500, 2500, 0]);
        assert.equal(await companies.repository.count(), 2500);

        const c = await companies.findByDomain('bulk-1234.example.org');
        assert.equal(c?.name, 'Bulk 1234 "Quoted" \\ Co');
        assert.equal(c?.domain, 'bulk-1234.example');
        assert.equal(c?.revenue, null);
        assert.equal((await companies.findByDomain('bulk-1235.example'))?.revenue, 1_500_000.5);
        assert.equal((await companies.matchByName('Bulk Alias 1234'))?.id, c?.id);
        assert.equal((await companies.repository.findByExternalId('crm', 'B-1234'))?.id, c?.id);
        const domains = await companies.repository.domainsOf(c.id);
        assert.deepEqual(
          domains.map((d) => [d.domain, d.is_primary]),
          [
            ['bulk-1234.example', 1],
            ['bulk-1234.example.org', 0],
          ],
        );
        const funded = await companies.findByDomain('bulk-2000.example');
        const [round] = await companies.repository.fundingRoundsOf(funded!.id);
        assert.equal(round?.amount, 1_002_000);
        assert.deepEqual(JSON.parse(round.investors), ['A, "quoted" fund', 'B\\C']);

        const again = await runCompanyImport({ service: companies, source: 'jsonl', records: recordsOf(inputs) });
        assert.deepEqual([again.inserted, again.updated, again.unchanged], [0, 0, 2500]);
        assert.equal(await companies.repository.count(), 2500);
      } finally {
        await t.destroy();
      }
    });

    it('a domain that one new company has as primary and another reports as secondary stays the first one’s', async () => {
      const t = await target.open();
      try {
        const companies = new CompanyService({ db: t.db });
        const results = await companies.upsertPrepared(
          [
            prepareCompany({ name: 'Beta', domain: 'beta.example' }),
            prepareCompany({ name: 'Alpha', domain: 'alpha.example' }),
            prepareCompany({ name: 'Alpha', domains: ['alpha.example', 'beta.example'] }),
          ],
          'jsonl',
        );
        assert.deepEqual(
          results.map((r) => r.error),
          [undefined, undefined, undefined],
        );
        const beta = await companies.findByDomain('beta.example');
        assert.equal(beta?.name, 'Beta');
        assert.equal(beta?.domain, 'beta.example');
        assert.equal((await companies.findByDomain('alpha.example'))?.id, results[2].id);
      } finally {
        await t.destroy();
      }
    });

    it('companies.domain is unique only through company_domains (no index of its own)', async () => {
      const t = await target.open();
      try {
        const companies = new CompanyService({ db: t.db });
        const { id } = await companies.upsertCompany({ name: 'Gamma', domain: 'gamma.example' }, 'jsonl');
        // A second company claiming the same primary domain is refused by company_domains.
        await assert.rejects(
          t.db.transaction().execute(async (trx) => {
            const other = await trx
              .insertInto('companies')
              .values({ name: 'Twin', normalized_name: 'twin', domain: 'gamma.example', field_sources: '{}', created_at: 1, updated_at: 1 })
              .returning('id')
              .executeTakeFirstOrThrow();
            await trx
              .insertInto('company_domains')
              .values({ domain: 'gamma.example', company_id: other.id, is_primary: 1, source: 'x', seen_at: 1 })
              .execute();
          }),
        );
        assert.equal((await companies.findByDomain('gamma.example'))?.id, id);
      } finally {
        await t.destroy();
      }
    });
  });
}

describe('migration 0007 on SQLite keeps every company, id counter and foreign key', () => {
  it('rebuilds companies without the unique domain index', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leadbase-0007-'));
    const handle = openDatabase(`sqlite:${join(dir, 'db.sqlite')}`);
    try {
      const before: Record<string, Migration> = {
        '0001_platform': platform,
        '0002_companies': companiesMigration,
        '0003_email': email,
        '0004_jobs': jobs,
        '0005_people': people,
        '0006_jobs_search': jobsSearch,
      };
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => before } });
      const { error } = await migrator.migrateToLatest();
      assert.equal(error, undefined);
      const companies = new CompanyService({ db: handle.db });
      const kept = await companies.upsertCompany(
        { name: 'Kept', domain: 'kept.example', funding_rounds: [{ round: 'Seed', date: '2020-01-01', amount: 5 }] },
        'jsonl',
      );
      const dropped = await companies.upsertCompany({ name: 'Dropped', domain: 'dropped.example' }, 'jsonl');
      await handle.db.deleteFrom('companies').where('id', '=', dropped.id).execute();

      await migrateToLatest(handle.db);
      const indexes = await sql<{ name: string }>`select name from pragma_index_list('companies')`.execute(handle.db);
      assert.deepEqual(indexes.rows.map((r) => r.name).sort(), [
        'companies_country_code',
        'companies_domainless_name',
        'companies_industry',
        'companies_industry_id',
        'companies_normalized_name',
        'companies_peers',
        'companies_prof_url_lower',
        'companies_size_label',
      ]);
      const row = await companies.findByDomain('kept.example');
      assert.equal(row?.id, kept.id);
      assert.equal((await companies.repository.fundingRoundsOf(kept.id)).length, 1);
      // The id of a deleted company is not given again.
      const next = await companies.upsertCompany({ name: 'Next', domain: 'next.example' }, 'jsonl');
      assert.ok(next.id > dropped.id);
      // Child tables still point at the rebuilt table: deleting cascades.
      await handle.db.deleteFrom('companies').where('id', '=', kept.id).execute();
      assert.equal((await companies.repository.fundingRoundsOf(kept.id)).length, 0);
      assert.equal(await companies.findByDomain('kept.example'), null);
      const fk = await sql`pragma foreign_key_check`.execute(handle.db);
      assert.equal(fk.rows.length, 0);
      assert.equal((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(handle.db)).rows[0]?.foreign_keys, 1);
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a primary domain taken by a concurrent import (postgres)', { skip: POSTGRES_URL ? false : 'DATABASE_URL not set' }, () => {
  it('the batch is retried row by row and the report joins the company that won the domain', async () => {
    const t = await dbTargets[1].open();
    const other = reopen(t);
    try {
      const companies = new CompanyService({ db: t.db });
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let inserted!: () => void;
      const holding = new Promise<void>((r) => (inserted = r));
      // Another writer creates the company and its domain, and commits only after our import looked.
      const winner = other.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('companies')
          .values({ name: 'Winner', normalized_name: 'winner', domain: 'race.example', field_sources: '{}', created_at: 1, updated_at: 1 })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('company_domains')
          .values({ domain: 'race.example', company_id: row.id, is_primary: 1, source: 'other', seen_at: 1 })
          .execute();
        inserted();
        await gate;
        return Number(row.id);
      });
      await holding;
      const importing = runCompanyImport({
        service: companies,
        source: 'jsonl',
        records: recordsOf([
          { name: 'Racer', domain: 'race.example' },
          { name: 'Calm', domain: 'calm.example' },
        ]),
      });
      await new Promise((r) => setTimeout(r, 300));
      release();
      const winnerId = await winner;
      const summary = await importing;
      assert.deepEqual([summary.inserted, summary.updated, summary.rejected.length], [1, 1, 0]);
      assert.equal((await companies.findByDomain('race.example'))?.id, winnerId);
      const twins = await t.db.selectFrom('companies').select('id').where('domain', '=', 'race.example').execute();
      assert.deepEqual(
        twins.map((r) => Number(r.id)),
        [winnerId],
      );
    } finally {
      await other.destroy();
      await t.destroy();
    }
  });
});
