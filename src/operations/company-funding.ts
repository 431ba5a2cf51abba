import type { CompanyFundingBody } from '../contract/companies.ts';
import type { OperationContext } from './context.ts';
import { requireOneOf } from './errors.ts';
import { lookupAnswer, type Answer } from './answer.ts';

export async function companyFunding(services: Pick<OperationContext, 'companies'>, request: CompanyFundingBody): Promise<Answer> {
  requireOneOf(request, ['company_name', 'company_domain', 'profile_url']);
  const result = await services.companies.funding({
    company_name: request.company_name?.trim() || null,
    company_domain: request.company_domain?.trim() || null,
    profile_url: request.profile_url?.trim() || null,
  });
  return lookupAnswer('company-funding', result);
}
