import type { CompetitorsBody } from '../contract/companies.ts';
import type { OperationContext } from './context.ts';
import { requireOneOf } from './errors.ts';
import { lookupAnswer, type Answer } from './answer.ts';

export async function searchCompetitors(services: Pick<OperationContext, 'companies'>, request: CompetitorsBody): Promise<Answer> {
  requireOneOf(request, ['company_domain', 'company_url', 'company_name', 'profile_url']);
  const found = await services.companies.competitors(
    {
      // A website URL names the company by its domain.
      company_domain: request.company_domain?.trim() || request.company_url?.trim() || null,
      company_name: request.company_name?.trim() || null,
      profile_url: request.profile_url?.trim() || null,
    },
    request.limit ?? 10,
  );
  return lookupAnswer('competitors-search', found);
}
