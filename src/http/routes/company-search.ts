import type { CompanySearchBody } from '../../contract/companies.ts';
import type { Services } from '../../services.ts';
import { requireOneOf } from '../errors.ts';
import { notFoundBody, OPERATIONS, PRICE_OF, type Answer } from '../operations.ts';
import { answerRoute } from './answer-route.ts';

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
export default answerRoute('company-search', companySearch);
