import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { requireNonBlank, requireOneOf } from '../errors.ts';
import { notFoundBody, OPERATIONS, PRICE_OF, routeOptions } from '../operations.ts';

const op = OPERATIONS['role-finder'];

export default async function roleFinderRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(op.path, routeOptions('role-finder'), async (request, reply) => {
    const jobTitle = requireNonBlank(request.body, 'job_title');
    requireOneOf(request.body, ['company_name', 'company_domain']);
    const found = await app.services.people.findRole({
      job_title: jobTitle,
      company_name: request.body.company_name?.trim() || null,
      company_domain: request.body.company_domain?.trim() || null,
    });
    if (!found) return reply.settle(PRICE_OF['role-finder'](false), notFoundBody('role-finder'));
    return reply.settle(PRICE_OF['role-finder'](true), { ...found, message: op.messages.found });
  });
}
