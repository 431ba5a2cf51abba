// The sources registry: what the scheduler fetches, how often, and how it went. Adding the same
// source twice finds the first; every field a caller gives is checked, with an error naming it.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { normalizeDomain } from '../companies/normalize.ts';
import { httpUrl } from './http-url.ts';
import type { NormalizedLocator } from './kind.ts';
import type { RunCounts, SourceRow, SourceStatus, SourceTable } from './tables.ts';
import { kindOf, SOURCE_KINDS } from './kinds/index.ts';
import { SourceInputError } from './source-input-error.ts';
import { chunk, MAX_BOUND_PARAMETERS } from '../db/chunks.ts';
import type { Insertable, Updateable } from 'kysely';

/** Every type of source: one per kind (src/sources/kinds: the job boards, RSS/Atom feeds and the data sets). */
export const SOURCE_TYPES: readonly string[] = Object.keys(SOURCE_KINDS);

const HOUR = 3_600_000;
/**
 * The shortest interval a source may be given: fetching a board or a data set more than once a
 * minute makes nothing fresher and burdens the host.
 */
export const MIN_INTERVAL_MS = 60_000;
/** A source failing for longer than this is marked in listings. */
export const FAILING_MARK_MS = 24 * HOUR;

export { SourceInputError } from './source-input-error.ts';

export interface SourceInput {
  type: string;
  /** Board token (or a link to the board), careers-page or feed URL, a data set's locator (its kind's default when omitted). */
  locator?: string;
  base_url?: string | null;
  company_name?: string | null;
  company_website?: string | null;
  /** How often: milliseconds, or a duration such as 30m, 6h, 1d (at least 1m). */
  every?: string | number | null;
  /**
   * The site discovery found the source on. A base_url given without it is the operator's (a
   * mirror): its origin may then be on a private or loopback address.
   */
  discovered_from?: string | null;
  /** Whether base_url is the operator's (a mirror); by default it is unless discovered_from is set. */
  operator_base_url?: boolean;
}

/** Parses 90s, 30m, 6h, 1d or a number of milliseconds. */
export function parseEvery(value: string | number): number {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 1000) throw new SourceInputError('every must be at least 1000 ms');
    return value;
  }
  const m = value.trim().match(/^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/i);
  if (!m) throw new SourceInputError(`every must be a duration such as 30m, 6h or 1d, got "${value}"`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: HOUR, d: 24 * HOUR }[(m[2] ?? 'ms').toLowerCase() as 'ms'];
  return parseEvery(Math.round(Number(m[1]) * unit));
}

/** 90000 → "1.5m"; for listings. */
export function formatEvery(ms: number): string {
  for (const [unit, size] of [
    ['d', 24 * HOUR],
    ['h', HOUR],
    ['m', 60_000],
    ['s', 1000],
  ] as const)
    if (ms >= size) return `${Number((ms / size).toFixed(1))}${unit}`;
  return `${ms}ms`;
}

/** The locator as stored, and the key two additions of one source share. */
export function normalizeLocator(type: string, locator: string | undefined): NormalizedLocator {
  const kind = kindOf(type);
  if (!kind) throw new SourceInputError(`type must be one of ${SOURCE_TYPES.join(', ')}, got "${type}"`);
  return kind.normalizeLocator((locator ?? '').trim() || (kind.defaultLocator ?? ''));
}

/** A source as the CLI and the admin API show it. */
export interface SourceView {
  id: number;
  type: string;
  locator: string;
  base_url: string | null;
  /** The operator named base_url (a mirror): it may be on a private or loopback address. */
  base_url_by_operator: boolean;
  company: { id: number | null; name: string | null; website: string | null } | null;
  every: string;
  interval_ms: number;
  status: SourceStatus;
  status_reason: string | null;
  next_run_at: string | null;
  last_attempt_at: string | null;
  last_success_at: string | null;
  last_change_at: string | null;
  consecutive_failures: number;
  last_error: string | null;
  last_counts: RunCounts | null;
  /** Since the last successful fetch (or since the source was added, before any). */
  age_ms: number;
  /** Failing for more than a day. */
  failing: boolean;
  discovered_from: string | null;
  created_at: string;
}

const iso = (ms: number | null) => (ms == null ? null : new Date(Number(ms)).toISOString());

