import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.ts';

// The life of bulk jobs (docs/bulk.md, "Life of a job"): a product job's callback URL, why a job
// failed (both kinds of job), and a product job's history of events (created, started, paused and
// why, resumed, restarted, done, failed, cancelled), each with the job's figures at that instant.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bulk_jobs').addColumn('callback_url', 'text').execute();
  await db.schema.alterTable('bulk_jobs').addColumn('results_url', 'text').execute();
  await db.schema.alterTable('bulk_jobs').addColumn('failure', 'text').execute();
  await db.schema.alterTable('email_bulk_jobs').addColumn('failure', 'text').execute();
  await createTableWithId(db, 'bulk_job_events')
    .addColumn('job_id', 'text', (c) => c.notNull())
    // created | started | paused | resumed | restarted | done | failed | cancelled
    .addColumn('kind', 'text', (c) => c.notNull())
    // paused: credits | spend_cap | owner; failed: the error
    .addColumn('reason', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('processed', 'integer', (c) => c.notNull())
    .addColumn('found', 'integer', (c) => c.notNull())
    .addColumn('credits_consumed', 'bigint', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bulk_job_events_job').on('bulk_job_events').columns(['job_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bulk_job_events').execute();
  await db.schema.alterTable('email_bulk_jobs').dropColumn('failure').execute();
  await db.schema.alterTable('bulk_jobs').dropColumn('failure').execute();
  await db.schema.alterTable('bulk_jobs').dropColumn('results_url').execute();
  await db.schema.alterTable('bulk_jobs').dropColumn('callback_url').execute();
}
