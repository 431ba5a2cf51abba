import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { hasNeutralNames, withOriginalNames } from '../contract/original-names.ts';
import type { Static } from '@sinclair/typebox';
import type { OperationContext } from '../operations/context.ts';
import { OPERATIONS, spellingsOf, type BodyOf, type ChargedOperationId } from '../operations/catalogue.ts';
import { routeOptions } from './route-options.ts';
import type { Answer } from '../operations/answer.ts';

/**
 * The route of a charged operation that answers its POST body: `answer` computes the result and
 * its price, and the billing plugin settles it. The same `answer` serves the other surfaces
 * (LeadMagic v1, MCP), so every surface charges alike. The answer carries the original API's
 * field names beside our contract's (contract/original-names.ts). The body is validated against the
 * operation's schema before `answer` sees it, so its type is the schema's.
 */
export function answerRoute<const Id extends ChargedOperationId>(
  id: Id,
  answer: (context: OperationContext, body: Static<NonNullable<BodyOf<Id>>>) => Promise<Answer<object>>,
): (fastify: FastifyInstance) => Promise<void> {
  const options = routeOptions(id) as RouteShorthandOptions & { schema: object };
  // Only answers with a neutral field name are copied to add the original names.
  const originalNames = hasNeutralNames(OPERATIONS[id].response);
  return async (app) => {
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const { cost, body } = await answer(app.services, request.body as Static<NonNullable<BodyOf<Id>>>);
      return reply.settle(cost, originalNames ? withOriginalNames(body) : body);
    };
    app.post(OPERATIONS[id].path, options, handler);
    // The same operation under the other paths its clients send (left out of OpenAPI).
    for (const path of spellingsOf(id).plain) app.post(path, { ...options, schema: { ...options.schema, hide: true } }, handler);
  };
}
