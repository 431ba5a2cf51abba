import type { JobChangeBody } from '../contract/people.ts';
import type { OperationContext } from './context.ts';
import { requireNonBlank, requireOneOf } from './errors.ts';
import { lookupAnswer, type Answer } from './answer.ts';

export async function detectJobChange(services: Pick<OperationContext, 'people'>, request: JobChangeBody): Promise<Answer> {
  const profile = requireNonBlank(request, 'profile_url');
  requireOneOf(request, ['company_domain', 'company_name']);
  const found = await services.people.jobChange(profile, {
    company_domain: request.company_domain?.trim() || null,
    company_name: request.company_name?.trim() || null,
  });
  return lookupAnswer('job-change-detector', found);
}
