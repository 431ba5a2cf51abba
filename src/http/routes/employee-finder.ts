import type { EmployeeFinderBody, EmployeeFinderResponse } from '../../contract/people.ts';
import type { Services } from '../../services.ts';
import { requireOneOf } from '../errors.ts';
import { OPERATIONS, PRICE_OF, type Answer } from '../operations.ts';
import { answerRoute } from './answer-route.ts';

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
export default answerRoute('employee-finder', findEmployees);
