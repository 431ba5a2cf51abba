// Every PostgreSQL pool of the process (the application's, the pg-boss queue's) is made here, so each
// has the same bounds: a connection that does not open in time, a query that gets no answer (a
// network partition, a hung proxy: the server may never say anything) and an idle connection all end,
// and a down database is met by the circuit breaker instead of a connection attempt per request.
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { CircuitBreaker } from './breaker.ts';

let pgModule: typeof pg | undefined;

/** The pg driver, loaded on first use: an embedded (SQLite) process never pays for it. */
function loadPg(): typeof pg {
  if (!pgModule) {
    pgModule = createRequire(import.meta.url)('pg') as typeof pg;
    // BIGINT (int8) and NUMERIC come back from pg as strings by default; our bigints are
    // millisecond instants and millicredits, far below 2^53, so numbers are exact.
    pgModule.types.setTypeParser(20, (value) => Number(value));
    pgModule.types.setTypeParser(1700, (value) => Number(value));
  }
  return pgModule;
}

/** Bounds of a PostgreSQL pool (DB_CONNECT_TIMEOUT_MS, DB_QUERY_TIMEOUT_MS, DB_IDLE_TIMEOUT_MS). */
export interface PgTimeouts {
  /** A connection that has not opened in this long fails (the request is answered 503). Default 3000. */
  connectMs?: number;
  /**
   * A query without an answer in this long fails and its connection is dropped (0: no limit, the
   * default; the server and worker set 30 s). Also the server's statement_timeout and
   * idle_in_transaction_session_timeout, so locks of a client that went silent are released.
   */
  queryMs?: number;
  /** An idle pooled connection is closed after this long. Default 30 000. */
  idleMs?: number;
}

export interface PgPoolOptions {
  connectionString: string;
  max: number;
  applicationName: string;
  /** search_path of every connection (tests isolate themselves in a schema of their own). */
  pgSchema?: string;
  timeouts?: PgTimeouts;
  /** Connections are opened through it: refused at once while the database is held to be down. */
  breaker?: CircuitBreaker;
  /** Where a lost connection is reported; without one it is ignored (the pool replaces it). */
  logger?: { warn(details: object, message: string): void };
}

const QUERY_TIMEOUT = 'Query read timeout';

