// Result messages and prices of email validation (docs/contract.md, Email validation messages and Charges).
import type { EmailStatus } from '../contract/email.ts';

export const EMAIL_MESSAGES: Record<EmailStatus, string> = {
  valid: 'Email is valid.',
  valid_catch_all: 'Email is valid (catch-all domain with engagement data).',
  catch_all: 'Domain accepts all emails (catch-all). Unable to verify specific address.',
  unknown: 'Unable to determine email validity.',
  invalid: 'Email is invalid.',
};

export const MALFORMED_MESSAGE = 'Email is invalid (malformed address).';

/** `unknown` because our DNS resolver denies names that exist (a sinkhole…): nothing is known of the domain. */
export const DNS_FAILING_MESSAGE = 'Unable to determine email validity (our DNS resolver is failing; try again later).';

/** The reason (ValidationDetail.reason) of an answer left unknown by a failing resolver. */
export const DNS_FAILING_REASON = 'dns_resolver_failing';

/** The message of an answer: its status's, or one that says why when the reason has its own. */
export function messageFor(status: EmailStatus, reason: string): string {
  return status === 'unknown' && reason === DNS_FAILING_REASON ? DNS_FAILING_MESSAGE : EMAIL_MESSAGES[status];
}

/** Millicredits charged for a validation with this status: 0.05 credits when the answer is definite. */
export function emailValidationCost(status: EmailStatus): number {
  return status === 'valid' || status === 'valid_catch_all' || status === 'invalid' ? 50 : 0;
}
