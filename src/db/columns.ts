import type { CreateTableBuilder, Kysely } from 'kysely';
import { dialectOf } from './database.ts';

/** Starts a table whose primary key is an auto-incrementing integer `id`, on either dialect. */
export function createTableWithId(db: Kysely<any>, name: string): CreateTableBuilder<string, 'id'> {
  const table = db.schema.createTable(name);
  return dialectOf(db) === 'postgres'
    ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
