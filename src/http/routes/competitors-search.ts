import type { CompetitorsBody } from '../../contract/companies.ts';
import type { Services } from '../../services.ts';
import { requireOneOf } from '../../operations/errors.ts';
import { lookupAnswer, type Answer } from '../../operations/answer.ts';
import { answerRoute } from './answer-route.ts';

export async function searchCompetitors(services: Services, request: CompetitorsBody): Promise<Answer> {
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

export default answerRoute('competitors-search', searchCompetitors);
