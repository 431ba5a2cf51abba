// The console's Explore screen (docs/console.md, "Explore"): what it may call and what each call can
// cost before it is made. The calls themselves go to the API's own routes, with the console session
// in place of the key (admin-access.ts, consoleCallKey), so they are charged as any other call.
import type { FastifyInstance } from 'fastify';
import { InvalidRequestError } from '../../../operations/errors.ts';
import { adminRoute } from '../../../contract/admin.ts';
import { CALL_AS_HEADER } from '../../admin-access.ts';
import { OPERATIONS } from '../../../operations/catalogue.ts';
import { EXPLORE_OPERATIONS, isExploreOperation, quoteOf, type PriceQuote } from '../../price-quote.ts';
import { unitsToCredits } from '../../../billing/units.ts';

function quoteView(quote: PriceQuote) {
  return {
    most_credits: unitsToCredits(quote.most),
    ...(quote.items === undefined ? {} : { items: quote.items, each_credits: unitsToCredits(quote.each!) }),
    rule: quote.rule,
  };
}

export default async function adminExploreRoutes(app: FastifyInstance): Promise<void> {
  // The operations, each with its path, request schema (the form's fields) and price rule.
  app.get('/admin/explore', adminRoute('adminGetExplore'), async () => ({
    call_as_header: CALL_AS_HEADER,
    operations: EXPLORE_OPERATIONS.map((id) => {
      const op = OPERATIONS[id];
      return {
        id,
        method: op.methods[0],
        path: op.path,
        summary: op.summary,
        tag: op.tag,
        body: op.body,
        price: quoteView(quoteOf(id, {})),
      };
    }),
  }));

  // The most a call with this body can cost: the price shown before the call is made.
  app.post('/admin/explore/quote', adminRoute('adminQuoteExplore'), async (request) => {
    const { operation, body } = (request.body ?? {}) as { operation?: unknown; body?: unknown };
    if (!isExploreOperation(operation))
      throw new InvalidRequestError(`operation must be one of ${EXPLORE_OPERATIONS.join(', ')}.`, [
        { field: '/operation', message: 'unknown operation' },
      ]);
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body)))
      throw new InvalidRequestError('body must be the JSON object the operation takes.', [{ field: '/body', message: 'must be object' }]);
    return { operation, ...quoteView(quoteOf(operation, (body ?? {}) as Record<string, unknown>)) };
  });
}
