import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.ts';

// How companies relate to other companies: the company's parent, its subsidiaries, and the
// companies it acquired, each as a source states it (Wikidata: P749 parent organization, P355 has
// subsidiary, P1830 owner of with a start time). The other company is named (and identified by its
// Wikidata item when the source gives one), whether or not it is in the store; `since` is when the
// relation began, when the source says.
export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'company_relations')
    .addColumn('company_id', 'bigint', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('relation', 'text', (c) => c.notNull())
    .addColumn('company_name', 'text', (c) => c.notNull())
    .addColumn('normalized_name', 'text', (c) => c.notNull())
    .addColumn('wikidata_id', 'text')
    .addColumn('since', 'bigint')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('company_relations_key')
    .on('company_relations')
    .columns(['company_id', 'relation', 'normalized_name'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('company_relations').execute();
}