export function viewOf(row: SourceRow, now = Date.now()): SourceView {
  const freshSince = Number(row.last_success_at ?? row.created_at);
  return {
    id: Number(row.id),
    type: row.type,
    locator: row.locator,
    base_url: row.base_url,
    base_url_by_operator: Boolean(row.base_url) && Number(row.operator_base_url) === 1,
    company:
      row.company_id != null || row.company_name || row.company_website
        ? { id: row.company_id == null ? null : Number(row.company_id), name: row.company_name, website: row.company_website }
        : null,
    every: formatEvery(Number(row.interval_ms)),
    interval_ms: Number(row.interval_ms),
    status: row.status,
    status_reason: row.status_reason,
    next_run_at: row.status === 'active' ? iso(row.next_run_at) : null,
    last_attempt_at: iso(row.last_attempt_at),
    last_success_at: iso(row.last_success_at),
    last_change_at: iso(row.last_change_at),
    consecutive_failures: Number(row.consecutive_failures),
    last_error: row.last_error,
    last_counts: row.last_counts ? (JSON.parse(row.last_counts) as RunCounts) : null,
    age_ms: Math.max(0, now - freshSince),
    failing: Number(row.consecutive_failures) > 0 && now - freshSince > FAILING_MARK_MS,
    discovered_from: row.discovered_from,
    created_at: iso(row.created_at)!,
  };
}

type NewSourceFields = Pick<
  SourceTable,
  'type' | 'locator' | 'locator_key' | 'base_url' | 'company_id' | 'company_name' | 'company_website' | 'interval_ms' | 'discovered_from'
> & { operator_base_url?: number };

/** A new source's row: active, due at `now`, never run. */
export function newSourceRow(fields: NewSourceFields & { now: number }): Insertable<SourceTable> {
  const { now, ...given } = fields;
  return {
    ...given,
    status: 'active',
    status_reason: null,
    next_run_at: now,
    claim_token: null,
    claimed_until: null,
    last_attempt_at: null,
    last_success_at: null,
    last_change_at: null,
    validator_url: null,
    etag: null,
    last_modified: null,
    last_error: null,
    last_counts: null,
    created_at: now,
  };
}

export interface RegistryDeps {
  db: Db;
  /** The company store, to link a source to its company by website. */
  companyIdByDomain?: (domain: string) => Promise<number | null>;
  now?: () => number;
}

export interface AddManySummary {
  read: number;
  added: number;
  /** Registered before, and given a new base_url, company or interval: updated. */
  updated: number;
  /** Registered before: left as they were. */
  existing: number;
  refused: { line: number; reason: string }[];
}

export interface ListFilter {
  status?: SourceStatus;
  type?: string;
}

/** The sources an operator acts on at once: by id, or every one of a type and/or failing ({}: every source). */
export type SourceSelection = { ids: readonly number[] } | { type?: string; failing?: boolean };

export class SourceRegistry {
  private readonly db: Db;
  private readonly now: () => number;

  constructor(private readonly deps: RegistryDeps) {
    this.db = deps.db;
    this.now = deps.now ?? Date.now;
  }

