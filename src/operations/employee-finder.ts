import type { EmployeeFinderBody, EmployeeFinderResponse } from '../contract/people.ts';
import type { OperationContext } from './context.ts';
import { InvalidRequestError, requireOneOf } from './errors.ts';
import { OPERATIONS, PRICE_OF } from './catalogue.ts';
import type { Answer } from './answer.ts';

const op = OPERATIONS['employee-finder'];
const DEFAULT_PER_PAGE = 20;

/** How many employees the request asks for: `limit`, else `per_page`, else 20 (both given must agree). */
export function employeePageSizeOf(request: EmployeeFinderBody): number {
  const { limit, per_page: perPage } = request;
  if (limit !== undefined && perPage !== undefined && limit !== perPage) {
    throw new InvalidRequestError(`limit (${limit}) and per_page (${perPage}) disagree: send one of them.`, [
      { field: '/limit', message: 'must equal per_page when both are given' },
    ]);
  }
  return limit ?? perPage ?? DEFAULT_PER_PAGE;
}

export async function findEmployees(
  services: Pick<OperationContext, 'people'>,
  request: EmployeeFinderBody,
): Promise<Answer<Omit<EmployeeFinderResponse, 'credits_consumed'>>> {
  requireOneOf(request, ['company_name', 'company_domain']);
  const page = request.page ?? 1;
  const perPage = employeePageSizeOf(request);
  const found = await services.people.employees(
    { company_name: request.company_name?.trim() || null, company_domain: request.company_domain?.trim() || null },
    (page - 1) * perPage,
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
  // Charged for what is returned: a page past the end serves nothing and costs nothing.
  return { cost: PRICE_OF['employee-finder'](body), body };
}
