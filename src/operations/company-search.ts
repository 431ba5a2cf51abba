import type { CompanySearchBody } from '../contract/companies.ts';
import type { OperationContext } from './context.ts';
import { requireOneOf } from './errors.ts';
import { lookupAnswer, type Answer } from './answer.ts';

export async function companySearch(services: Pick<OperationContext, 'companies'>, request: CompanySearchBody): Promise<Answer> {
  requireOneOf(request, ['company_domain', 'company_name', 'profile_url']);
  const profile = await services.companies.profile({
    company_domain: request.company_domain?.trim() || null,
    company_name: request.company_name?.trim() || null,
    profile_url: request.profile_url?.trim() || null,
  });
  return lookupAnswer('company-search', profile);
}
