import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.ts';

// What operators did through the admin API and the console: who, what, on what, when. Rows are
// only ever added. Read newest first (the primary key's order), so no other index is needed.
export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'audit_log')
    .addColumn('at', 'bigint', (c) => c.notNull())
    // "operator (console)" or "operator (admin token)", with the caller's address.
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    // The call, as "POST /admin/keys/:id/credits".
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    // JSON of what was asked (secrets left out) and the answer's status.
    .addColumn('detail', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
