import type { Kysely } from 'kysely';

// The embedded job queue (bulk validation jobs, scheduled crawls): one row per job, claimed under a
// lease that lapses when its worker dies.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('queue_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('run_after', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('retry_delay_ms', 'integer', (c) => c.notNull())
    .addColumn('singleton_key', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('queue_jobs_claim').on('queue_jobs').columns(['queue', 'state', 'run_after']).execute();
  await db.schema.createIndex('queue_jobs_singleton').on('queue_jobs').columns(['queue', 'singleton_key']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('queue_jobs').execute();
}
