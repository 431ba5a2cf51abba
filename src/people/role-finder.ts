// Role finder: the single best current holder of a job title at a company.
import type { CompanyRow } from '../companies/tables.ts';
import type { PeopleRepository, RoleHolderRow } from './repository.ts';
import { analyzeTitle, type AnalyzedTitle } from './titles.ts';

/** A company leader the companies domain knows (its own data, a filing's related persons). */
export interface KnownLeader {
  role: string;
  first_name: string | null;
  last_name: string | null;
  designation: string | null;
  prof_url: string | null;
}

export type RoleHolder = { holder: RoleHolderRow; company: CompanyRow } | { leader: KnownLeader; company: CompanyRow };

export interface CompanyResolver {
  resolve(query: { company_name?: string | null; company_domain?: string | null; profile_url?: string | null }): Promise<CompanyRow | null>;
  /** The company's known leadership: a CEO known for a company holds that role even when no person record says so. */
  leadersOf?(companyId: number): Promise<KnownLeader[]>;
}

/** The leader of `leaders` whose designation (else role) is the role asked for, or null. */
export function leaderInRole(leaders: KnownLeader[], wanted: AnalyzedTitle): KnownLeader | null {
  const exact = new Set(wanted.roles.filter((r) => r.level !== 'any').map((r) => r.key));
  const functions = new Set(wanted.roles.filter((r) => r.level === 'any').map((r) => r.fn));
  const matches = leaders
    .filter((l) => l.first_name || l.last_name)
    .map((leader) => ({ leader, roles: analyzeTitle(leader.designation ?? leader.role).roles }))
    .filter(({ roles }) => roles.some((r) => exact.has(r.key) || functions.has(r.fn)));
  // The highest-ranked role first, as among people.
  matches.sort((a, b) => Math.max(...b.roles.map((r) => r.rank)) - Math.max(...a.roles.map((r) => r.rank)));
  return matches[0]?.leader ?? null;
}

/**
 * Orders holders best first: the exact title as asked, then the most senior role, then the
 * seniority modifier closest to the query's (a "Senior …" asks for the senior one), then the
 * most recent start, then the most recently seen; the person id keeps the order stable.
 */
export function compareHolders(query: AnalyzedTitle) {
  return (a: RoleHolderRow, b: RoleHolderRow): number =>
    Number(b.title_normalized === query.normalized) - Number(a.title_normalized === query.normalized) ||
    b.rank - a.rank ||
    Math.abs(a.seniority_modifier - query.modifier) - Math.abs(b.seniority_modifier - query.modifier) ||
    (b.started_at ?? -Infinity) - (a.started_at ?? -Infinity) ||
    b.seen_at - a.seen_at ||
    a.person_id - b.person_id;
}

/** A title and the company to find it at (by any of domain, page URL, name). */
export interface RoleQuery {
  job_title: string;
  company_name?: string | null;
  company_domain?: string | null;
  company_profile_url?: string | null;
}

export async function findRoleHolder(
  repository: PeopleRepository,
  companies: CompanyResolver,
  query: RoleQuery,
): Promise<RoleHolder | null> {
  const wanted = analyzeTitle(query.job_title);
  if (!wanted.roles.length) return null;
  const company = await companies.resolve({
    company_name: query.company_name?.trim() || null,
    company_domain: query.company_domain?.trim() || null,
    profile_url: query.company_profile_url?.trim() || null,
  });
  if (!company) return null;
  const exactKeys = wanted.roles.filter((r) => r.level !== 'any').map((r) => r.key);
  const holders = await repository.holdersByRoleKeys(company.id, exactKeys);
  for (const role of wanted.roles.filter((r) => r.level === 'any'))
    holders.push(...(await repository.holdersByFunction(company.id, role.fn)));
  if (!holders.length) {
    const leader = companies.leadersOf ? leaderInRole(await companies.leadersOf(company.id), wanted) : null;
    return leader ? { leader, company } : null;
  }
  holders.sort(compareHolders(wanted));
  return { holder: holders[0], company };
}
