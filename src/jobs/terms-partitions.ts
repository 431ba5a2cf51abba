// PostgreSQL: job_terms is partitioned by listing id (migration 0033), so that an import adds
// terms to the GIN index of its newest partition only and ingest per listing does not slow as the
// store grows (docs/jobs.md, "Ingest on PostgreSQL"). Partitions are added ahead of the ids: an
// import makes sure, when it starts and each time it moves its pending terms into the index, that
// the partitions reach at least half a partition past the largest listing id (it checks every
// 10,000 listings or so, so it never writes an id no partition holds). A partition is created as a
// table of its own and then attached: searches go on meanwhile; the attach adds the partition's
// foreign key, so writes to jobs by other imports wait for it (a moment: the table is empty).
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../db/database.ts';

/** Listing ids a partition of job_terms covers (migration 0033 keeps its own copy). */
export const TERMS_PARTITION_IDS = 1_000_000;

/** Serializes the instances that add partitions (a transaction-level advisory lock). */
const PARTITIONS_LOCK = 0x6a6f6274; // "jobt"

/** Ids the partitions reach past the largest listing id before an import adds one. */
const HEADROOM = TERMS_PARTITION_IDS / 2;

/**
 * In one read: the first id past job_terms' last partition (0 when it has none), and the largest
 * listing id, the id sequence's last (not the largest stored: ids taken by transactions that rolled
 * back count too).
 */
async function coverage(db: Kysely<any>): Promise<{ end: number; largest: number }> {
  const { rows } = await sql<{ end: string | number | null; largest: string | number }>`
    select (select max((regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''?(\\d+)''?\\)'))[1]::bigint)
              from pg_inherits i join pg_class c on c.oid = i.inhrelid
              where i.inhparent = 'job_terms'::regclass) as end,
           coalesce(pg_sequence_last_value(pg_get_serial_sequence('jobs', 'id')::regclass), 0) as largest`.execute(db);
  return { end: Number(rows[0].end ?? 0), largest: Number(rows[0].largest) };
}

/**
 * Adds partitions to job_terms until they reach HEADROOM past the largest listing id (PostgreSQL;
 * nothing on SQLite). Cheap when nothing is missing: one catalog read.
 */
export async function ensureTermsPartitions(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  const seen = await coverage(db);
  if (seen.end > seen.largest + HEADROOM) return;
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${PARTITIONS_LOCK})`.execute(trx);
    // Read again under the lock: another instance may have added them meanwhile.
    const { end: first, largest } = await coverage(trx);
    for (let end = first; end <= largest + HEADROOM; end += TERMS_PARTITION_IDS) {
      const name = sql.id(`job_terms_p${Math.floor(end / TERMS_PARTITION_IDS)}`);
      await sql`create table ${name} (like job_terms) with (toast_tuple_target = 128)`.execute(trx);
      await sql`alter table job_terms attach partition ${name} for values from (${sql.lit(end)}) to (${sql.lit(end + TERMS_PARTITION_IDS)})`.execute(
        trx,
      );
    }
  });
}

/** Moves the GIN pending list of every job_terms partition into its index (PostgreSQL). */
export async function cleanTermsPartitions(db: Kysely<any>): Promise<void> {
  await sql`select gin_clean_pending_list(i.inhrelid) from pg_inherits i where i.inhparent = 'job_terms_terms'::regclass`.execute(db);
}
