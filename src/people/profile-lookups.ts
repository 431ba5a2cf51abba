// Reads of one person from the people store: by an address (email to profile), by a profile (profile
// search, personal emails) and their positions history against a company (job change). Each answers
// only from what imports recorded: a person, address or position we do not hold is "not found".
import type { PeopleRepository, PositionHistoryRow } from './repository.ts';
import type { PersonEmailRow, PersonRow } from './tables.ts';
import { normalizeProfileId } from './profile.ts';

/** A stored position as served: dates as "YYYY-MM" (sources give months at best). */
export interface ServedPosition {
  company_name: string;
  company_domain: string | null;
  company_website: string | null;
  title: string;
  start_date: string | null;
  end_date: string | null;
  is_current: boolean;
}

const monthOf = (at: number | null): string | null => (at === null ? null : new Date(at).toISOString().slice(0, 7));

export function servedPosition(p: PositionHistoryRow): ServedPosition {
  return {
    company_name: p.company_name,
    company_domain: p.domain,
    company_website: p.website ?? (p.domain ? `https://${p.domain}` : null),
    title: p.title,
    start_date: monthOf(p.started_at),
    end_date: p.is_current ? null : monthOf(p.ended_at),
    is_current: p.is_current === 1,
  };
}

/** Current positions first (latest started first), then past ones by when they ended, latest first. */
function byRecency(a: PositionHistoryRow, b: PositionHistoryRow): number {
  if (a.is_current !== b.is_current) return b.is_current - a.is_current;
  const end = (p: PositionHistoryRow) => p.ended_at ?? p.started_at ?? -Infinity;
  if (!a.is_current && end(a) !== end(b)) return end(b) - end(a);
  return (b.started_at ?? -Infinity) - (a.started_at ?? -Infinity);
}

/** A person's positions, most recent first (byRecency). */
export async function historyOf(repository: PeopleRepository, personId: number): Promise<PositionHistoryRow[]> {
  return (await repository.positionsOf(personId)).sort(byRecency);
}

/** The person a profile names, or undefined. */
export async function personByProfile(repository: PeopleRepository, profile: string): Promise<PersonRow | undefined> {
  const profileId = normalizeProfileId(profile);
  return profileId ? repository.findByProfileId(profileId) : undefined;
}

/**
 * The one person with a profile who holds an address (any kind), or undefined: an address held by
 * several people with profiles (a shared inbox) names none of them.
 */
export async function personByEmail(repository: PeopleRepository, email: string): Promise<PersonRow | undefined> {
  const ids = await repository.personIdsByEmail(email.trim());
  const people = (await Promise.all(ids.map((id) => repository.getById(id)))).filter((p): p is PersonRow => !!p?.profile_id);
  return people.length === 1 ? people[0] : undefined;
}

/** A person's personal addresses we may serve (none the engine or a source called invalid), verified valid first, then latest seen. */
export function personalAddresses(emails: PersonEmailRow[]): string[] {
  const rank = (e: PersonEmailRow) => (e.status === 'valid' ? 0 : 1);
  return emails
    .filter((e) => e.kind === 'personal' && e.status !== 'invalid')
    .sort((a, b) => rank(a) - rank(b) || b.seen_at - a.seen_at || a.email.localeCompare(b.email))
    .map((e) => e.email);
}

/** What the store says of a person and a company they were known to work at. */
export interface JobChange {
  status: 'NO_CHANGE' | 'JOB_CHANGE_DETECTED' | 'NEVER_WORKED_THERE';
  /** When their last position at the company ended ("YYYY-MM"), on a change. */
  changedAt: string | null;
  /** Their latest position at the company. */
  previous: ServedPosition | null;
  /** Their latest current position elsewhere (on a change), else at the company. */
  current: ServedPosition | null;
}

/**
 * Compares a person's positions history (most recent first) with a company: a current position
 * there is no change; only ended ones there is a change, from when the last one ended, to their
 * latest current position (null when the store holds none); none there, never worked there.
 */
export function jobChangeOf(history: PositionHistoryRow[], companyId: number): JobChange {
  const there = history.filter((p) => p.company_id === companyId);
  if (!there.length) return { status: 'NEVER_WORKED_THERE', changedAt: null, previous: null, current: null };
  const currentThere = there.find((p) => p.is_current === 1);
  if (currentThere) return { status: 'NO_CHANGE', changedAt: null, previous: null, current: servedPosition(currentThere) };
  const last = there[0];
  const elsewhere = history.find((p) => p.is_current === 1 && p.company_id !== companyId);
  return {
    status: 'JOB_CHANGE_DETECTED',
    changedAt: monthOf(last.ended_at),
    previous: servedPosition(last),
    current: elsewhere ? servedPosition(elsewhere) : null,
  };
}