  /**
   * Adds a source, or finds the same one added before (`created` false). Due at once when new. A
   * source found again takes the base_url, company and interval this input gives when they differ
   * (`updated`), except that a base_url the operator named is not replaced by one discovery found.
   */
  async add(input: SourceInput): Promise<{ source: SourceRow; created: boolean; updated: boolean }> {
    const type = String(input.type ?? '')
      .trim()
      .toLowerCase();
    const kind = kindOf(type);
    if (!kind) throw new SourceInputError(`type must be one of ${SOURCE_TYPES.join(', ')}, got "${input.type}"`);
    // A link to a board on another instance of its ATS (Lever's EU one) brings that API along.
    const { locator, key, baseUrl: linkedBase } = normalizeLocator(type, input.locator);
    const givenBase = input.base_url || linkedBase;
    const baseUrl = givenBase ? httpUrl(givenBase, 'base_url').toString().replace(/\/+$/, '') : null;
    const website = input.company_website?.trim() || null;
    const domain = website ? normalizeDomain(website) : null;
    if (website && !domain) throw new SourceInputError(`company_website "${website}" is not a website`);
    const everyGiven = input.every != null && input.every !== '';
    const interval = everyGiven ? parseEvery(input.every!) : kind.defaultIntervalMs;
    if (interval < MIN_INTERVAL_MS)
      throw new SourceInputError(
        `every must be at least ${formatEvery(MIN_INTERVAL_MS)} (fetching a source more often makes nothing fresher and burdens its host), got "${input.every}"`,
      );
    const operatorBase = Boolean(input.base_url) && (input.operator_base_url ?? !input.discovered_from);
    const existing = await this.byKey(type, key);
    if (existing) {
      const changes: Updateable<SourceTable> = {};
      const wasOperators = Number(existing.operator_base_url) === 1;
      if (baseUrl && baseUrl !== existing.base_url && (operatorBase || !wasOperators)) {
        changes.base_url = baseUrl;
        changes.operator_base_url = operatorBase ? 1 : 0;
      } else if (baseUrl && baseUrl === existing.base_url && operatorBase && !wasOperators) {
        changes.operator_base_url = 1; // the operator names, as theirs, the address discovery had found
      }
      const name = input.company_name?.trim() || null;
      if (name && name !== existing.company_name) changes.company_name = name;
      if (website && website !== existing.company_website) {
        changes.company_website = website;
        changes.company_id = domain && this.deps.companyIdByDomain ? await this.deps.companyIdByDomain(domain) : null;
      }
      if (everyGiven && interval !== Number(existing.interval_ms)) changes.interval_ms = interval;
      if (!Object.keys(changes).length) return { source: existing, created: false, updated: false };
      const source = await this.db
        .updateTable('sources')
        .set(changes)
        .where('id', '=', existing.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { source, created: false, updated: true };
    }
    const now = this.now();
    const companyId = domain && this.deps.companyIdByDomain ? await this.deps.companyIdByDomain(domain) : null;
    try {
      const row = await this.db
        .insertInto('sources')
        .values(
          newSourceRow({
            type,
            locator,
            locator_key: key,
            base_url: baseUrl,
            operator_base_url: baseUrl && operatorBase ? 1 : 0,
            company_id: companyId,
            company_name: input.company_name?.trim() || null,
            company_website: website,
            interval_ms: interval,
            discovered_from: input.discovered_from ?? null,
            now,
          }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return { source: row, created: true, updated: false };
    } catch (error) {
      // Added at the same moment by another caller: theirs is the source.
      const raced = await this.byKey(type, key);
      if (raced) return { source: raced, created: false, updated: false };
      throw error;
    }
  }

  /** Adds each entry of a list; what was added, found already registered, and refused (with the line and why). */
  async addMany(entries: readonly ({ line: number; input: SourceInput } | { line: number; error: string })[]): Promise<AddManySummary> {
    const summary: AddManySummary = { read: entries.length, added: 0, updated: 0, existing: 0, refused: [] };
    for (const entry of entries) {
      if ('error' in entry) {
        summary.refused.push({ line: entry.line, reason: entry.error });
        continue;
      }
      try {
        const { created, updated } = await this.add(entry.input);
        if (created) summary.added++;
        else if (updated) summary.updated++;
        else summary.existing++;
      } catch (error) {
        if (!(error instanceof SourceInputError)) throw error;
        summary.refused.push({ line: entry.line, reason: error.message });
      }
    }
    return summary;
  }

  private byKey(type: string, key: string): Promise<SourceRow | undefined> {
    return this.db.selectFrom('sources').selectAll().where('type', '=', type).where('locator_key', '=', key).executeTakeFirst();
  }

  async get(id: number): Promise<SourceRow | null> {
    return (await this.db.selectFrom('sources').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  async list(filter: ListFilter = {}): Promise<SourceRow[]> {
    let query = this.db.selectFrom('sources').selectAll().orderBy('id');
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.type) query = query.where('type', '=', filter.type);
    return query.execute();
  }

  /** Company sites discovery has read (lower-cased domains), so later runs go on with the next ones. */
  async sitesRead(): Promise<Set<string>> {
    const rows = await this.db.selectFrom('site_discoveries').select('domain').execute();
    return new Set(rows.map((r) => r.domain));
  }

  /** Remembers that discovery read a company's site, and how many sources it registered from it. */
  async markSiteRead(domain: string, found: number): Promise<void> {
    const checked = { checked_at: this.now(), found };
    await this.db
      .insertInto('site_discoveries')
      .values({ domain: domain.toLowerCase(), ...checked })
      .onConflict((c) => c.column('domain').doUpdateSet(checked))
      .execute();
  }

  /** The source's last runs, newest first. */
  async history(id: number, limit = 20) {
    return this.db.selectFrom('source_runs').selectAll().where('source_id', '=', id).orderBy('id', 'desc').limit(limit).execute();
  }

  /** Removes a source and its history; false when there was none. Listings it imported stay. */
  async remove(id: number): Promise<boolean> {
    return (await this.removeMany([id])) > 0;
  }

  /** The sources a selection names, by id (ids that name none are left out). */
  async select(selection: SourceSelection): Promise<SourceRow[]> {
    if ('ids' in selection) {
      const rows: SourceRow[] = [];
      for (const ids of chunk(selection.ids, MAX_BOUND_PARAMETERS))
        rows.push(...(await this.db.selectFrom('sources').selectAll().where('id', 'in', ids).execute()));
      return rows.sort((a, b) => Number(a.id) - Number(b.id));
    }
    let query = this.db.selectFrom('sources').selectAll().orderBy('id');
    if (selection.type !== undefined) query = query.where('type', '=', selection.type);
    if (selection.failing) query = query.where('consecutive_failures', '>', 0);
    return query.execute();
  }

  /** pause, remove and resume of one source or many, in one transaction; the rows each part changed, summed. */
  private async eachChunk(ids: readonly number[], fn: (trx: Db, ids: number[]) => Promise<number>): Promise<number> {
    if (!ids.length) return 0;
    return this.db.transaction().execute(async (trx) => {
      let changed = 0;
      for (const part of chunk(ids, MAX_BOUND_PARAMETERS)) changed += await fn(trx, part);
      return changed;
    });
  }

  /** Deletes the sources with their runs and parts (the one place that knows a source's tables); how many were deleted. */
  async removeMany(ids: readonly number[]): Promise<number> {
    return this.eachChunk(ids, async (trx, part) => {
      await trx.deleteFrom('source_runs').where('source_id', 'in', part).execute();
      await trx.deleteFrom('source_parts').where('source_id', 'in', part).execute();
      const result = await trx.deleteFrom('sources').where('id', 'in', part).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  async pauseMany(ids: readonly number[], reason = 'paused by the operator'): Promise<void> {
    await this.eachChunk(ids, async (trx, part) => {
      const result = await trx
        .updateTable('sources')
        .set({ status: 'paused', status_reason: reason })
        .where('id', 'in', part)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    });
  }

  async resumeMany(ids: readonly number[]): Promise<void> {
    const now = this.now();
    await this.eachChunk(ids, async (trx, part) => {
      const result = await trx
        .updateTable('sources')
        .set({ status: 'active', status_reason: null, consecutive_failures: 0, next_run_at: now })
        .where('id', 'in', part)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    });
  }

  /** Stops scheduling a source (a run in progress finishes). */
  async pause(id: number, reason = 'paused by the operator'): Promise<SourceRow | null> {
    await this.pauseMany([id], reason);
    return this.get(id);
  }

  /** Schedules a paused or held source again, due now, its failure count cleared. */
  async resume(id: number): Promise<SourceRow | null> {
    await this.resumeMany([id]);
    return this.get(id);
  }

  /** Makes a source due now. */
  async dueNow(id: number): Promise<void> {
    await this.db.updateTable('sources').set({ next_run_at: this.now() }).where('id', '=', id).execute();
  }

  /**
   * Counts by status, and the oldest last successful fetch among active sources (a source never
   * fetched counts from when it was added): its age is the stale-data alarm (/metrics).
   */
  async freshness(): Promise<{ byStatus: Record<string, number>; oldestSuccessAt: number | null }> {
    const rows = await this.db
      .selectFrom('sources')
      .select(['status', sql<number>`count(*)`.as('n')])
      .groupBy('status')
      .execute();
    const oldest = await this.db
      .selectFrom('sources')
      .select(sql<number | null>`min(coalesce(last_success_at, created_at))`.as('oldest'))
      .where('status', '=', 'active')
      .executeTakeFirst();
    return {
      byStatus: Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])),
      oldestSuccessAt: oldest?.oldest == null ? null : Number(oldest.oldest),
    };
  }
}
