// Hot point queries built once: on SQLite, building a query through Kysely costs more than running
// it, so the SQL text is compiled at start-up and only the parameters change per call. On a SQLite
// file they run on the read-only connection, synchronously: no wait behind a transaction.
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import { sqliteReaderOf } from './database.ts';

export class PreparedQuery<R> {
  private readonly sql: string;

  /**
   * `query` is built with placeholder values where the parameters go; `parameterCount` says how
   * many, so a change to the query that moves them fails at start-up rather than at the first call.
   */
  constructor(
    private readonly db: Kysely<any>,
    query: Compilable<R>,
    private readonly parameterCount: number,
  ) {
    const compiled = query.compile();
    if (compiled.parameters.length !== parameterCount) {
      throw new Error(`prepared query takes ${compiled.parameters.length} parameters, not ${parameterCount}: ${compiled.sql}`);
    }
    this.sql = compiled.sql;
  }

  async rows(parameters: unknown[]): Promise<R[]> {
    if (parameters.length !== this.parameterCount)
      throw new Error(`prepared query called with ${parameters.length} parameters, not ${this.parameterCount}`);
    const reader = sqliteReaderOf(this.db);
    if (reader) return reader.prepare(this.sql).all(parameters) as R[];
    return (await this.db.executeQuery<R>(CompiledQuery.raw(this.sql, parameters))).rows;
  }
}
