import type { CompanySearchBody } from '../../contract/companies.ts';
import type { Services } from '../../services.ts';
import { requireOneOf } from '../../operations/errors.ts';
import { lookupAnswer, type Answer } from '../../operations/answer.ts';
import { answerRoute } from './answer-route.ts';

export async function companySearch(services: Services, request: CompanySearchBody): Promise<Answer> {
  requireOneOf(request, ['company_domain', 'company_name', 'profile_url']);
  const profile = await services.companies.profile({
    company_domain: request.company_domain?.trim() || null,
    company_name: request.company_name?.trim() || null,
    profile_url: request.profile_url?.trim() || null,
  });
  return lookupAnswer('company-search', profile);
}

/** POST /company-search: a company's profile from the company store (1 credit when found). */
export default answerRoute('company-search', companySearch);
