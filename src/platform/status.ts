// What the install holds and how its sources are doing (`leadbase status`): per store the counts
// that matter, the sources counted by type and state (and, when asked for, per source its last
// success, last error, next run and rows), the background queue's
// depth and the database's size. Counts are exact and read through indexes where one covers them
// (docs/sources.md, "Status", says which read a whole table). With the outbound identities of
// the email prober, each one's state and quarantines (docs/email.md, "Outbound identities").
import { sql } from 'kysely';
import type { Db, DialectName } from '../db/database.ts';
import { storedIdentityStates, type OutboundIdentity, type OutboundIdentityState } from '../email/outbound.ts';

export interface StoreCounts {
  companies: { total: number; with_domain: number; with_funding: number; with_leadership: number };
  jobs: { live: number; expired: number; boards: number };
  people: { total: number; with_work_email: number; with_mobile: number };
}

export interface SourceStatus {
  id: number;
  type: string;
  locator: string;
  status: string;
  every_ms: number;
  last_success_at: string | null;
  last_error: string | null;
  next_run_at: string | null;
  /** Rows the last run read. */
  rows: number | null;
}

/** Sources of one type (or all of them): how many in each state, failing, never fetched. */
export interface SourceCounts {
  total: number;
  active: number;
  paused: number;
  held: number;
  /** Whose last run failed (consecutive failures above 0). */
  failing: number;
  never_fetched: number;
  /** The oldest last success among them (null when none ever succeeded). */
  oldest_success_at: string | null;
}

/** The sources counted by type and state: a few dozen lines whatever their number. */
export interface SourcesSummary extends SourceCounts {
  by_type: ({ type: string } & SourceCounts)[];
}

export interface InstallSummary {
  stores: StoreCounts;
  sources_summary: SourcesSummary;
  /** Background jobs waiting or running. */
  queue: { depth: number };
  database: { dialect: DialectName; bytes: number | null };
  /** True when the company, jobs and people stores are all empty (`leadbase bootstrap` fills them). */
  empty: boolean;
  /** The email prober's outbound identities, when asked for: active, limited (quarantined at some mail servers) or listed (on a public blocklist too). */
  outbound_identities?: OutboundIdentityState[];
}

export interface InstallStatus extends InstallSummary {
  sources: SourceStatus[];
}

const iso = (ms: number | string | null) => (ms == null ? null : new Date(Number(ms)).toISOString());

