import type { JobChangeBody } from '../../contract/people.ts';
import type { Services } from '../../services.ts';
import { requireNonBlank, requireOneOf } from '../../operations/errors.ts';
import { lookupAnswer, type Answer } from '../../operations/answer.ts';
import { answerRoute } from './answer-route.ts';

export async function detectJobChange(services: Services, request: JobChangeBody): Promise<Answer> {
  const profile = requireNonBlank(request, 'profile_url');
  requireOneOf(request, ['company_domain', 'company_name']);
  const found = await services.people.jobChange(profile, {
    company_domain: request.company_domain?.trim() || null,
    company_name: request.company_name?.trim() || null,
  });
  return lookupAnswer('job-change-detector', found);
}

export default answerRoute('job-change-detector', detectJobChange);
