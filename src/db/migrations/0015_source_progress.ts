import type { Kysely } from 'kysely';

// A data-set source is read in parts (a quarter's file, a page of a query, a monthly file). Each
// part that was stored whole is written down, so a run that was interrupted resumes where it
// stopped and a later run skips what it already holds.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('source_parts')
    .addColumn('source_id', 'bigint', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'bigint', (c) => c.notNull())
    // What storing the part counted, JSON (read, inserted, updated, refused …).
    .addColumn('counts', 'text')
    .addPrimaryKeyConstraint('source_parts_pk', ['source_id', 'part'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('source_parts').execute();
}
