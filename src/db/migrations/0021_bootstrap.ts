import type { Kysely } from 'kysely';

// A source's base_url replaces its upstream's origin (a mirror, a local copy). When the operator
// named it (`sources add --base-url`, `bootstrap --mirror`, a sources list, the admin API), its
// origin may be on a private or loopback address: that is what a mirror of an air-gapped install
// is. A base_url found by discovery on a company's site never may. 1 marks the operator's. And the
// company sites `leadbase bootstrap` read for job boards (site_discoveries).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sources')
    .addColumn('operator_base_url', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Company sites bootstrap's discovery has read, so that a second run goes on with the next ones.
  await db.schema
    .createTable('site_discoveries')
    .addColumn('domain', 'text', (c) => c.primaryKey())
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    // Sources registered from what the site showed.
    .addColumn('found', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('site_discoveries').execute();
  await db.schema.alterTable('sources').dropColumn('operator_base_url').execute();
}
