import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { Services } from '../../services.ts';
import { OPERATIONS, routeOptions, type Answer, type BodyOf, type ChargedOperationId } from '../operations.ts';

/**
 * The route of a charged operation that answers its POST body: `answer` computes the result and
 * its price, and the billing plugin settles it. The same `answer` serves the other surfaces
 * (LeadMagic v1, MCP), so every surface charges alike. The body is validated against the
 * operation's schema before `answer` sees it, so its type is the schema's.
 */
export function answerRoute<const Id extends ChargedOperationId>(
  id: Id,
  answer: (services: Services, body: Static<NonNullable<BodyOf<Id>>>) => Promise<Answer<object>>,
): (fastify: FastifyInstance) => Promise<void> {
  const options: RouteShorthandOptions = routeOptions(id);
  return async (app) => {
    app.post(OPERATIONS[id].path, options, async (request, reply) => {
      const { cost, body } = await answer(app.services, request.body as Static<NonNullable<BodyOf<Id>>>);
      return reply.settle(cost, body);
    });
  };
}
