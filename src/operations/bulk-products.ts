// The products a bulk job runs (docs/bulk.md): each is one operation, and a row of it is read and
// answered exactly as that operation's single call is: the same request forms (client-forms.ts),
// the same schema, the same answer function and price, the same original field names beside ours.
import { Ajv } from 'ajv';
import type { TObject } from '@sinclair/typebox';
import type { OperationContext } from './context.ts';
import type { BulkProduct, RowError } from '../bulk/service.ts';
import type { BULK_PRODUCTS } from '../contract/bulk.ts';
import { hasNeutralNames, withOriginalNames } from '../contract/original-names.ts';
import { contractForm, otherNamesOf } from './client-forms.ts';
import { AppError } from './errors.ts';
import { OPERATIONS, type ChargedOperationId } from './catalogue.ts';
import type { Answer } from './answer.ts';
import { schemaErrors } from './schema-errors.ts';
import { validateEmail } from './email-validate.ts';
import { findEmail } from './email-finder.ts';
import { findMobile } from './mobile-finder.ts';
import { companySearch } from './company-search.ts';
import { profileSearch } from './profile-search.ts';

type ProductName = (typeof BULK_PRODUCTS)[number];
/** The operations whose single calls bulk rows are. */
export type BulkOperationId = Extract<
  ChargedOperationId,
  'email-finder' | 'email-validate' | 'mobile-finder' | 'company-search' | 'profile-search'
>;

/** Each product's operation and its single call's answer. */
const PRODUCTS: Record<
  ProductName,
  { operation: BulkOperationId; answer: (context: OperationContext, body: never) => Promise<Answer<object>> }
> = {
  email_finder: { operation: 'email-finder', answer: findEmail },
  email_validation: { operation: 'email-validate', answer: validateEmail },
  mobile_finder: { operation: 'mobile-finder', answer: findMobile },
  company_search: { operation: 'company-search', answer: companySearch },
  profile_search: { operation: 'profile-search', answer: profileSearch },
};

// The same validation options as the app's routes (src/http/app.ts).
const ajv = new Ajv({ coerceTypes: false, allErrors: true, removeAdditional: false, useDefaults: true, strict: false });

const refusal = (error: unknown): RowError | null =>
  error instanceof AppError && error.statusCode === 400
    ? { message: error.message, ...(error.details ? { details: error.details } : {}) }
    : null;

/** The operation whose single call a row of the product is. */
export const bulkOperationOf = (name: ProductName): BulkOperationId => PRODUCTS[name].operation;

/** The names a row of the product is read with: its operation's request fields, then the other names its single call takes. */
export function bulkFieldsOf(name: ProductName): string[] {
  const { operation } = PRODUCTS[name];
  return [...Object.keys((OPERATIONS[operation].body as TObject).properties), ...otherNamesOf(operation)];
}

function product(context: OperationContext, name: ProductName): BulkProduct {
  const { operation, answer } = PRODUCTS[name];
  const schema = OPERATIONS[operation].body as TObject;
  const validate = ajv.compile(schema);
  const originalNames = hasNeutralNames(OPERATIONS[operation].response);
  return {
    operation,
    read(row) {
      if (typeof row !== 'object' || row === null || Array.isArray(row)) {
        return {
          error: { message: 'A row must be an object of the request fields.', details: [{ field: '/', message: 'must be object' }] },
        };
      }
      let input: unknown;
      try {
        input = contractForm(operation, structuredClone(row), schema);
      } catch (error) {
        const refused = refusal(error);
        if (refused) return { error: refused };
        throw error;
      }
      if (!validate(input)) return { error: schemaErrors(validate.errors ?? []) };
      return { input: input };
    },
    async answer(input) {
      try {
        const { cost, body } = await answer(context, input as never);
        // Email validation answers every address; the lookups found something when they charge.
        return { cost, body: originalNames ? withOriginalNames(body) : body, found: operation === 'email-validate' || cost > 0 };
      } catch (error) {
        const refused = refusal(error);
        if (refused) return { error: refused };
        throw error;
      }
    },
  };
}

/** Every bulk product over these domain services. */
export function bulkProducts(context: OperationContext): Record<ProductName, BulkProduct> {
  return Object.fromEntries((Object.keys(PRODUCTS) as ProductName[]).map((name) => [name, product(context, name)])) as Record<
    ProductName,
    BulkProduct
  >;
}
