import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { OPERATIONS, spellingsOf, type OperationBase, type OperationId } from '../operations/catalogue.ts';
import { routeOptions } from './route-options.ts';

/**
 * The handler of an operation's route: its request typed by the operation's schemas; its reply
 * left untyped, since an accepted operation answers 202 where its documented answer is 200.
 */
export type OperationHandler<Id extends OperationId> = (
  this: FastifyInstance,
  request: FastifyRequest<
    RouteGenericInterface,
    RawServerDefault,
    RawRequestDefaultExpression,
    ReturnType<typeof routeOptions<Id>>['schema'],
    TypeBoxTypeProvider
  >,
  reply: FastifyReply,
) => unknown;

/**
 * The one way a route of the catalogue is registered: on each of the operation's methods, at its
 * path with its route options (routeOptions), and at each of its plain spellings, served alike and
 * left out of the OpenAPI document. `extra` adds route options the catalogue does not describe (a
 * larger body limit). answerRoute is the charged-lookup form of it.
 */
export function operationRoute<const Id extends OperationId>(
  app: FastifyInstance,
  id: Id,
  handler: OperationHandler<Id>,
  extra: { bodyLimit?: number } = {},
): void {
  const op: OperationBase = OPERATIONS[id];
  for (const method of op.methods) {
    const options = routeOptions(id, method) as { schema: object; config: object };
    const route = { ...options, ...extra, method, handler: handler as RouteHandlerMethod };
    app.route({ ...route, url: op.path });
    for (const url of spellingsOf(id).plain) app.route({ ...route, url, schema: { ...options.schema, hide: true } });
  }
}
