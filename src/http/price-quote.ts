// The most a call can cost, said before it is made (the console's Explore screen, docs/console.md):
// the operation's own price rule (PRICE_OF) applied to the fullest answer its body allows. A lookup
// costs its price when it finds something; a search costs its per-item price times the most items
// its page can hold. A call the API refuses (400, 402, 429) costs nothing, so this stays an upper bound.
import { JobsFinderBody } from '../contract/jobs.ts';
import { EmployeeFinderBody, PeopleSearchBody } from '../contract/people.ts';
import { employeePageSizeOf } from '../operations/employee-finder.ts';
import { OPERATIONS, PRICE_OF } from '../operations/catalogue.ts';
import type { BulkOperationId } from '../operations/bulk-products.ts';

/** The operations the Explore screen makes: searches and finders of companies, jobs and people. */
export const EXPLORE_OPERATIONS = [
  'company-search',
  'jobs-finder',
  'people-search',
  'employee-finder',
  'role-finder',
  'email-finder',
  'mobile-finder',
] as const;
export type ExploreOperationId = (typeof EXPLORE_OPERATIONS)[number];

export function isExploreOperation(value: unknown): value is ExploreOperationId {
  return typeof value === 'string' && (EXPLORE_OPERATIONS as readonly string[]).includes(value);
}

export interface PriceQuote {
  /** Millicredits: the most the call can be charged. */
  most: number;
  /** A search: how many items its page can hold at most, each at `each` millicredits. */
  items?: number;
  each?: number;
  /** The operation's price rule in words. */
  rule: string;
}

/** A page size the body asks for, when it is a whole number the schema allows; else the schema's default. */
function pageSize(value: unknown, schema: { default?: unknown; maximum?: number }): number {
  const fallback = Number(schema.default);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) return fallback;
  return schema.maximum === undefined ? value : Math.min(value, schema.maximum);
}

/** The employee finder's two size fields, each kept when it is a whole number the schema allows. */
function employeeSizes(body: Record<string, unknown>): EmployeeFinderBody {
  const sized = (value: unknown, max: number | undefined) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 1 ? Math.min(value, max ?? value) : undefined;
  const { limit, per_page: perPage } = EmployeeFinderBody.properties;
  return { limit: sized(body.limit, limit.maximum), per_page: sized(body.per_page, perPage.maximum) };
}

/** An empty answer of `n` items, for the per-item price rules. */
const itemsOf = (n: number): unknown[] => Array.from({ length: n });

export function quoteOf(id: ExploreOperationId, body: Record<string, unknown>): PriceQuote {
  const rule = OPERATIONS[id].charge.rule;
  const perItem = (n: number, price: (n: number) => number): PriceQuote => ({ most: price(n), items: n, each: price(1), rule });
  switch (id) {
    case 'jobs-finder':
      return perItem(pageSize(body.per_page, JobsFinderBody.properties.per_page), (n) => PRICE_OF[id]({ results: itemsOf(n) }));
    case 'people-search':
      return perItem(pageSize(body.per_page, PeopleSearchBody.properties.per_page), (n) => PRICE_OF[id]({ data: itemsOf(n) }));
    case 'employee-finder':
      // The route's own reading of limit and per_page (it refuses the two disagreeing, as the call would).
      return perItem(employeePageSizeOf(employeeSizes(body)), (n) => PRICE_OF[id]({ data: itemsOf(n) }));
    case 'email-finder':
      return { most: PRICE_OF[id]({ status: 'valid' }), rule };
    default:
      return { most: PRICE_OF[id](true), rule };
  }
}

/**
 * The most one row of a bulk job can cost (the console's Lists screen, docs/console.md): its
 * operation's price rule applied to a found answer. Rows not found and refused rows are free, so a
 * list's rows times this is an upper bound of what the list is charged.
 */
export function rowQuoteOf(id: BulkOperationId): PriceQuote {
  const rule = OPERATIONS[id].charge.rule;
  switch (id) {
    case 'email-validate':
      return { most: PRICE_OF[id]({ email_status: 'valid' }), rule };
    case 'email-finder':
      return { most: PRICE_OF[id]({ status: 'valid' }), rule };
    default:
      return { most: PRICE_OF[id](true), rule };
  }
}
