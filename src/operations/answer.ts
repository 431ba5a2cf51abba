// What a charged operation's answer function returns, and the answer of the lookups that find one
// record or nothing: every surface (our paths, LeadMagic's v1 paths, bulk rows) settles it alike.
import { notFoundBody, OPERATIONS, PRICE_OF, type OperationBase } from './catalogue.ts';

/** Lookups that answer one record or nothing, priced by whether they found it. */
type FoundOrNotId =
  | 'company-funding'
  | 'company-search'
  | 'role-finder'
  | 'mobile-finder'
  | 'b2b-profile-email'
  | 'b2b-profile'
  | 'profile-search'
  | 'personal-email-finder'
  | 'job-change-detector'
  | 'competitors-search'
  | 'technographics';

/** Such a lookup's answer: the record with the found message at its price, else the not-found body, free. */
export function lookupAnswer(id: FoundOrNotId, found: object | null): Answer {
  if (!found) return { cost: PRICE_OF[id](false), body: notFoundBody(id) };
  const op: OperationBase = OPERATIONS[id];
  return { cost: PRICE_OF[id](true), body: { ...found, message: op.messages!.found } };
}

/** A charged operation's result before it is settled: its price (millicredits) and its body without credits_consumed. */
export interface Answer<Body extends object = Record<string, unknown>> {
  cost: number;
  body: Body;
}
