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

/** Millicredits charged for a validation with this status: 0.05 credits when the answer is definite. */
export function emailValidationCost(status: EmailStatus): number {
  return status === 'valid' || status === 'valid_catch_all' || status === 'invalid' ? 50 : 0;
}
