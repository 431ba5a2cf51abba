// Migrations are frozen: they import nothing of the application, and the one that rebuilds data
// from existing rows (0006, the search index v2) still does so on a database that has listings.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Migrator, sql } from 'kysely';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest, migrations } from '../../src/db/migrate.ts';
import { besideOtherTests, PG_SKIP, POSTGRES_URL } from '../support/db.ts';

const DIR = join(process.cwd(), 'src', 'db', 'migrations');

describe('frozen migrations', () => {
  it('import only kysely and the files of their own folder', () => {
    const offences: string[] = [];
    for (const file of readdirSync(DIR).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(DIR, file), 'utf8');
      for (const [, spec] of text.matchAll(/\b(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        if (spec !== 'kysely' && !/^\.\/[^/]+\.ts$/.test(spec)) offences.push(`${file} imports ${spec}`);
      }
    }
    assert.deepEqual(offences, []);
  });

  const targets = [
    { name: 'sqlite', skip: false as const },
    { name: 'postgres', skip: PG_SKIP },
  ];
  for (const target of targets) {
    it(`0006 rebuilds the index of listings stored before it (${target.name})`, { skip: target.skip }, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'leadbase-frozen-'));
      const schema = `t_${randomBytes(6).toString('hex')}`;
      if (target.name === 'postgres') {
        const admin = new pg.Client({ connectionString: POSTGRES_URL });
        await admin.connect();
        await admin.query(`create schema ${schema}`);
        await admin.end();
      }
      const handle =
        target.name === 'postgres' ? openDatabase(POSTGRES_URL!, { pgSchema: schema }) : openDatabase(`sqlite:${join(dir, 'db.sqlite')}`);
      try {
        const migrator = new Migrator({
          db: handle.db,
          provider: { getMigrations: async () => migrations },
          migrationTableSchema: target.name === 'postgres' ? schema : undefined,
        });
        // The migrator's result carries the error rather than throwing it: throw it, so that a schema
        // dropped by another test file at that moment is retried (besideOtherTests).
        const to5 = await besideOtherTests(schema, async () => {
          const result = await migrator.migrateTo('0005_people');
          if (result.error) throw result.error instanceof Error ? result.error : new Error(String(result.error));
          return result;
        });
        assert.equal(to5.error, undefined);
        const row = (id: number, title: string, expired: number) => ({
          id,
          source: 'greenhouse',
          board: 'b',
          source_id: `s${id}`,
          company_id: null,
          company_name: 'Acme',
          title,
          location: 'Austin, TX',
          has_remote: 0,
          published_at: 1_700_000_000_000 + id * 60_000,
          experience_level: 'senior',
          type_ids: '[1]',
          city_ids: '[]',
          country_codes: '["US"]',
          region_ids: '[5]',
          clearance_required: 0,
          language: 'en',
          salary_min: null,
          salary_max: null,
          salary_currency: null,
          description: `Kubernetes work number ${id}`,
          application_url: 'https://jobs.example/1',
          content_hash: `h${id}`,
          expired,
          first_seen_at: 1,
          last_seen_at: 1,
          expired_at: null,
        });
        await handle.db
          .insertInto('jobs' as never)
          .values([row(1, 'Senior Platform Engineer', 0), row(2, 'Old Role', 1)] as never)
          .execute();
        await besideOtherTests(schema, () => migrateToLatest(handle.db));

        const live = await sql<{ job_id: number; attrs: number; countries: string }>`select job_id, attrs, countries from job_live`.execute(
          handle.db,
        );
        assert.deepEqual(
          live.rows.map((r) => [Number(r.job_id), Number(r.attrs), r.countries]),
          [[1, 1 + 2 ** 24 + 2 ** 42, 'US']],
          'the live listing with its type 1, region 5 and senior bits',
        );
        const pairs = await sql<{
          facet: string;
        }>`select facet from job_facets where job_id = 1 and facet like 'p:%' order by facet`.execute(handle.db);
        assert.deepEqual(
          pairs.rows.map((r) => r.facet),
          ['p:engineer platform', 'p:engineer senior', 'p:platform senior'],
        );
        if (target.name === 'sqlite') {
          const text = await sql<{ n: number }>`select count(*) as n from jobs_fts where jobs_fts match 'kubernetes'`.execute(handle.db);
          assert.equal(Number(text.rows[0].n), 1, 'the full-text index holds the live listing only');
        }
      } finally {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
        if (target.name === 'postgres') {
          const admin = new pg.Client({ connectionString: POSTGRES_URL });
          await admin.connect();
          await admin.query(`drop schema if exists ${schema} cascade`);
          await admin.end();
        }
      }
    });
  }
});
