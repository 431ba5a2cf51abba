// Two connections on one SQLite file, as two processes would hold them: a transaction that read
// before the other connection committed, then writes, gets SQLITE_BUSY_SNAPSHOT at once. That code
// is a lock like SQLITE_BUSY (waited out by importers), and our transactions begin IMMEDIATE, so
// they hold the write lock from their first statement and never meet it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { isLockedOrUnavailable, retryWhileUnavailable } from '../../src/db/retry.ts';

describe('SQLite locks between processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-locking-'));
  const path = join(dir, 'db.sqlite');
  let handle: DatabaseHandle;
  let other: SQLite.Database;

  before(async () => {
    handle = openDatabase(`sqlite:${path}`, { busyTimeoutMs: 0 });
    await sql`create table counters (id integer primary key, n integer not null)`.execute(handle.db);
    await sql`insert into counters (id, n) values (1, 0)`.execute(handle.db);
    other = new SQLite(path);
    other.pragma('busy_timeout = 0');
  });
  after(async () => {
    if (other.inTransaction) other.exec('rollback');
    other.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** SQLITE_BUSY_SNAPSHOT, produced by SQLite itself: a deferred transaction reads, another commits, it writes. */
  function busySnapshot(): unknown {
    const stale = new SQLite(path);
    try {
      stale.exec('begin');
      stale.prepare('select n from counters where id = 1').get();
      other.prepare('update counters set n = n + 1 where id = 1').run();
      stale.prepare('update counters set n = n + 10 where id = 1').run();
      return undefined;
    } catch (error) {
      return error;
    } finally {
      if (stale.inTransaction) stale.exec('rollback');
      stale.close();
    }
  }

  it('recognises every busy and locked code as a lock', () => {
    const error = busySnapshot();
    assert.equal((error as { code?: string }).code, 'SQLITE_BUSY_SNAPSHOT');
    assert.ok(isLockedOrUnavailable(error));
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_RECOVERY', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_LOCKED', 'SQLITE_LOCKED_SHAREDCACHE']) {
      assert.ok(isLockedOrUnavailable(Object.assign(new Error('database is locked'), { code })), code);
    }
    assert.ok(isLockedOrUnavailable(new Error('batch failed', { cause: error })), 'a wrapped lock is a lock');
    assert.ok(!isLockedOrUnavailable(Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })));
  });

  it('waits out SQLITE_BUSY_SNAPSHOT like any lock', async () => {
    let attempts = 0;
    const result = await retryWhileUnavailable(
      async () => {
        attempts += 1;
        if (attempts < 3) throw busySnapshot();
        return 'written';
      },
      { maxWaitMs: 5000, firstDelayMs: 5, maxDelayMs: 20 },
    );
    assert.equal(result, 'written');
    assert.equal(attempts, 3);
  });

  it('begins transactions IMMEDIATE: the write lock is held from the first statement, a read-only one leaves it', async () => {
    let otherCouldWrite: boolean | undefined;
    await handle.db.transaction().execute(async (trx) => {
      await sql`select n from counters where id = 1`.execute(trx);
      try {
        other.prepare('update counters set n = n + 1 where id = 1').run();
        otherCouldWrite = true;
      } catch (error) {
        assert.equal((error as { code?: string }).code, 'SQLITE_BUSY');
        otherCouldWrite = false;
      }
      // The other connection's commit (had it been allowed) would make this write SQLITE_BUSY_SNAPSHOT.
      await sql`update counters set n = n + 10 where id = 1`.execute(trx);
    });
    assert.equal(otherCouldWrite, false, 'another connection cannot write while our transaction is open');

    await handle.db
      .transaction()
      .setAccessMode('read only')
      .execute(async (trx) => {
        await sql`select n from counters where id = 1`.execute(trx);
        other.prepare('update counters set n = n + 1 where id = 1').run();
      });
  });
});
