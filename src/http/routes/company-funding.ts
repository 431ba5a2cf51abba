import type { CompanyFundingBody } from '../../contract/companies.ts';
import type { Services } from '../../services.ts';
import { requireOneOf } from '../errors.ts';
import { notFoundBody, OPERATIONS, PRICE_OF, type Answer } from '../operations.ts';
import { answerRoute } from './answer-route.ts';

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

export default answerRoute('company-funding', companyFunding);
