// The import's write paths (array parameters, binary tsvectors on PostgreSQL, import-only settings):
// a re-import of the same boards changes nothing; rewrites and expiries leave exactly the index a
// fresh import of what is left would build.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { CompanyService } from '../../src/companies/service.ts';
import { JobService } from '../../src/jobs/service.ts';
import type { BoardInput } from '../../src/jobs/importer.ts';
import { generateBoards } from '../../bench/support/jobs-generator.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;

function boards(): BoardInput[] {
  return [...generateBoards({ listings: 1_200, companies: 24, now: NOW, seed: 29 })].map((b) => ({
    source: b.source,
    board: b.board,
    listings: b.listings,
  }));
}

/** The second import: a tenth of the listings rewritten, every board's last three postings gone. */
function changed(input: BoardInput[]): BoardInput[] {
  return input.map((b) => ({
    ...b,
    listings: b.listings
      .slice(0, Math.max(1, b.listings.length - 3))
      .map((l, i) =>
        i % 10 ? l : { ...l, title: `${l.title} II`, descriptionHtml: `<p>Rewritten: kubernetes and payroll.</p>${l.descriptionHtml}` },
      ),
  }));
}

/** Everything the import writes, listings named by source id and companies by domain (ids differ between stores). */
async function written(t: TestDatabase, { withTimes }: { withTimes: boolean }): Promise<Record<string, string>> {
  const rows = async (text: string) => (await sql.raw(text).execute(t.db)).rows;
  const company = `(select domain from companies c where c.id = j.company_id)`;
  const facet = `case when f.facet like 'co:%' then 'co:' || (select domain from companies c where 'co:' || c.id = f.facet) else f.facet end`;
  const parts: Record<string, unknown> = {
    jobs: await rows(
      `select source, board, source_id, ${company} as company, title, description, content_hash, expired${withTimes ? ', last_seen_at, expired_at' : ''} from jobs j order by source, board, source_id`,
    ),
    facets: await rows(
      `select ${facet} as facet, f.has_remote, f.published_at, j.source_id, f.attrs, f.countries from job_facets f join jobs j on j.id = f.job_id order by 1, 2, 3, 4`,
    ),
    live: await rows(
      'select j.source_id, l.has_remote, l.published_at, l.attrs, l.countries from job_live l join jobs j on j.id = l.job_id order by 1',
    ),
    days: await rows("select facet, has_remote, day, n from job_facet_days where n <> 0 and facet not like 'co:%' order by 1, 2, 3"),
    technologies: await rows(
      `select ${company} as company, t.published_at, j.source_id, t.technology from job_technologies t join jobs j on j.id = t.job_id where j.expired = 0 order by 3, 4`,
    ),
    staged: await rows('select count(*) as n from job_facets_staged'),
  };
  if (t.dialect === 'postgres')
    parts.terms = await rows(
      'select j.source_id, t.has_remote, t.published_at, t.attrs, t.countries, t.terms::text as terms, pg_column_size(t.terms) as size from job_terms t join jobs j on j.id = t.job_id order by 1',
    );
  return Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, JSON.stringify(v)]));
}

function assertSame(actual: Record<string, string>, expected: Record<string, string>, skip: string[] = []): void {
  for (const key of Object.keys(expected)) {
    if (skip.includes(key)) continue;
    assert.ok(actual[key] === expected[key], `${key} differs`);
  }
}

for (const target of dbTargets) {
  describe(`import writes (${target.name})`, { skip: target.skip }, () => {
    let store: TestDatabase;
    let fresh: TestDatabase;
    const service = (db: TestDatabase) =>
      new JobService({ db: db.db, companies: new CompanyService({ db: db.db }), workerAfter: Infinity });
    before(async () => {
      store = await target.open();
      fresh = await target.open();
    });
    after(async () => {
      await store?.destroy();
      await fresh?.destroy();
    });

    it('a re-import of the same boards changes nothing but the time they were seen', async () => {
      const jobs = service(store);
      const first = await jobs.importer.importBoards(boards(), { now: NOW, groupSize: 500 });
      assert.equal(
        first.reduce((n, s) => n + s.inserted, 0),
        1_200,
      );
      const before = await written(store, { withTimes: false });
      const again = await jobs.importer.importBoards(boards(), { now: NOW + DAY, groupSize: 500 });
      assert.deepEqual(
        again.map((s) => [s.inserted, s.updated, s.expired ?? 0]),
        again.map(() => [0, 0, 0]),
      );
      assert.equal(
        again.reduce((n, s) => n + s.unchanged, 0),
        1_200,
      );
      assertSame(await written(store, { withTimes: false }), before);
      const seen = await sql<{ n: number | string }>`select count(*) as n from jobs where last_seen_at = ${NOW + DAY}`.execute(store.db);
      assert.equal(Number(seen.rows[0].n), 1_200);
    });

    it('rewrites and expiries leave the index a fresh import of the remaining listings builds', async () => {
      const jobs = service(store);
      const next = changed(boards());
      const summaries = await jobs.importer.importBoards(next, { now: NOW + 2 * DAY, groupSize: 500 });
      assert.equal(
        summaries.reduce((n, s) => n + (s.expired ?? 0), 0),
        boards().reduce((n, b) => n + Math.min(3, b.listings.length - 1), 0),
      );
      assert.ok(summaries.reduce((n, s) => n + s.updated, 0) > 100);
      await service(fresh).importer.importBoards(next, { now: NOW + 2 * DAY, groupSize: 500 });
      // The stores differ in their expired listings (kept, not indexed) and in the day counts'
      // history of companies; every index of live listings is the same.
      assertSame(await written(store, { withTimes: false }), await written(fresh, { withTimes: false }), ['jobs']);
    });

    if (target.name === 'postgres')
      it('leaves no import setting on the connections and nothing in the terms index pending list', async () => {
        for (let i = 0; i < 4; i++) {
          const { rows } = await sql<{
            sync: string;
            mem: string;
            maintenance: string;
          }>`select current_setting('synchronous_commit') as sync, current_setting('gin_pending_list_limit') as mem,
               current_setting('maintenance_work_mem') as maintenance`.execute(store.db);
          assert.equal(rows[0].sync, 'on');
          assert.notEqual(rows[0].mem, '1GB');
          assert.notEqual(rows[0].maintenance, '256MB');
        }
        const { rows } = await sql<{ pages: number | string }>`
          select gin_clean_pending_list(i.inhrelid) as pages from pg_inherits i where i.inhparent = 'job_terms_terms'::regclass`.execute(
          store.db,
        );
        assert.ok(rows.length >= 1);
        for (const row of rows) assert.equal(Number(row.pages), 0);
      });
  });
}
