// What a source reports about a person (our JSONL format, docs/people.md), checked and reduced to
// stored form: parsed name, profile identifier, positions with their roles, emails, E.164 phones.
import { normalizeDomain } from '../companies/normalize.ts';
import { parsePersonName, type PersonName } from './names.ts';
import { normalizeProfileId } from './profile.ts';
import { parsePhone, type ParsedPhone } from './phones.ts';
import { storedRoles, type TitleRole } from './titles.ts';
import { everyKeyOf } from '../platform/field-list.ts';

export interface PositionInput {
  company_name?: string | null;
  company_domain?: string | null;
  title?: string | null;
  /** Dates: "2021", "2021-04", "2021-04-01" or any ISO 8601 instant. */
  start?: string | null;
  end?: string | null;
  /** Defaults to "no end date". */
  current?: boolean | null;
}

export interface EmailInput {
  email: string;
  /** work or personal; when absent, guessed from the domain (free mail providers are personal). */
  type?: string | null;
  /** The source's verification: an email_status (valid, invalid …) or true/false. */
  status?: string | null;
  verified?: boolean | null;
  verified_at?: string | null;
}

export interface PhoneInput {
  number: string;
  /** The source's wording: mobile, cell, landline, work … */
  type?: string | null;
  /** Country for numbers written without +country code (else the import's default). */
  country?: string | null;
}

export interface PersonInput {
  /** The source's own id of the person (identity across re-imports when there is no profile). */
  id?: string | number | null;
  full_name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  /** Profile URL or public identifier. */
  profile_url?: string | null;
  positions?: PositionInput[] | null;
  emails?: EmailInput[] | null;
  phones?: PhoneInput[] | null;
}

/** Every field of PersonInput (checked by everyKeyOf): a record's other keys are reported as not read, never dropped silently. */
export const PERSON_INPUT_FIELDS = everyKeyOf<PersonInput>()([
  'id',
  'full_name',
  'first_name',
  'last_name',
  'profile_url',
  'positions',
  'emails',
  'phones',
]);

export interface PreparedPosition {
  company: { name: string | null; domain: string | null };
  title: string;
  titleNormalized: string;
  modifier: number;
  roles: TitleRole[];
  isCurrent: boolean;
  startedAt: number | null;
  endedAt: number | null;
}

export interface PreparedEmail {
  email: string;
  kind: 'work' | 'personal';
  domain: string;
  status: string | null;
  verifiedAt: number | null;
}

export interface PreparedPerson {
  name: PersonName;
  profileId: string | null;
  profileUrl: string | null;
  externalId: string | null;
  positions: PreparedPosition[];
  emails: PreparedEmail[];
  phones: ParsedPhone[];
  /** Facts that were dropped without rejecting the person ("phone 2: not a valid number"). */
  warnings: string[];
}

export class PersonInputError extends Error {}

const EMAIL_STATUSES = new Set(['valid', 'valid_catch_all', 'catch_all', 'unknown', 'invalid']);
// Free and consumer mail providers: an address there is personal, not work.
const PERSONAL_DOMAINS = new Set([
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'yahoo.co.uk',
  'yahoo.fr',
  'ymail.com',
  'hotmail.com',
  'hotmail.co.uk',
  'hotmail.fr',
  'outlook.com',
  'live.com',
  'msn.com',
  'aol.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'protonmail.com',
  'proton.me',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  'mail.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'qq.com',
  '163.com',
  '126.com',
  'zoho.com',
  'fastmail.com',
  'hey.com',
  'orange.fr',
  'free.fr',
  'laposte.net',
  'libero.it',
  't-online.de',
  'comcast.net',
  'verizon.net',
  'att.net',
  'sbcglobal.net',
  'btinternet.com',
  'naver.com',
]);

export function isPersonalMailDomain(domain: string): boolean {
  return PERSONAL_DOMAINS.has(domain.toLowerCase());
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);

