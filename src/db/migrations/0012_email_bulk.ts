import type { Kysely } from 'kysely';

// Bulk validation jobs (docs/email.md, "Bulk lists"): one row per job, one row per distinct address
// of its list. An address's result is stored as soon as it is known and served once it is charged.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('email_bulk_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('duplicates', 'integer', (c) => c.notNull())
    .addColumn('refused', 'integer', (c) => c.notNull())
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('counts', 'text', (c) => c.notNull())
    .addColumn('credits_consumed', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('columns', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('results_url', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('email_bulk_jobs_key').on('email_bulk_jobs').columns(['key_id', 'created_at']).execute();
  await db.schema
    .createTable('email_bulk_items')
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    // A greylisted address is asked again at this instant, within the job's greylist deadline.
    .addColumn('retry_at', 'bigint')
    .addColumn('cost', 'integer')
    .addColumn('charged', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('email_bulk_items_pk', ['job_id', 'seq'])
    .execute();
  // Signs the completion webhooks of the key's jobs; made on first use.
  await db.schema.alterTable('api_keys').addColumn('webhook_secret', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('webhook_secret').execute();
  await db.schema.dropTable('email_bulk_items').execute();
  await db.schema.dropTable('email_bulk_jobs').execute();
}
