import type { Kysely } from 'kysely';
import { createTableWithId } from './helpers.ts';

// The sources registry (docs/sources.md): what is fetched on a schedule, each run's history, and
// the per-host politeness shared by every instance.
export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'sources')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('locator', 'text', (c) => c.notNull())
    // The locator as compared: adding the same source twice finds the first.
    .addColumn('locator_key', 'text', (c) => c.notNull())
    .addColumn('base_url', 'text')
    .addColumn('company_id', 'bigint')
    .addColumn('company_name', 'text')
    .addColumn('company_website', 'text')
    .addColumn('interval_ms', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_reason', 'text')
    .addColumn('next_run_at', 'bigint', (c) => c.notNull())
    // A run's claim: the instance holding claim_token runs the source until claimed_until (renewed while it runs).
    .addColumn('claim_token', 'text')
    .addColumn('claimed_until', 'bigint')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('last_success_at', 'bigint')
    .addColumn('last_change_at', 'bigint')
    .addColumn('validator_url', 'text')
    .addColumn('etag', 'text')
    .addColumn('last_modified', 'text')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_counts', 'text')
    .addColumn('discovered_from', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sources_identity').on('sources').columns(['type', 'locator_key']).unique().execute();
  await db.schema.createIndex('sources_due').on('sources').columns(['status', 'next_run_at']).execute();
  await db.schema.createIndex('sources_company').on('sources').column('company_id').execute();
  await createTableWithId(db, 'source_runs')
    .addColumn('source_id', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('inserted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expired', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('source_runs_source').on('source_runs').columns(['source_id', 'started_at']).execute();
  await db.schema
    .createTable('crawl_hosts')
    .addColumn('host', 'text', (c) => c.primaryKey())
    // One fetch at a time per host across instances: held until busy_until, then not before next_fetch_at.
    .addColumn('busy_until', 'bigint', (c) => c.notNull())
    .addColumn('next_fetch_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('crawl_hosts').execute();
  await db.schema.dropTable('source_runs').execute();
  await db.schema.dropTable('sources').execute();
}
