import type { Kysely } from 'kysely';

// Fair shares in the embedded queue: a job names whose work it is (a bulk list's API key), and a
// worker claims first the due job whose owner has the fewest jobs running, so one key's long list
// cannot hold every worker while another key's list waits (docs/architecture.md, "Background work").
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('queue_jobs').addColumn('fairness_key', 'text').execute();
  await db.schema.createIndex('queue_jobs_fairness').on('queue_jobs').columns(['queue', 'state', 'fairness_key']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('queue_jobs_fairness').execute();
  await db.schema.alterTable('queue_jobs').dropColumn('fairness_key').execute();
}
