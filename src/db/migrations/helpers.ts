// What the migrations share. Migrations are frozen: they import only kysely and the files of this
// folder, so that a later change to the application never changes what an old migration does.
import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Starts a table whose primary key is an auto-incrementing integer `id`, on either dialect. */
export function createTableWithId(db: Kysely<any>, name: string): CreateTableBuilder<string, 'id'> {
  const table = db.schema.createTable(name);
  return isPostgres(db)
    ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
