// The one-query migration check that lets short commands skip loading the migrations.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/db/database.ts';
import { migrations, migrateToLatest } from '../../src/db/migrate.ts';
import { LATEST_MIGRATION, migrationsCurrent } from '../../src/db/migration-state.ts';

describe('migration state', () => {
  it('names the last migration, numbered without gaps', () => {
    const names = Object.keys(migrations);
    assert.equal(LATEST_MIGRATION, names.at(-1), 'a new migration updates LATEST_MIGRATION (else every command loads the migrations)');
    assert.equal(names.length, Number.parseInt(LATEST_MIGRATION, 10));
  });

  it('is false on a new or partly migrated database and true once every migration is applied', async () => {
    const handle = openDatabase('sqlite::memory:');
    try {
      assert.equal(await migrationsCurrent(handle.db), false);
      await migrateToLatest(handle.db);
      assert.equal(await migrationsCurrent(handle.db), true);
      await handle.db
        .deleteFrom('kysely_migration' as never)
        .where('name' as never, '=', LATEST_MIGRATION as never)
        .execute();
      assert.equal(await migrationsCurrent(handle.db), false);
    } finally {
      await handle.close();
    }
  });
});