/** "2021", "2021-04", "2021-04-01", ISO instants → epoch ms (UTC); null when blank. Throws on junk. */
export function parsePositionDate(value: unknown, field: string): number | null {
  const text = str(value);
  if (!text) return null;
  const m = /^(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?$/.exec(text);
  if (m) {
    const month = m[2] ? Number(m[2]) : 1;
    const day = m[3] ? Number(m[3]) : 1;
    if (month < 1 || month > 12 || day < 1 || day > 31) throw new PersonInputError(`${field}: "${text}" is not a date`);
    return Date.UTC(Number(m[1]), month - 1, day);
  }
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new PersonInputError(`${field}: "${text}" is not a date`);
  return ms;
}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function prepareEmail(e: EmailInput, field: string): PreparedEmail {
  const email = str(e?.email)?.toLowerCase();
  if (!email || !EMAIL_SHAPE.test(email)) throw new PersonInputError(`${field}: "${e?.email ?? ''}" is not an email address`);
  const domain = normalizeDomain(email);
  if (!domain) throw new PersonInputError(`${field}: "${email}" has no usable domain`);
  const type = str(e.type)?.toLowerCase();
  let kind: 'work' | 'personal';
  if (type === 'work' || type === 'business' || type === 'professional') kind = 'work';
  else if (type === 'personal' || type === 'private' || type === 'home') kind = 'personal';
  else if (type) throw new PersonInputError(`${field}: type "${type}" is not work or personal`);
  else kind = isPersonalMailDomain(domain) ? 'personal' : 'work';
  let status = str(e.status)?.toLowerCase() ?? null;
  if (status && !EMAIL_STATUSES.has(status)) throw new PersonInputError(`${field}: status "${status}" is not an email_status`);
  if (!status && typeof e.verified === 'boolean') status = e.verified ? 'valid' : 'invalid';
  const verifiedAt = status ? (parsePositionDate(e.verified_at, `${field}.verified_at`) ?? null) : null;
  return { email, kind, domain, status, verifiedAt };
}

/**
 * Checks and reduces one person. Throws PersonInputError when the person cannot be stored at all
 * (no name); a bad phone or email is dropped with a warning, so one typo does not lose the person.
 */
export function preparePerson(input: PersonInput, defaultCountry: string | null): PreparedPerson {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new PersonInputError('a person must be an object');
  const name = parsePersonName({ full: str(input.full_name), first: str(input.first_name), last: str(input.last_name) });
  if (!name) throw new PersonInputError('full_name or first_name/last_name is required');
  const warnings: string[] = [];
  const rawProfile = str(input.profile_url);
  const profileId = rawProfile ? normalizeProfileId(rawProfile) : null;
  if (rawProfile && !profileId) warnings.push(`profile_url: "${rawProfile}" names no profile`);

  const positions: PreparedPosition[] = [];
  const list = <T>(v: T[] | null | undefined, field: string): T[] => {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) throw new PersonInputError(`${field} must be an array`);
    return v;
  };
  list(input.positions, 'positions').forEach((p, i) => {
    const field = `positions[${i}]`;
    const title = str(p?.title);
    const companyName = str(p?.company_name);
    const companyDomain = str(p?.company_domain) ? normalizeDomain(str(p.company_domain)!) : null;
    if (!title) return warnings.push(`${field}: no title`);
    if (!companyName && !companyDomain) return warnings.push(`${field}: no company_name or usable company_domain`);
    const startedAt = parsePositionDate(p.start, `${field}.start`);
    const endedAt = parsePositionDate(p.end, `${field}.end`);
    const isCurrent = typeof p.current === 'boolean' ? p.current : endedAt === null;
    const analyzed = storedRoles(title);
    positions.push({
      company: { name: companyName, domain: companyDomain },
      title,
      titleNormalized: analyzed.normalized,
      modifier: analyzed.modifier,
      roles: analyzed.roles,
      isCurrent,
      startedAt,
      endedAt: isCurrent ? null : endedAt,
    });
  });

  const emails: PreparedEmail[] = [];
  list(input.emails, 'emails').forEach((e, i) => {
    try {
      const prepared = prepareEmail(e, `emails[${i}]`);
      if (!emails.some((x) => x.email === prepared.email)) emails.push(prepared);
    } catch (error) {
      warnings.push((error as Error).message);
    }
  });

  const phones: ParsedPhone[] = [];
  list(input.phones, 'phones').forEach((ph, i) => {
    const raw = str(ph?.number);
    const parsed = raw ? parsePhone(raw, str(ph.country) ?? defaultCountry, str(ph.type)) : null;
    if (!parsed) return warnings.push(`phones[${i}]: "${raw ?? ''}" is not a valid phone number`);
    if (!phones.some((x) => x.e164 === parsed.e164)) phones.push(parsed);
  });

  return {
    name,
    profileId,
    profileUrl: rawProfile,
    externalId: str(input.id),
    positions,
    emails,
    phones,
    warnings,
  };
}
