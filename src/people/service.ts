// The people domain as the rest of leadbase sees it: the finders, the employee list and the store behind the importers.
import type { Db } from '../db/database.ts';
import type { CompanyService } from '../companies/service.ts';
import { websiteOf } from '../companies/profile.ts';
import type {
  Employee,
  EmailToProfileFound,
  JobChangeFound,
  MobileFound,
  PersonalEmailFound,
  PersonFound,
  ProfileEmailFound,
  ProfileSearchFound,
  RoleFound,
} from '../contract/people.ts';
import { PeopleRepository } from './repository.ts';
import { findRoleHolder, type RoleQuery } from './role-finder.ts';
import { findMobile, type MobileQuery } from './mobile-finder.ts';
import { findProfileEmail, type EmailValidator } from './profile-email.ts';
import { findEmail, type EmailFinderQuery, type EmailFinderResult, type FinderValidator } from './email-finder.ts';
import { DEFAULT_PROFILE_BASE_URL, normalizeProfileId, profileUrlFor } from './profile.ts';
import { mobileNumberOf } from './phones.ts';
import { searchPeople, type PeopleSearchQuery } from './people-search.ts';
import { historyOf, jobChangeOf, personalAddresses, personByEmail, personByProfile, servedPosition } from './profile-lookups.ts';

/** The most employees one read of the employee finder takes (a page of the API). */
const EMPLOYEES_PER_READ = 50;

export type { EmailValidator } from './profile-email.ts';

export interface PeopleServiceDeps {
  db: Db;
  companies: Pick<CompanyService, 'resolve' | 'getById'> & Partial<Pick<CompanyService, 'leadersOf'>>;
  /** The email validation engine; without it, profile-to-email serves only stored verified addresses and the finder finds nothing. */
  emailValidator?: (EmailValidator & Partial<FinderValidator>) | null;
  /** Served profile URLs are this base plus the public identifier. */
  profileBaseUrl?: string;
  /** Candidate addresses checked per domain by profile-to-email. */
  maxEmailCandidates?: number;
}

export class PeopleService {
  readonly repository: PeopleRepository;
  private readonly profileBaseUrl: string;

  constructor(private readonly deps: PeopleServiceDeps) {
    this.repository = new PeopleRepository(deps.db);
    this.profileBaseUrl = deps.profileBaseUrl || DEFAULT_PROFILE_BASE_URL;
  }

  profileUrl(profileId: string | null): string | null {
    return profileId ? profileUrlFor(profileId, this.profileBaseUrl) : null;
  }

  /** The best current holder of a title at a company (by domain, else unambiguous name), or null. */
  async findRole(query: RoleQuery): Promise<RoleFound | null> {
    const found = await findRoleHolder(this.repository, this.deps.companies, query);
    if (!found) return null;
    const { company } = found;
    const companyFields = {
      company_name: company.name,
      company_website: websiteOf(company),
    };
    if ('leader' in found) {
      const { leader } = found;
      return {
        name: [leader.first_name, leader.last_name].filter(Boolean).join(' '),
        profile_url: this.profileUrl(normalizeProfileId(leader.prof_url)),
        first_name: leader.first_name,
        last_name: leader.last_name,
        ...companyFields,
      };
    }
    const { holder } = found;
    return {
      name: holder.full_name,
      profile_url: this.profileUrl(holder.profile_id),
      first_name: holder.first_name,
      last_name: holder.last_name,
      ...companyFields,
    };
  }

  /**
   * Employee finder: `count` of the people with a current position at the company (most senior
   * first) from `offset`, and how many there are; null when the company is not known. A count
   * above one page is read a page at a time, so no single read is larger than a page.
   */
  async employees(
    query: { company_name?: string | null; company_domain?: string | null },
    offset: number,
    count: number,
  ): Promise<{ total: number; employees: Employee[] } | null> {
    const company = await this.deps.companies.resolve(query);
    if (!company) return null;
    const firstRead = Math.min(EMPLOYEES_PER_READ, count);
    const [total, rows] = await Promise.all([
      this.repository.countCurrentEmployees(company.id),
      this.repository.currentEmployees(company.id, offset, firstRead),
    ]);
    for (let at = offset + firstRead; at < offset + count && rows.length === at - offset; at += EMPLOYEES_PER_READ)
      rows.push(...(await this.repository.currentEmployees(company.id, at, Math.min(EMPLOYEES_PER_READ, offset + count - at))));
    const website = websiteOf(company);
    return {
      total,
      employees: rows.map((r) => ({
        first_name: r.first_name,
        last_name: r.last_name,
        full_name: r.full_name,
        title: r.title,
        profile_url: this.profileUrl(r.profile_id),
        website,
        company_name: company.name,
      })),
    };
  }

