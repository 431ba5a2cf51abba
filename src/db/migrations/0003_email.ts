import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.ts';

// The email domain: delivery evidence per address and greylist re-checks (src/email/tables.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('email_engagement')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('delivered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hard_bounced', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_at', 'bigint', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_engagement_domain').on('email_engagement').column('domain').execute();

  // One row per provider event, so a webhook retried by its sender is counted once.
  await createTableWithId(db, 'email_engagement_events')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('email_engagement_events_source_event', ['source', 'event_id'])
    .execute();

  await db.schema
    .createTable('email_rechecks')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('result_json', 'text')
    .addColumn('checked_at', 'bigint')
    .execute();
  await db.schema.createIndex('email_rechecks_due').on('email_rechecks').columns(['state', 'due_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_rechecks').ifExists().execute();
  await db.schema.dropTable('email_engagement_events').ifExists().execute();
  await db.schema.dropTable('email_engagement').ifExists().execute();
}
