// Whether a database has every migration applied, told by one query on Kysely's own table instead
// of loading the migration modules (each carries its SQL and data: loading them all is most of a
// short command's start-up). A database this cannot call current goes through migrateToLatest,
// so a stale LATEST_MIGRATION costs time, never correctness; test/db/migration-state.test.ts
// keeps it equal to the last migration of src/db/migrate.ts.
import { sql } from 'kysely';
import type { Db } from './database.ts';

/** The newest migration's name; migrations are numbered from 0001 without gaps. */
export const LATEST_MIGRATION = '0036_job_facet_attr_days_together';

/** True when every migration up to LATEST_MIGRATION, and none after, is recorded as applied. */
export async function migrationsCurrent(db: Db): Promise<boolean> {
  try {
    const { rows } = await sql<{ n: number | string; latest: string | null }>`
      select count(*) as n, max(name) as latest from kysely_migration`.execute(db);
    return Number(rows[0]?.n) === Number.parseInt(LATEST_MIGRATION, 10) && rows[0]?.latest === LATEST_MIGRATION;
  } catch {
    return false; // no migration table yet (a new database), or it cannot be read: migrate
  }
}
