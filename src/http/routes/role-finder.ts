import type { RoleFinderBody } from '../../contract/people.ts';
import type { Services } from '../../services.ts';
import { requireNonBlank, requireOneOf } from '../errors.ts';
import { lookupAnswer, type Answer } from '../operations.ts';
import { answerRoute } from './answer-route.ts';

/**
 * The role finder's answer. `companyFields` are the ways the request may name the company (the
 * LeadMagic v1 request also takes the company's page URL, company_profile_url).
 */
export async function findRole(
  services: Services,
  request: RoleFinderBody & { company_profile_url?: string },
  companyFields = ['company_name', 'company_domain'],
): Promise<Answer> {
  const jobTitle = requireNonBlank(request, 'job_title');
  requireOneOf(request, companyFields);
  const found = await services.people.findRole({
    job_title: jobTitle,
    company_name: request.company_name?.trim() || null,
    company_domain: request.company_domain?.trim() || null,
    company_profile_url: request.company_profile_url?.trim() || null,
  });
  return lookupAnswer('role-finder', found);
}

export default answerRoute('role-finder', findRole);
