import type { Kysely } from 'kysely';

// Probe limits shared by every instance without Redis (docs/email.md, "Safety"): connection slots
// held and tickets in line per limit key, each with an expiry its instance renews, the instances
// alive, and the token buckets of the per-minute budgets.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('probe_leases')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('lease', 'text', (c) => c.notNull())
    // held | waiting | alive (an instance's heartbeat)
    .addColumn('state', 'text', (c) => c.notNull())
    // Place in the key's line (waiting): waiters are served in this order.
    .addColumn('ticket', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('probe_leases_pk', ['key', 'lease'])
    .execute();
  await db.schema.createIndex('probe_leases_lease').on('probe_leases').column('lease').execute();
  await db.schema
    .createTable('probe_buckets')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('tokens', 'double precision', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('probe_buckets').execute();
  await db.schema.dropTable('probe_leases').execute();
}
