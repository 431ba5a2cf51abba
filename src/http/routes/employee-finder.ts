import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { EmployeeFinderBody, EmployeeFinderResponse } from '../../contract/people.ts';
import type { Services } from '../../services.ts';
import { requireOneOf } from '../errors.ts';
import { OPERATIONS, PRICE_OF, routeOptions, type Answer } from '../operations.ts';

const op = OPERATIONS['employee-finder'];

export async function findEmployees(
  services: Services,
  request: EmployeeFinderBody,
): Promise<Answer<Omit<EmployeeFinderResponse, 'credits_consumed'>>> {
  requireOneOf(request, ['company_name', 'company_domain']);
  const page = request.page ?? 1;
  const perPage = request.per_page ?? request.limit ?? 20;
  const found = await services.people.employees(
    { company_name: request.company_name?.trim() || null, company_domain: request.company_domain?.trim() || null },
    page,
    perPage,
  );
  const data = found?.employees ?? [];
  const body = {
    message: data.length ? op.messages.found : op.messages.notFound,
    total_count: found?.total ?? 0,
    returned_count: data.length,
    page,
    per_page: perPage,
    data,
  };
  // A page past the end serves nothing and costs nothing.
  return { cost: PRICE_OF['employee-finder'](body), body };
}

/** POST /employee-finder: the people currently at a company (0.05 credits per employee returned). */
export default async function employeeFinderRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(op.path, routeOptions('employee-finder'), async (request, reply) => {
    const { cost, body } = await findEmployees(app.services, request.body);
    return reply.settle(cost, body);
  });
}
