// Importers beside a busy server: another connection holds SQLite's write lock longer than the
// importer's busy timeout. A locked database is never a rejection of the rows: the importer waits
// (bounded backoff) and writes everything once the lock is released; if it never is, it stops with
// ImportStoppedError (or a non-zero exit from the CLI) saying how far it got, and a re-run resumes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { runCompanyImport, type SourceRecord } from '../../src/ingest/companies/runner.ts';
import { runPeopleImport, type PersonSourceRecord } from '../../src/ingest/people/runner.ts';
import { importEngagementCsv } from '../../src/ingest/engagement/csv.ts';
import { EngagementStore } from '../../src/email/engagement.ts';
import { JobService } from '../../src/jobs/service.ts';
import { ImportStoppedError } from '../../src/platform/import-summary.ts';
import { runLeadbase } from '../support/cli.ts';
import { seedListings } from '../support/listings.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { KeyService } from '../../src/keys/service.ts';

const ROWS = 60;
const FAST_RETRY = { maxWaitMs: 8000, firstDelayMs: 20, maxDelayMs: 200 };
const GIVE_UP_SOON = { maxWaitMs: 300, firstDelayMs: 20, maxDelayMs: 100 };

async function* companies(): AsyncIterable<SourceRecord> {
  for (let i = 0; i < ROWS; i++) yield { line: i + 1, input: { name: `Locked Co ${i}`, domain: `locked-${i}.test` } };
}
async function* people(): AsyncIterable<PersonSourceRecord> {
  for (let i = 0; i < ROWS; i++) {
    yield {
      line: i + 1,
      input: { id: `p${i}`, full_name: `Person Number${i}`, positions: [{ title: 'Engineer', company_name: `Locked Co ${i}` }] },
    };
  }
}

