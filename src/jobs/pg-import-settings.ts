// PostgreSQL settings of an import's own transactions (SET LOCAL: they end with the transaction and
// touch nothing else the server runs). Each is safe for an import and only for one.
// - synchronous_commit stays on: with it off, the VACUUM after the index merge left the merged
//   pages not all-visible (facet counts then read the heap; test/jobs/facet-search-dialects.test.ts).
// - gin_pending_list_limit: new listings' terms go to job_terms' GIN pending list (fastupdate). An
//   insert that finds the list past this limit moves it into the index itself, with only work_mem
//   (4 MB by default) to gather it: a few dozen listings a pass, so nearly every term of every
//   listing is a separate insertion into the index. During an import the limit is set out of reach
//   and the import moves the list itself (PendingTerms) every CLEAN_EVERY listings, with
//   maintenance_work_mem raised for that statement: one pass gathers thousands of listings, so a
//   common term is one insertion for all of them (1,101 -> 1,613 listings/s on the 1M bench, a
//   quarter of the write-ahead log; docs/jobs.md, "Ingest on PostgreSQL").
import type { Kysely } from 'kysely';
import { dialectOf } from '../db/database.ts';
import { run } from './bulk-sql.ts';
import { cleanTermsPartitions, ensureTermsPartitions } from './terms-partitions.ts';

/** job_terms' pending list limit during an import, in kB: a guard only, the import empties the list sooner. */
const PENDING_LIST_KB = 1024 * 1024;

/** Listings written between two moves of the pending list into the index (about 45 MB of pending list). */
const CLEAN_EVERY = 10_000;

/** maintenance_work_mem of a move: enough to gather CLEAN_EVERY listings' terms in one pass. */
const CLEAN_MEMORY = '256MB';

/** Applies the import settings to the transaction `trx` (PostgreSQL; nothing on SQLite). */
export async function useImportSettings(trx: Kysely<any>): Promise<void> {
  if (dialectOf(trx) !== 'postgres' || !trx.isTransaction) return;
  await run(trx, `select set_config('gin_pending_list_limit', '${PENDING_LIST_KB}', true)`);
}

/** Moves job_terms' pending lists into their GIN indexes now (PostgreSQL), so searches read no long list after an import. */
export async function cleanPendingTerms(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db.transaction().execute(async (trx) => {
    await run(trx, `select set_config('maintenance_work_mem', '${CLEAN_MEMORY}', true)`);
    await cleanTermsPartitions(trx);
  });
}

/**
 * Counts the listings an import writes and, every `every` of them, makes sure job_terms has a
 * partition for the ids to come (terms-partitions.ts) and starts moving the pending lists into the
 * indexes. The move runs beside the import's next writes, on a connection of its own: it is the
 * largest single cost of a PostgreSQL import (48 of the 128 s that 150,000 listings took before
 * their merge), and waiting for it left the importing connection idle while the server moved the
 * list. One move at a time: the next waits for the one under way. gin_clean_pending_list works
 * until the list is empty, so a move also takes what the import added while it ran; it ends
 * because moving a list is faster than writing it (about 3 s against 8 s for 10,000 listings).
 */
export class PendingTerms {
  private written = 0;
  private moving: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<any>,
    /** Runs a write again while the database is locked or unavailable (the importer's retry). */
    private readonly retry: <T>(write: () => Promise<T>) => Promise<T>,
    private readonly every = CLEAN_EVERY,
  ) {}

  /** Counts `listings` more; when a move is due, waits for the one under way and starts the next (never on SQLite). */
  async wrote(listings: number): Promise<void> {
    if (dialectOf(this.db) !== 'postgres') return;
    this.written += listings;
    if (this.written < this.every) return;
    this.written = 0;
    await this.settled();
    await this.retry(() => ensureTermsPartitions(this.db));
    const moving = this.retry(() => cleanPendingTerms(this.db));
    // Its failure is thrown by settled(), not reported as unhandled meanwhile.
    moving.catch(() => {});
    this.moving = moving;
  }

  /** Waits for the move under way, if any; throws its failure. */
  async settled(): Promise<void> {
    const moving = this.moving;
    this.moving = undefined;
    await moving;
  }
}
