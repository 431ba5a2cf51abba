import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { requireOneOf } from '../errors.ts';
import { notFoundBody, OPERATIONS, PRICE_OF, routeOptions } from '../operations.ts';

const op = OPERATIONS['mobile-finder'];

export default async function mobileFinderRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(op.path, routeOptions('mobile-finder'), async (request, reply) => {
    requireOneOf(request.body, ['profile_url', 'work_email', 'personal_email']);
    const found = await app.services.people.findMobile({
      profile_url: request.body.profile_url?.trim() || null,
      work_email: request.body.work_email?.trim() || null,
      personal_email: request.body.personal_email?.trim() || null,
    });
    if (!found) return reply.settle(PRICE_OF['mobile-finder'](false), notFoundBody('mobile-finder'));
    return reply.settle(PRICE_OF['mobile-finder'](true), { ...found, message: op.messages.found });
  });
}