  /** A person's work address from their name and company (the email finder). */
  async findEmail(query: EmailFinderQuery): Promise<EmailFinderResult> {
    const validator = this.deps.emailValidator;
    if (!validator?.validate) throw new Error('the email finder needs the email validation engine');
    const resolveDomain = async (name: string) => (await this.deps.companies.resolve({ company_name: name }))?.domain ?? null;
    return findEmail(this.repository, resolveDomain, validator, query);
  }

  /** A mobile (or possibly mobile) number, as digits with country code, or null. */
  async findMobile(query: MobileQuery): Promise<MobileFound | null> {
    const found = await findMobile(this.repository, query);
    if (!found) return null;
    return { profile_url: this.profileUrl(found.profileId), mobile_number: mobileNumberOf(found.phone.e164) };
  }

  /** A verified work address for a profile identifier (or URL), or null. */
  async findProfileEmail(profile: string): Promise<ProfileEmailFound | null> {
    const found = await findProfileEmail(
      this.repository,
      (id) => this.deps.companies.getById(id),
      this.deps.emailValidator ?? null,
      profile,
      { maxCandidates: this.deps.maxEmailCandidates },
    );
    if (!found) return null;
    return { profile_url: this.profileUrl(found.profileId)!, email: found.email };
  }

  /** The person holding an address, with their profile URL and current position; null when no one person with a profile holds it. */
  async emailToProfile(email: string): Promise<EmailToProfileFound | null> {
    const person = await personByEmail(this.repository, email);
    if (!person?.profile_id) return null;
    const current = (await historyOf(this.repository, person.id)).find((p) => p.is_current === 1);
    return {
      profile_url: this.profileUrl(person.profile_id)!,
      full_name: person.full_name,
      first_name: person.first_name,
      last_name: person.last_name,
      job_title: current?.title ?? null,
      company_name: current?.company_name ?? null,
      company_website: current ? servedPosition(current).company_website : null,
    };
  }

  /** A profile's person with their current and past positions, or null. */
  async profileSearch(profile: string): Promise<ProfileSearchFound | null> {
    const person = await personByProfile(this.repository, profile);
    if (!person) return null;
    const history = await historyOf(this.repository, person.id);
    const current = history.find((p) => p.is_current === 1);
    return {
      profile_url: this.profileUrl(person.profile_id),
      public_identifier: person.profile_id,
      full_name: person.full_name,
      first_name: person.first_name,
      last_name: person.last_name,
      professional_title: current?.title ?? null,
      company_name: current?.company_name ?? null,
      company_website: current ? servedPosition(current).company_website : null,
      company_industry: current?.industry ?? null,
      company_size: current?.employee_count ?? null,
      work_experience: history.map(servedPosition),
    };
  }

  /** The personal addresses held for a profile, best first; null when the profile or its addresses are unknown. */
  async personalEmails(profile: string): Promise<PersonalEmailFound | null> {
    const person = await personByProfile(this.repository, profile);
    if (!person) return null;
    const addresses = personalAddresses(await this.repository.emailsOf(person.id));
    if (!addresses.length) return null;
    return { profile_url: this.profileUrl(person.profile_id)!, personal_email: addresses[0], personal_emails: addresses };
  }

  /** People search (src/people/people-search.ts): a page of the people matching, most senior first, and how many match (exact, or an estimate above a cap). */
  async search(query: PeopleSearchQuery): Promise<{ total: number; exact: boolean; people: PersonFound[] }> {
    const { count, rows } = await searchPeople(this.deps.db, query);
    return {
      ...count,
      people: rows.map((r) => ({
        full_name: r.full_name,
        first_name: r.first_name,
        last_name: r.last_name,
        profile_url: this.profileUrl(r.profile_id),
        job_title: r.title,
        job_function: r.job_function,
        job_level: r.job_level.split(' ').at(-1)!,
        company_name: r.company_name,
        company_domain: r.company_domain,
        company_website: r.company_website ?? (r.company_domain ? `https://${r.company_domain}` : null),
        company_industry: r.company_industry,
        company_size: r.company_size,
        company_country: r.company_country,
        has_email: r.has_email === 1,
      })),
    };
  }

  /** Whether a profile's person still works at a company, from their positions history; null when either is unknown. */
  async jobChange(
    profile: string,
    company: { company_domain?: string | null; company_name?: string | null },
  ): Promise<JobChangeFound | null> {
    const [person, known] = await Promise.all([personByProfile(this.repository, profile), this.deps.companies.resolve(company)]);
    if (!person || !known) return null;
    const history = await historyOf(this.repository, person.id);
    const change = jobChangeOf(history, known.id);
    return {
      profile_url: this.profileUrl(person.profile_id),
      job_change_detected: change.status === 'JOB_CHANGE_DETECTED',
      status: change.status,
      company_name: known.name,
      changed_at: change.changedAt,
      previous_position: change.previous,
      current_position: change.current,
      work_history: history.map(servedPosition),
    };
  }
}