export function createPgPool(options: PgPoolOptions): pg.Pool {
  const connectMs = options.timeouts?.connectMs ?? 3000;
  const queryMs = options.timeouts?.queryMs ?? 0;
  const breaker = options.breaker;
  const pool = new (loadPg().Pool)({
    connectionString: options.connectionString,
    max: options.max,
    application_name: options.applicationName,
    connectionTimeoutMillis: connectMs,
    idleTimeoutMillis: options.timeouts?.idleMs ?? 30_000,
    // A peer that vanished without a word (no FIN, no RST) is found by the kernel's probes.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(queryMs > 0 ? { query_timeout: queryMs, statement_timeout: queryMs, idle_in_transaction_session_timeout: queryMs } : {}),
    ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
  });
  // An idle pooled connection that the server drops (restart, failover, pg_terminate_backend) is
  // emitted here; with no listener Node would end the process. The pool discards that client and
  // opens a new one on demand, so there is nothing else to do.
  // With a breaker, a lost connection is news of the database (a restart, a failover): the breaker
  // checks it with one probe and logs an outage once, instead of a line per pooled connection.
  const connectionLost = (error: Error) => {
    if (breaker) breaker.failed(error);
    else if (error.message !== QUERY_TIMEOUT) {
      options.logger?.warn({ err: { message: error.message, code: (error as { code?: string }).code } }, 'PostgreSQL connection lost');
    }
  };
  pool.on('error', connectionLost);
  const dropConnection = (client: pg.PoolClient) =>
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  const stalls = breaker
    ? new StallWatch({ connectionString: options.connectionString, connectMs, breaker, drop: dropConnection })
    : undefined;
  pool.on('connect', (client) => {
    // A checked-out client has no pool listener: one lost between two queries of a transaction would
    // also end the process. Its next query fails, the request gets 503, and the pool drops the client.
    client.on('error', connectionLost);
    watchQueries(client, stalls, (error) => {
      breaker?.failed(error);
      // The query was sent and nothing came back: the connection is stuck behind it. Dropping it
      // makes the pool discard the client instead of handing it out again.
      dropConnection(client);
    });
  });
  if (stalls) {
    const end = pool.end.bind(pool);
    pool.end = () => {
      stalls.close();
      return end();
    };
  }
  if (!breaker) return pool;
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const guarded = () =>
    breaker.run(async (probe) => {
      const client = await connect();
      if (!probe) return client;
      // A pooled idle connection proves nothing: the probe asks the server, within the connect bound.
      try {
        await client.query({ text: 'select 1', query_timeout: connectMs } as pg.QueryConfig);
        return client;
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
    });
  // pg-pool's own query() calls connect with a callback; Kysely calls it without.
  pool.connect = ((callback?: (error: Error | undefined, client?: pg.PoolClient, done?: (release?: boolean | Error) => void) => void) => {
    const connecting = guarded();
    if (!callback) return connecting;
    connecting.then(
      (client) => callback(undefined, client, (release) => client.release(release)),
      (error: Error) => callback(error),
    );
  }) as typeof pool.connect;
  return pool;
}

/**
 * Tells a stalled database from a slow query. A query without an answer after `connectMs` makes the
 * watch ask the server on a connection of its own (`select 1`, within the connect bound). No answer
 * there either: the database is stalled (a partition, a hung proxy), so the breaker opens and the
 * connections of the queries waiting that long are dropped, each answered 503 within a few seconds
 * rather than after the query bound. An answer: the query is only slow, and is left alone.
 */
class StallWatch {
  private readonly waiting = new Map<pg.PoolClient, number>();
  private timer?: NodeJS.Timeout;
  private checking = false;
  private checkedAt = 0;
  private stalled = false;

  constructor(
    private readonly options: {
      connectionString: string;
      connectMs: number;
      breaker: CircuitBreaker;
      drop: (client: pg.PoolClient) => void;
    },
  ) {}

  started(client: pg.PoolClient): void {
    this.waiting.set(client, Date.now());
    this.timer ??= setInterval(() => void this.look(), Math.min(1000, this.options.connectMs)).unref();
  }

  ended(client: pg.PoolClient): void {
    this.waiting.delete(client);
    if (this.waiting.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private dropWaiting(startedBefore: number): void {
    for (const [waiting, since] of this.waiting) if (since <= startedBefore) this.options.drop(waiting);
  }

  private async look(): Promise<void> {
    const now = Date.now();
    const limit = this.options.connectMs;
    // A stall this watch found, not over yet: later queries waiting as long are dropped without asking again.
    if (this.stalled && !this.options.breaker.isOpen) this.stalled = false;
    if (this.stalled) return this.dropWaiting(now - limit);
    if (this.checking || now - this.checkedAt < limit) return;
    if (![...this.waiting.values()].some((since) => now - since >= limit)) return;
    this.checking = true;
    this.checkedAt = now;
    const client = new (loadPg().Client)({
      connectionString: this.options.connectionString,
      connectionTimeoutMillis: limit,
      query_timeout: limit,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('select 1');
    } catch (error) {
      this.options.breaker.failed(error);
      this.stalled = true;
      this.dropWaiting(now - limit);
    } finally {
      this.checking = false;
      (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    }
  }
}

/** Tells `stalls` which clients wait on a query; calls `timedOut` when a query ends with pg's read timeout. */
function watchQueries(client: pg.PoolClient, stalls: StallWatch | undefined, timedOut: (error: Error) => void): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const check = (error: unknown) => {
    stalls?.ended(client);
    if (error instanceof Error && error.message === QUERY_TIMEOUT) timedOut(error);
  };
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (error: unknown, ...rest: unknown[]) => void;
      stalls?.started(client);
      args[last] = (error: unknown, ...rest: unknown[]) => {
        check(error);
        callback(error, ...rest);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) {
      stalls?.started(client);
      result.then(() => stalls?.ended(client), check);
    }
    return result;
  };
}
