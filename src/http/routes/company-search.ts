import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { CompanySearchBody } from '../../contract/companies.ts';
import type { Services } from '../../services.ts';
import { requireOneOf } from '../errors.ts';
import { notFoundBody, OPERATIONS, PRICE_OF, routeOptions, type Answer } from '../operations.ts';

const op = OPERATIONS['company-search'];

export async function companySearch(services: Services, request: CompanySearchBody): Promise<Answer> {
  requireOneOf(request, ['company_domain', 'company_name', 'profile_url']);
  const profile = await services.companies.profile({
    company_domain: request.company_domain?.trim() || null,
    company_name: request.company_name?.trim() || null,
    profile_url: request.profile_url?.trim() || null,
  });
  if (!profile) return { cost: PRICE_OF['company-search'](false), body: notFoundBody('company-search') };
  return { cost: PRICE_OF['company-search'](true), body: { ...profile, message: op.messages.found } };
}

/** POST /company-search: a company's profile from the company store (1 credit when found). */
export default async function companySearchRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(op.path, routeOptions('company-search'), async (request, reply) => {
    const { cost, body } = await companySearch(app.services, request.body);
    return reply.settle(cost, body);
  });
}
