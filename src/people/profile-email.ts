// Profile to email: a person's work address from their profile identifier. A stored address that
// was verified valid is served as is; otherwise candidates built from the person's name and their
// current company's domain are checked with the email validation engine, and only an address the
// engine calls `valid` is served (and remembered). Never a guess.
import type { CompanyRow } from '../companies/tables.ts';
import type { PeopleRepository } from './repository.ts';
import { observedPatterns, rankedCandidates } from './email-patterns.ts';
import { normalizeProfileId } from './profile.ts';

/** The email validation engine as profile-to-email uses it (src/email). */
export interface EmailValidator {
  validate(input: { email: string }): Promise<{ email_status: string }>;
}

export interface ProfileEmailOptions {
  /** Candidates checked per domain at most (each is an SMTP conversation). */
  maxCandidates?: number;
  now?: () => number;
}

// Answers that hold for every address of the domain: trying further candidates cannot do better.
const DOMAIN_WIDE = new Set(['catch_all', 'valid_catch_all']);
/** Consecutive `unknown` answers (unreachable or stalling mail server) after which a domain is given up. */
const MAX_UNKNOWN = 2;

export async function findProfileEmail(
  repository: PeopleRepository,
  getCompany: (id: number) => Promise<CompanyRow | null>,
  validator: EmailValidator | null,
  profile: string,
  options: ProfileEmailOptions = {},
): Promise<{ profileId: string; email: string } | null> {
  const profileId = normalizeProfileId(profile);
  if (!profileId) return null;
  const person = await repository.findByProfileId(profileId);
  if (!person) return null;
  const emails = await repository.emailsOf(person.id);
  const verified = emails
    .filter((e) => e.kind === 'work' && e.status === 'valid')
    .sort((a, b) => (b.verified_at ?? 0) - (a.verified_at ?? 0));
  if (verified.length) return { profileId, email: verified[0].email };
  if (!validator) return null;

  const known = new Map(emails.map((e) => [e.email, e.status]));
  const now = options.now ?? Date.now;
  for (const position of await repository.currentCompanies(person.id)) {
    const domain = position.domain ?? (await getCompany(position.company_id))?.domain;
    if (!domain) continue;
    const observed = observedPatterns(await repository.emailSamplesAtDomain(domain));
    const candidates = rankedCandidates({ first: person.first_name, last: person.last_name }, domain, observed, options.maxCandidates ?? 8);
    let unknown = 0;
    for (const email of candidates) {
      if (known.get(email) === 'invalid') continue;
      const { email_status } = await validator.validate({ email });
      if (email_status === 'valid') {
        await repository.recordEmail(person.id, email, 'work', domain, 'valid', 'derived', now());
        return { profileId, email };
      }
      if (DOMAIN_WIDE.has(email_status)) break;
      unknown = email_status === 'unknown' ? unknown + 1 : 0;
      if (unknown >= MAX_UNKNOWN) break;
    }
  }
  return null;
}
