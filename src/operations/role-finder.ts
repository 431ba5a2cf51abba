import type { RoleFinderBody } from '../contract/people.ts';
import type { OperationContext } from './context.ts';
import { requireNonBlank, requireOneOf } from './errors.ts';
import { lookupAnswer, type Answer } from './answer.ts';

/** The role finder's answer: the company named by its name, domain or page URL. */
export async function findRole(services: Pick<OperationContext, 'people'>, request: RoleFinderBody): Promise<Answer> {
  const jobTitle = requireNonBlank(request, 'job_title');
  requireOneOf(request, ['company_name', 'company_domain', 'company_profile_url']);
  const found = await services.people.findRole({
    job_title: jobTitle,
    company_name: request.company_name?.trim() || null,
    company_domain: request.company_domain?.trim() || null,
    company_profile_url: request.company_profile_url?.trim() || null,
  });
  return lookupAnswer('role-finder', found);
}
