import type { Kysely } from 'kysely';

// The request that holds an in-flight Idempotency-Key record writes a token of its own here and
// renews a short lease while it runs. A retry may take the record over once the lease lapses (its
// instance died); the token then changes, so the first request, if it was only slow, can no
// longer complete the record or charge for it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_records').addColumn('owner', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_records').dropColumn('owner').execute();
}
