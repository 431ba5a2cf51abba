import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasNeutralNames, withOriginalNames } from '../contract/original-names.ts';
import type { Static } from '@sinclair/typebox';
import type { OperationContext } from '../operations/context.ts';
import { OPERATIONS, type BodyOf, type ChargedOperationId } from '../operations/catalogue.ts';
import { operationRoute, type OperationHandler } from './operation-route.ts';
import type { Answer } from '../operations/answer.ts';

/**
 * The route of a charged operation that answers its POST body: `answer` computes the result and
 * its price, and the billing plugin settles it. The same `answer` serves the other surfaces
 * (LeadMagic v1, MCP), so every surface charges alike. The answer carries the original API's
 * field names beside our contract's (contract/original-names.ts). The body is validated against the
 * operation's schema before `answer` sees it, so its type is the schema's. It is registered as
 * every route of the catalogue is (operationRoute): at its path and at its plain spellings.
 */
export function answerRoute<const Id extends ChargedOperationId>(
  id: Id,
  answer: (context: OperationContext, body: Static<NonNullable<BodyOf<Id>>>) => Promise<Answer<object>>,
): (fastify: FastifyInstance) => Promise<void> {
  // Only answers with a neutral field name are copied to add the original names.
  const originalNames = hasNeutralNames(OPERATIONS[id].response);
  return async (app) => {
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const { cost, body } = await answer(app.services, request.body as Static<NonNullable<BodyOf<Id>>>);
      return reply.settle(cost, originalNames ? withOriginalNames(body) : body);
    };
    operationRoute(app, id, handler as OperationHandler<Id>);
  };
}
