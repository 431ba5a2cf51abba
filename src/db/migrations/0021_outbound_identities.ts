import type { Kysely } from 'kysely';

// Outbound identities that a mail server refused as a sender (a listed or banned address), and
// until when they are not used there (docs/email.md, "Outbound identities"). Shared by every
// instance on the database and read by `leadbase status`; a row past its `until_at` means nothing.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('email_outbound_quarantines')
    .addColumn('identity', 'text', (c) => c.notNull())
    // '*' (every mail server: the address is on a public blocklist), else a provider or MX host.
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('since_at', 'bigint', (c) => c.notNull())
    .addColumn('until_at', 'bigint', (c) => c.notNull())
    .addColumn('reply', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_outbound_quarantines_pk', ['identity', 'scope'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_outbound_quarantines').ifExists().execute();
}
