// The email finder: a person's work address from their name and their company's domain (or name).
// Candidates come from the patterns the domain is seen to use (addresses of its people we store),
// then the common ones, and are checked together by the validation engine, which asks each mail
// host in its pooled sessions. Only an address the mail server accepts is `valid`. On a domain that
// accepts everything (catch-all), an address is `valid_catch_all` only with evidence: delivery
// evidence for that address, or a pattern the domain's known addresses follow; otherwise nothing is
// found (never a guess presented as found). An address of the person at the domain already
// verified valid in the people store is served first, without asking any mail server.
import type { EmailValidation } from '../contract/email.ts';
import { DNS_FAILING_MESSAGE } from '../email/messages.ts';
import { textKey } from '../platform/text-key.ts';
import { normalizeDomain } from '../companies/normalize.ts';
import { observedPatterns, rankedCandidates, type PatternName } from './email-patterns.ts';
import type { PeopleRepository } from './repository.ts';

export interface FinderValidator {
  validate(input: { email: string; first_name?: string; last_name?: string }): Promise<EmailValidation>;
}

export interface EmailFinderQuery {
  first_name: string;
  last_name: string;
  domain?: string | null;
  company_name?: string | null;
}

export type FinderStatus = 'valid' | 'valid_catch_all' | 'not_found';

export interface EmailFinderResult {
  email: string | null;
  status: FinderStatus;
  /** Why, in words (the response's message). */
  message: string;
  domain: string | null;
  /** The best answer among the candidates, for the MX and company fields (null when none was checked). */
  validation: EmailValidation | null;
}

/** Known addresses following one pattern needed before it counts as the domain's pattern on a catch-all domain. */
const PATTERN_EVIDENCE = 2;
/** Candidates checked per person at most (each is a RCPT in a pooled session); more when the domain shows no pattern. */
const MAX_CANDIDATES = 8;
const MAX_CANDIDATES_WITHOUT_PATTERN = 12;

const CATCH_ALL = new Set(['catch_all', 'valid_catch_all']);

/** The domain's pattern when its known addresses show one clearly: the most followed, with enough of them. */
function dominantPattern(observed: Map<PatternName, number>): PatternName | null {
  const ranked = [...observed].sort((a, b) => b[1] - a[1]);
  const [top, second] = ranked;
  if (!top || top[1] < PATTERN_EVIDENCE || (second && second[1] >= top[1])) return null;
  return top[0];
}

export async function findEmail(
  repository: PeopleRepository,
  resolveDomain: (companyName: string) => Promise<string | null>,
  validator: FinderValidator,
  query: EmailFinderQuery,
): Promise<EmailFinderResult> {
  const domain = query.domain ? normalizeDomain(query.domain) : query.company_name ? await resolveDomain(query.company_name) : null;
  if (!domain) {
    return {
      email: null,
      status: 'not_found',
      message: query.domain ? 'The domain is not a valid domain.' : 'No domain is known for this company; give its domain.',
      domain: null,
      validation: null,
    };
  }
  const known = await verifiedEmailOf(repository, domain, query);
  if (known)
    return { email: known, status: 'valid', message: 'Email found (verified before, in the people store).', domain, validation: null };
  const observed = observedPatterns(await repository.emailSamplesAtDomain(domain));
  const candidates = rankedCandidates(
    { first: query.first_name, last: query.last_name },
    domain,
    observed,
    observed.size ? MAX_CANDIDATES : MAX_CANDIDATES_WITHOUT_PATTERN,
  );
  if (!candidates.length)
    return { email: null, status: 'not_found', message: 'The name has no letters an address could be made of.', domain, validation: null };
  const ask = (emails: string[]) =>
    Promise.all(emails.map((email) => validator.validate({ email, first_name: query.first_name, last_name: query.last_name })));
  // When the domain's known addresses follow a pattern, its candidate alone first: usually the one.
  // Then the others all at once: the engine groups them into its sessions with the mail host.
  const answers = observed.size ? await ask(candidates.slice(0, 1)) : [];
  if (answers[0]?.email_status !== 'valid') answers.push(...(await ask(candidates.slice(answers.length))));
  const valid = answers.find((a) => a.email_status === 'valid');
  if (valid) return { email: valid.email, status: 'valid', message: 'Email found.', domain, validation: valid };
  const withEvidence = answers.find((a) => a.email_status === 'valid_catch_all');
  if (withEvidence)
    return {
      email: withEvidence.email,
      status: 'valid_catch_all',
      message: 'Email found on a catch-all domain, with delivery evidence for this address.',
      domain,
      validation: withEvidence,
    };
  const catchAll = answers.find((a) => CATCH_ALL.has(a.email_status) || a.is_domain_catch_all);
  if (catchAll) {
    const pattern = dominantPattern(observed);
    if (pattern) {
      // The first candidate follows the domain's most followed pattern (rankedCandidates orders them so).
      const email = candidates[0];
      return {
        email,
        status: 'valid_catch_all',
        message: `Email found on a catch-all domain: it follows the domain's known address pattern (${pattern}).`,
        domain,
        validation: answers[0],
      };
    }
    return {
      email: null,
      status: 'not_found',
      message: 'The domain accepts every address (catch-all) and nothing shows which one is the person’s.',
      domain,
      validation: catchAll,
    };
  }
  const unknown = answers.find((a) => a.email_status === 'unknown');
  return {
    email: null,
    status: 'not_found',
    message: !unknown
      ? 'No email found.'
      : unknown.message === DNS_FAILING_MESSAGE
        ? // Not "no such domain": our resolver denies names that exist (docs/email.md, "A failing resolver").
          'The domain could not be looked up: our DNS resolver is failing; try again later.'
        : 'The mail server did not confirm any address for now (it may be deferring us); try again later.',
    domain,
    validation: unknown ?? answers[0],
  };
}

/** The person's work address at the domain that the people store holds as verified valid, if any. */
async function verifiedEmailOf(repository: PeopleRepository, domain: string, query: EmailFinderQuery): Promise<string | null> {
  const first = textKey(query.first_name);
  const last = textKey(query.last_name);
  const held = await repository.verifiedEmailsAtDomain(domain);
  return held.find((e) => textKey(e.first_name ?? '') === first && textKey(e.last_name ?? '') === last)?.email ?? null;
}
