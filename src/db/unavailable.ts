// Telling "a dependency is down" apart from "this request is wrong" or "we have a bug": the first is
// answered 503 with Retry-After (the caller should simply try again), the others are not.
import { SQLITE_LOCK_CODE } from './sqlite-locking.ts';

/** Seconds a client is asked to wait before retrying while a dependency is down. */
export const RETRY_AFTER_SECONDS = 2;

/** Thrown where we detect an outage ourselves (e.g. a health check); driver errors are recognised by isUnavailable. */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: 'database' | 'redis',
    readonly cause?: unknown,
  ) {
    super(`The ${dependency} is unavailable.`);
  }
}

// Socket-level failures of any driver (pg, ioredis).
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

// PostgreSQL SQLSTATEs for a server that is going away, starting up or out of connections:
// class 08 (connection exception), 57P01-57P03 (admin/crash shutdown, cannot connect now), 53300 (too many connections),
// 57014 (a statement cancelled: the server's statement_timeout, our bound on a query without an answer).
const PG_STATES = /^(08...|57P0[1-3]|57014|53300)$/;

// Messages pg and ioredis give for connections lost without a code.
const MESSAGES =
  /Connection terminated|Query read timeout|Command timed out|max retries per request|connection timeout|Client has encountered a connection error|Connection is closed|Stream isn't writeable|timeout exceeded when trying to connect|the database system is (starting up|shutting down|in recovery mode)|is not currently accepting connections/i;

/**
 * True when `error` means a database or Redis connection is down or was lost, so the request may
 * succeed if retried shortly. SQLite's "database is locked" is a busy writer, also worth a retry.
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof DependencyUnavailableError) return true;
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || PG_STATES.test(code) || SQLITE_LOCK_CODE.test(code))) return true;
  if (typeof message === 'string' && MESSAGES.test(message)) return true;
  // AggregateError (several addresses refused), and errors wrapping the driver's own.
  const nested = (error as { errors?: unknown; cause?: unknown }).errors;
  if (Array.isArray(nested) && nested.some(isUnavailable)) return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isUnavailable(cause);
}
