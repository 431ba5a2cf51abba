import type { TechnographicsBody } from '../contract/companies.ts';
import { websiteOf } from '../companies/profile.ts';
import type { OperationContext } from './context.ts';
import { requireOneOf } from './errors.ts';
import { lookupAnswer, type Answer } from './answer.ts';

/** The company's technologies as its job listings name them; the not-found body (free) when it is unknown or none is named. */
export async function companyTechnographics(
  services: Pick<OperationContext, 'companies' | 'jobs'>,
  request: TechnographicsBody,
): Promise<Answer> {
  requireOneOf(request, ['company_domain', 'company_url', 'company_name', 'profile_url']);
  const company = await services.companies.resolve({
    // A website URL names the company by its domain.
    company_domain: request.company_domain?.trim() || request.company_url?.trim() || null,
    company_name: request.company_name?.trim() || null,
    profile_url: request.profile_url?.trim() || null,
  });
  const found = company ? await services.jobs.technographics(company.id) : null;
  return lookupAnswer(
    'technographics',
    found && company
      ? {
          company_name: company.name,
          company_domain: company.domain,
          company_website: websiteOf(company),
          technologies: found.technologies.map((t) => ({ ...t, sub_technologies: [] })),
          postings_read: found.postings_read,
        }
      : null,
  );
}
