// PostgreSQL's job_terms is partitioned by listing id (migration 0033, src/jobs/terms-partitions.ts):
// imports add partitions ahead of the ids, searches find listings in every partition exactly as
// SQLite does, several instances adding partitions at once agree, and an import moves its pending
// terms into the indexes as it goes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { CompanyService } from '../../src/companies/service.ts';
import { JobService } from '../../src/jobs/service.ts';
import { ensureTermsPartitions, TERMS_PARTITION_IDS } from '../../src/jobs/terms-partitions.ts';
import type { BoardInput } from '../../src/jobs/importer.ts';
import { generateBoards } from '../../bench/support/jobs-generator.ts';
import { openPostgres, openSqlite, PG_SKIP, reopen, type TestDatabase } from '../support/db.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');

function boards(seed: number, listings = 300): BoardInput[] {
  return [...generateBoards({ listings, companies: 6, now: NOW, seed })].map((b) => ({
    source: b.source,
    board: `${b.board}-${seed}`,
    listings: b.listings,
  }));
}

async function partitions(t: TestDatabase): Promise<{ name: string; bound: string }[]> {
  const { rows } = await sql<{ name: string; bound: string }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'job_terms'::regclass order by c.relname`.execute(t.db);
  return rows;
}

/** Moves the ids the next listing takes past `id`. */
async function skipIdsTo(t: TestDatabase, id: number): Promise<void> {
  await sql`select setval(pg_get_serial_sequence('jobs', 'id'), ${id})`.execute(t.db);
}

const QUERIES = [
  { job_description: 'kubernetes', posted_within: 365 },
  { job_description: '"machine learning"', posted_within: 365 },
  { job_description: '"security clearance"' },
  { job_description: 'experience -react', country_id: 'US' },
];

describe('job_terms partitions (postgres)', { skip: PG_SKIP }, () => {
  let pgStore: TestDatabase;
  let sqliteStore: TestDatabase;
  const service = (db: TestDatabase) => new JobService({ db: db.db, companies: new CompanyService({ db: db.db }), workerAfter: Infinity });

  before(async () => {
    pgStore = await openPostgres();
    sqliteStore = await openSqlite();
  });
  after(async () => {
    await pgStore?.destroy();
    await sqliteStore?.destroy();
  });

  it('adds partitions ahead of the ids, and searches find listings in every partition', async () => {
    const pg = service(pgStore);
    const sqlite = service(sqliteStore);
    try {
      assert.deepEqual(await partitions(pgStore), [{ name: 'job_terms_p0', bound: "FOR VALUES FROM ('0') TO ('1000000')" }]);
      for (const jobs of [pg, sqlite]) await jobs.importer.importBoards(boards(1), { now: NOW });
      // The next listings take ids past two partitions' worth: the import adds the partitions first.
      await skipIdsTo(pgStore, 2 * TERMS_PARTITION_IDS + 700_000);
      for (const jobs of [pg, sqlite]) await jobs.importer.importBoards(boards(2), { now: NOW });
      assert.deepEqual(
        (await partitions(pgStore)).map((p) => p.name),
        ['job_terms_p0', 'job_terms_p1', 'job_terms_p2', 'job_terms_p3'],
      );
      const { rows } = await sql<{ part: string; n: string }>`
        select tableoid::regclass::text as part, count(*) as n from job_terms group by 1 order by 1`.execute(pgStore.db);
      assert.deepEqual(
        rows.map((r) => [r.part, Number(r.n) > 0]),
        [
          ['job_terms_p0', true],
          ['job_terms_p2', true],
        ],
      );
      let found = 0;
      for (const body of QUERIES) {
        const [a, b] = await Promise.all(
          [sqlite, pg].map(async (jobs) => {
            const r = await jobs.search({ ...body, per_page: 50 }, NOW);
            return { total: r.total_count, urls: r.results.map((j) => j.application_url) };
          }),
        );
        assert.deepEqual(b, a, JSON.stringify(body));
        found += a.total;
      }
      assert.ok(found > 0);
    } finally {
      await pg.close();
      await sqlite.close();
    }
  });

  it('agrees when several instances add partitions at once', async () => {
    await skipIdsTo(pgStore, 6 * TERMS_PARTITION_IDS + 600_000);
    const other = reopen(pgStore);
    try {
      await Promise.all([ensureTermsPartitions(pgStore.db), ensureTermsPartitions(other.db), ensureTermsPartitions(pgStore.db)]);
    } finally {
      await other.destroy();
    }
    // Contiguous, and reaching half a partition past the last id: up to 8,000,000.
    assert.deepEqual((await partitions(pgStore)).map((p) => p.name).sort(), Array.from({ length: 8 }, (_, i) => `job_terms_p${i}`).sort());
  });

  it('an import moves its pending terms into the indexes as it goes', async (t) => {
    try {
      await sql`create extension if not exists pgstattuple with schema public`.execute(pgStore.db);
    } catch (error) {
      // Another test file may be creating it at this moment; it is there if that one did.
      if (!/already exists|duplicate key/.test(String(error))) return t.skip('pgstattuple is not available on this server');
    }
    const pending = async () =>
      Number(
        (
          await sql<{ pages: string }>`select coalesce(sum((public.pgstatginindex(i.inhrelid)).pending_pages), 0) as pages
            from pg_inherits i where i.inhparent = 'job_terms_terms'::regclass`.execute(pgStore.db)
        ).rows[0].pages,
      );
    // The pending pages after each group of an import of 1,200 listings (6 boards, 200 a group).
    const observe = async (seed: number, termsMoveEvery: number) => {
      const observed: number[] = [];
      const jobs = service(pgStore);
      try {
        await jobs.importer.importBoards(boards(seed, 1_200), {
          now: NOW,
          groupSize: 100,
          termsMoveEvery,
          onGroup: async () => void observed.push(await pending()),
        });
      } finally {
        await jobs.close();
      }
      return observed;
    };
    // Without a move until its end, the list holds every listing's terms after the last group.
    const unmoved = await observe(6, 1_000_000);
    const whole = unmoved[unmoved.length - 1];
    assert.equal(await pending(), 0, 'the end of an import moves the rest');
    // Moved every 300 listings, beside the writes that follow: the list never gets near that.
    const moved = await observe(7, 300);
    assert.ok(Math.max(...moved) < whole * 0.75, `pending pages after each group: ${moved.join(',')}; without moves ${whole} at the end`);
    assert.equal(await pending(), 0);
  });
});
