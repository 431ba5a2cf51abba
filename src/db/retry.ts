import { setTimeout as sleep } from 'node:timers/promises';
import { isUnavailable } from './unavailable.ts';
import { isSqliteLocked } from './sqlite-locking.ts';

/**
 * True when a write failed because the database is busy (any SQLite busy or locked code, including
 * SQLITE_BUSY_SNAPSHOT) or unreachable: never the rows' fault, so an importer waits it out and, if it
 * lasts, stops (rows "not written") instead of rejecting rows.
 */
export function isLockedOrUnavailable(error: unknown): boolean {
  return isSqliteLocked(error) || isUnavailable(error);
}

/** How an importer waits out a database that is busy (SQLite locked by a server) or briefly unreachable. */
export interface WriteRetryOptions {
  /** Total time to keep trying before giving up (default DEFAULT_MAX_WAIT_MS; operators set IMPORT_LOCK_WAIT_MS). */
  maxWaitMs?: number;
  /** First pause; each next one doubles, up to maxDelayMs (defaults 100 ms and 5 s). */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Called before each pause (progress lines say the import is waiting, not stuck). */
  onWait?: (error: unknown, delayMs: number) => void;
}

/** How long an import waits out a locked or unreachable database by default (Config.importLockWaitMs). */
export const DEFAULT_MAX_WAIT_MS = 60_000;

/**
 * Runs `write` until it succeeds, retrying (bounded exponential backoff with jitter) while the
 * error says the database is busy or unreachable. Any other error is thrown at once; so is the
 * last "unavailable" error once maxWaitMs has passed. `write` must be a whole transaction, so a
 * failed attempt left nothing behind.
 */
export async function retryWhileUnavailable<T>(write: () => Promise<T>, options: WriteRetryOptions = {}): Promise<T> {
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const started = Date.now();
  let delay = options.firstDelayMs ?? 100;
  for (;;) {
    try {
      return await write();
    } catch (error) {
      const waited = Date.now() - started;
      if (!isLockedOrUnavailable(error) || waited >= maxWaitMs) throw error;
      const pause = Math.min(delay * (0.5 + Math.random() / 2), maxWaitMs - waited);
      options.onWait?.(error, pause);
      await sleep(pause);
      delay = Math.min(delay * 2, options.maxDelayMs ?? 5000);
    }
  }
}