describe('imports while another process holds the SQLite write lock', { timeout: 180_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-lock-'));
  const path = join(dir, 'db.sqlite');
  let handle: DatabaseHandle;
  let locker: SQLite.Database;

  before(async () => {
    handle = openDatabase(`sqlite:${path}`, { busyTimeoutMs: 50 });
    await migrateToLatest(handle.db);
    locker = new SQLite(path);
  });
  after(async () => {
    if (locker.inTransaction) locker.exec('rollback');
    locker.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Holds the write lock now; releases it after `ms` (or never, until release() is called). */
  function lock(ms?: number): { release(): void } {
    locker.exec('begin immediate');
    const release = () => {
      if (locker.inTransaction) locker.exec('rollback');
    };
    if (ms !== undefined) setTimeout(release, ms);
    return { release };
  }

  const count = async (table: 'companies' | 'people') =>
    Number(
      (
        await handle.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('companies: a lock held 1 s costs no row', async () => {
    lock(1000);
    const summary = await runCompanyImport({
      service: new CompanyService({ db: handle.db }),
      source: 'jsonl',
      records: companies(),
      batchSize: 20,
      retry: FAST_RETRY,
    });
    assert.equal(summary.rejectedTotal, 0, JSON.stringify(summary.rejected.slice(0, 3)));
    assert.equal(summary.inserted, ROWS);
    assert.equal(await count('companies'), ROWS);
  });

  it('people: a lock held 1 s costs no row', async () => {
    lock(1000);
    const summary = await runPeopleImport({
      db: handle.db,
      companies: new CompanyService({ db: handle.db }),
      source: 'jsonl',
      records: people(),
      batchSize: 20,
      retry: FAST_RETRY,
    });
    assert.equal(summary.rejectedTotal, 0, JSON.stringify(summary.rejected.slice(0, 3)));
    assert.equal(summary.inserted, ROWS);
  });

  it('engagement: a lock held 1 s costs no row', async () => {
    const csv = join(dir, 'events.csv');
    writeFileSync(csv, `email,event,event_id\n${Array.from({ length: ROWS }, (_, i) => `u${i}@locked.test,delivered,e${i}`).join('\n')}\n`);
    lock(1000);
    const summary = await importEngagementCsv(new EngagementStore(handle.db), csv, { batchSize: 20, retry: FAST_RETRY });
    assert.equal(summary.rejectedTotal, 0);
    assert.equal(summary.inserted, ROWS);
  });

  it('jobs: a lock held 1 s costs no posting', async () => {
    const jobs = new JobService({ db: handle.db, companies: new CompanyService({ db: handle.db }) });
    const now = Date.now();
    const listings = Array.from({ length: ROWS }, (_, i) => ({
      sourceId: `L${i}`,
      title: 'Platform Engineer',
      location: 'Austin, TX',
      employmentTypes: ['Full-time'],
      publishedAt: now - i * 60_000,
      descriptionHtml: `<p>Posting ${i}.</p>`,
      applyUrl: `https://jobs.example/l${i}`,
      company: { name: 'Locked Jobs', website: 'https://locked-jobs.example' },
    }));
    lock(1000);
    const summary = await jobs.importer.importBoard(listings, { source: 'greenhouse', board: 'locked', now });
    assert.equal(summary.rejectedTotal, 0);
    assert.equal(summary.inserted, ROWS);
    await jobs.close();
  });

  it('a lock never released: the import stops, says how far it got, and a re-run resumes', async () => {
    const before = await count('companies');
    async function* more(): AsyncIterable<SourceRecord> {
      for (let i = 0; i < ROWS; i++) yield { line: i + 1, input: { name: `Later Co ${i}`, domain: `later-${i}.test` } };
    }
    const held = lock();
    let stopped: ImportStoppedError | undefined;
    try {
      await runCompanyImport({
        service: new CompanyService({ db: handle.db }),
        source: 'jsonl',
        records: more(),
        batchSize: 20,
        retry: GIVE_UP_SOON,
      });
    } catch (error) {
      stopped = error as ImportStoppedError;
    } finally {
      held.release();
    }
    assert.ok(stopped instanceof ImportStoppedError, `stopped with ImportStoppedError, got ${String(stopped)}`);
    assert.equal(stopped.summary.rejectedTotal, 0, 'no row blamed for the lock');
    assert.ok(stopped.summary.notWritten > 0);
    assert.match(stopped.message, /run the same command again to resume/);
    assert.match(stopped.message, /database is locked/);
    assert.equal(stopped.summary.toJSON().not_written, stopped.summary.notWritten);

    const rerun = await runCompanyImport({
      service: new CompanyService({ db: handle.db }),
      source: 'jsonl',
      records: more(),
      batchSize: 20,
      retry: FAST_RETRY,
    });
    assert.equal(rerun.rejectedTotal, 0);
    assert.equal(await count('companies'), before + ROWS);
  });

  it('the CLI exits non-zero with the resume message, and a re-run completes', async () => {
    const file = join(dir, 'cli.jsonl');
    writeFileSync(
      file,
      `${Array.from({ length: ROWS }, (_, i) => JSON.stringify({ name: `Cli Co ${i}`, domain: `cli-${i}.test` })).join('\n')}\n`,
    );
    const env = { ...process.env, DATABASE_URL: `sqlite:${path}`, SQLITE_BUSY_TIMEOUT_MS: '50', IMPORT_LOCK_WAIT_MS: '300' };
    const held = lock();
    let result;
    try {
      result = await runLeadbase(['import', 'companies', 'jsonl', file, '--quiet', '--no-parallel'], env, 90_000);
    } finally {
      held.release();
    }
    assert.notEqual(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stderr, /import stopped after .* run the same command again to resume/);
    assert.match(result.stdout, /rejected 0/);
    const rerun = await runLeadbase(
      ['import', 'companies', 'jsonl', file, '--quiet', '--no-parallel'],
      { ...env, IMPORT_LOCK_WAIT_MS: '5000' },
      90_000,
    );
    assert.equal(rerun.status, 0, rerun.stdout + rerun.stderr);
    assert.match(rerun.stdout, /rejected 0/);
  });
});

// The same file written by two real servers charging keys while the import runs. SQLite answers a
// transaction that read before another process committed and then tries to write with
// SQLITE_BUSY_SNAPSHOT at once (no busy-timeout wait): such an error must be waited out like any
// lock, never turned into rejected rows, and the import must write every row and exit 0.
describe('a SQLite import beside two busy servers', { timeout: 600_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-busy-'));
  const path = join(dir, 'db.sqlite');
  const env = { ...process.env, DATABASE_URL: `sqlite:${path}`, REDIS_URL: '' };
  const COMPANY_ROWS = 30_000;
  let handle: DatabaseHandle;
  let servers: ServerProcess[] = [];
  let key: string;

  before(async () => {
    handle = openDatabase(`sqlite:${path}`);
    await migrateToLatest(handle.db);
    await seedListings(handle.db, { count: 20, word: 'Busy', idPrefix: 'B', board: 'busy' });
    const keys = new KeyService(handle.db);
    const created = await keys.create('busy', 1_000_000_000);
    await keys.setRateLimit(created.id, 'jobs-finder', 1_000_000);
    key = created.key;
    servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes every row and exits 0 while the servers charge keys on the same file', async (t) => {
    const file = join(dir, 'busy.jsonl');
    writeFileSync(
      file,
      `${Array.from({ length: COMPANY_ROWS }, (_, i) => JSON.stringify({ name: `Busy Co ${i}`, domain: `busy-${i}.test` })).join('\n')}\n`,
    );
    const statuses = new Map<number, number>();
    let running = true;
    const hammer = Array.from({ length: 8 }, async (_, i) => {
      while (running) {
        const answer = await fetch(`${servers[i % 2].url}/jobs-finder`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ job_title: 'engineer', per_page: 1 }),
        }).catch(() => undefined);
        await answer?.arrayBuffer();
        statuses.set(answer?.status ?? 0, (statuses.get(answer?.status ?? 0) ?? 0) + 1);
      }
    });
    let result;
    try {
      result = await runLeadbase(['import', 'companies', 'jsonl', file, '--quiet', '--json', '--batch-size', '1000'], env, 400_000);
    } finally {
      running = false;
      await Promise.all(hammer);
    }
    const charged = statuses.get(200) ?? 0;
    t.diagnostic(`server answers while the import ran: ${JSON.stringify(Object.fromEntries(statuses))}`);
    assert.ok(charged > 0, `the servers charged while the import ran: ${JSON.stringify([...statuses])}`);
    assert.equal(result.status, 0, result.stdout.slice(0, 2000) + result.stderr.slice(0, 2000));
    const summary = JSON.parse(result.stdout) as { rejected: number; inserted: number; rejections: { reason: string }[] };
    assert.equal(summary.rejected, 0, JSON.stringify(summary.rejections.slice(0, 3)));
    assert.equal(summary.inserted, COMPANY_ROWS);
    const stored = await handle.db
      .selectFrom('companies')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('name', 'like', 'Busy Co %')
      .executeTakeFirstOrThrow();
    assert.equal(Number(stored.n), COMPANY_ROWS);
    // Charges kept being served: a busy import is waited out by the servers too, never a 500.
    assert.equal(statuses.get(500) ?? 0, 0, JSON.stringify([...statuses]));
  });
});
