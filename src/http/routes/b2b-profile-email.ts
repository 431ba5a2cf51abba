import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { requireNonBlank } from '../errors.ts';
import { notFoundBody, OPERATIONS, PRICE_OF, routeOptions } from '../operations.ts';

const op = OPERATIONS['b2b-profile-email'];

export default async function profileEmailRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(op.path, routeOptions('b2b-profile-email'), async (request, reply) => {
    const profile = requireNonBlank(request.body, 'profile_url');
    const found = await app.services.people.findProfileEmail(profile);
    if (!found) return reply.settle(PRICE_OF['b2b-profile-email'](false), notFoundBody('b2b-profile-email'));
    return reply.settle(PRICE_OF['b2b-profile-email'](true), { ...found, message: op.messages.found });
  });
}
