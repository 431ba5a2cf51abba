import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.ts';

// A product bulk job's progress samples (docs/bulk.md, "Metrics"): its processed count at an
// instant, written by its runs at most every few seconds and pruned after a few minutes, so that
// GET /bulk/{id}/metrics can tell the rows per second over the last minute on any instance.
export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'bulk_job_progress')
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('processed', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bulk_job_progress_job').on('bulk_job_progress').columns(['job_id', 'at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bulk_job_progress').execute();
}
