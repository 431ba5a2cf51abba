import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { requireOneOf } from '../errors.ts';
import { notFoundBody, OPERATIONS, PRICE_OF, routeOptions } from '../operations.ts';

const op = OPERATIONS['company-funding'];

export default async function companyFundingRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(op.path, routeOptions('company-funding'), async (request, reply) => {
    requireOneOf(request.body, ['company_name', 'company_domain']);
    const result = await app.services.companies.funding({
      company_name: request.body.company_name?.trim() || null,
      company_domain: request.body.company_domain?.trim() || null,
    });
    if (!result) return reply.settle(PRICE_OF['company-funding'](false), notFoundBody('company-funding'));
    return reply.settle(PRICE_OF['company-funding'](true), { ...result, message: op.messages.found });
  });
}
