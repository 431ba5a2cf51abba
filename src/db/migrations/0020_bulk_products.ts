import type { Kysely } from 'kysely';

// Bulk jobs of every product (docs/bulk.md): one row per job, naming the product and the operation
// whose price rule charges each row, and one row per submitted row, its answer stored as soon as it
// is known and served once it is charged. A row that cannot be read is stored with its reason.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bulk_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'integer', (c) => c.notNull())
    .addColumn('product', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('refused', 'integer', (c) => c.notNull())
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('found', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_consumed', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refusals', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('bulk_jobs_key').on('bulk_jobs').columns(['key_id', 'created_at']).execute();
  await db.schema
    .createTable('bulk_rows')
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    // The answer (JSON, without credits_consumed) once known, or the reason the row was refused.
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('found', 'integer')
    .addColumn('cost', 'integer')
    .addColumn('charged', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('bulk_rows_pk', ['job_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bulk_rows').execute();
  await db.schema.dropTable('bulk_jobs').execute();
}
