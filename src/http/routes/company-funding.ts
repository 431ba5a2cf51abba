import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { CompanyFundingBody } from '../../contract/companies.ts';
import type { Services } from '../../services.ts';
import { requireOneOf } from '../errors.ts';
import { notFoundBody, OPERATIONS, PRICE_OF, routeOptions, type Answer } from '../operations.ts';

const op = OPERATIONS['company-funding'];

export async function companyFunding(services: Services, request: CompanyFundingBody): Promise<Answer> {
  requireOneOf(request, ['company_name', 'company_domain']);
  const result = await services.companies.funding({
    company_name: request.company_name?.trim() || null,
    company_domain: request.company_domain?.trim() || null,
  });
  if (!result) return { cost: PRICE_OF['company-funding'](false), body: notFoundBody('company-funding') };
  return { cost: PRICE_OF['company-funding'](true), body: { ...result, message: op.messages.found } };
}

export default async function companyFundingRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(op.path, routeOptions('company-funding'), async (request, reply) => {
    const { cost, body } = await companyFunding(app.services, request.body);
    return reply.settle(cost, body);
  });
}