async function count(db: Db, query: ReturnType<typeof sql<{ n: number | string }>>): Promise<number> {
  const { rows } = await query.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** The counts of each store. */
export async function storeCounts(db: Db): Promise<StoreCounts> {
  const n = (query: ReturnType<typeof sql<{ n: number | string }>>) => count(db, query);
  const [companies, withDomain, withFunding, withLeadership, live, jobs, boards, people, withWorkEmail, withMobile] = await Promise.all([
    n(sql`select count(*) as n from companies`),
    // Each company's primary domain is unique in company_domains (indexed by its primary key).
    n(sql`select count(*) as n from companies where domain is not null`),
    n(sql`select count(*) as n from (select distinct company_id from company_funding_rounds) f`),
    n(sql`select count(*) as n from (select distinct company_id from company_leaders) l`),
    n(sql`select count(*) as n from job_live`),
    n(sql`select count(*) as n from jobs`),
    n(sql`select count(*) as n from (select distinct source, board from jobs) b`),
    n(sql`select count(*) as n from people`),
    n(sql`select count(*) as n from (select distinct person_id from person_emails where kind = 'work') e`),
    n(sql`select count(*) as n from (select distinct person_id from person_phones where type in ('mobile', 'possibly_mobile')) m`),
  ]);
  return {
    companies: { total: companies, with_domain: withDomain, with_funding: withFunding, with_leadership: withLeadership },
    jobs: { live, expired: Math.max(0, jobs - live), boards },
    people: { total: people, with_work_email: withWorkEmail, with_mobile: withMobile },
  };
}

/** Whether the stores that answer the data endpoints are all empty (a row of each is enough to tell). */
export async function storesEmpty(db: Db): Promise<boolean> {
  const { rows } = await sql<{ n: number | string }>`select
    (select count(*) from (select 1 from companies limit 1) c) +
    (select count(*) from (select 1 from jobs limit 1) j) +
    (select count(*) from (select 1 from people limit 1) p) as n`.execute(db);
  return Number(rows[0]?.n ?? 0) === 0;
}

async function databaseBytes(db: Db, dialect: DialectName): Promise<number | null> {
  try {
    if (dialect === 'postgres') return count(db, sql`select pg_database_size(current_database()) as n`);
    const pages = await count(db, sql`select page_count as n from pragma_page_count()`);
    const size = await count(db, sql`select page_size as n from pragma_page_size()`);
    return pages * size;
  } catch {
    return null; // not allowed to ask (a restricted role): the size is left out
  }
}

/** Jobs waiting or running: in pg-boss's schema when it is the queue, else the embedded queue's table. */
function queueDepth(db: Db, pgBossSchema: string | undefined): Promise<number> {
  const query = pgBossSchema
    ? sql<{ n: number }>`select count(*) as n from ${sql.table(`${pgBossSchema}.job`)} where state in ('created', 'retry', 'active')`
    : sql<{ n: number }>`select count(*) as n from queue_jobs where state in ('queued', 'active')`;
  return count(db, query).catch(() => 0);
}

/** The sources counted by type and state, in one grouped read of the table. */
export async function sourcesSummary(db: Db): Promise<SourcesSummary> {
  const rows = await db
    .selectFrom('sources')
    .select([
      'type',
      'status',
      sql<number | string>`count(*)`.as('n'),
      sql<number | string>`sum(case when consecutive_failures > 0 then 1 else 0 end)`.as('failing'),
      sql<number | string>`sum(case when last_success_at is null then 1 else 0 end)`.as('never'),
      sql<number | string | null>`min(last_success_at)`.as('oldest'),
    ])
    .groupBy(['type', 'status'])
    .orderBy('type')
    .execute();
  const empty = (): SourceCounts => ({ total: 0, active: 0, paused: 0, held: 0, failing: 0, never_fetched: 0, oldest_success_at: null });
  const add = (counts: SourceCounts, row: (typeof rows)[number]) => {
    const n = Number(row.n);
    counts.total += n;
    if (row.status === 'active' || row.status === 'paused' || row.status === 'held') counts[row.status] += n;
    counts.failing += Number(row.failing);
    counts.never_fetched += Number(row.never);
    const oldest = iso(row.oldest);
    if (oldest && (!counts.oldest_success_at || oldest < counts.oldest_success_at)) counts.oldest_success_at = oldest;
  };
  const all = empty();
  const byType = new Map<string, SourceCounts>();
  for (const row of rows) {
    add(all, row);
    if (!byType.has(row.type)) byType.set(row.type, empty());
    add(byType.get(row.type)!, row);
  }
  return { ...all, by_type: [...byType].map(([type, counts]) => ({ type, ...counts })) };
}

/** Each source's line of `leadbase status --sources`, by id. */
export async function sourceStatuses(db: Db): Promise<SourceStatus[]> {
  const sourceRows = await db.selectFrom('sources').selectAll().orderBy('id').execute();
  return sourceRows.map((row) => ({
    id: Number(row.id),
    type: row.type,
    locator: row.locator,
    status: row.status,
    every_ms: Number(row.interval_ms),
    last_success_at: iso(row.last_success_at),
    last_error: row.last_error,
    next_run_at: row.status === 'active' ? iso(row.next_run_at) : null,
    rows: row.last_counts ? Number((JSON.parse(row.last_counts) as { read?: number }).read ?? 0) : null,
  }));
}

/**
 * What `leadbase status` shows, its sources counted rather than listed. `pgBossSchema`: pg-boss's
 * schema, when pg-boss is the queue; `identities`: the email prober's outbound identities, shown
 * with the quarantines the database holds.
 */
export async function installSummary(
  db: Db,
  dialect: DialectName,
  pgBossSchema?: string,
  identities?: OutboundIdentity[],
): Promise<InstallSummary> {
  const [stores, sources, depth, bytes, outbound] = await Promise.all([
    storeCounts(db),
    sourcesSummary(db),
    queueDepth(db, pgBossSchema),
    databaseBytes(db, dialect),
    identities ? storedIdentityStates(db, identities) : undefined,
  ]);
  return {
    stores,
    sources_summary: sources,
    queue: { depth },
    database: { dialect, bytes },
    empty: stores.companies.total + stores.jobs.live + stores.jobs.expired + stores.people.total === 0,
    ...(outbound ? { outbound_identities: outbound } : {}),
  };
}

/** installSummary with every source listed (the console's status page, `leadbase status --sources`). */
export async function installStatus(
  db: Db,
  dialect: DialectName,
  pgBossSchema?: string,
  identities?: OutboundIdentity[],
): Promise<InstallStatus> {
  const [summary, sources] = await Promise.all([installSummary(db, dialect, pgBossSchema, identities), sourceStatuses(db)]);
  return { ...summary, sources };
}
