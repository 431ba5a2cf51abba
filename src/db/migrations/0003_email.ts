import type { Kysely } from 'kysely';

// Owned by its domain; see docs/architecture.md for column conventions.
export async function up(_db: Kysely<any>): Promise<void> {}

export async function down(_db: Kysely<any>): Promise<void> {}
