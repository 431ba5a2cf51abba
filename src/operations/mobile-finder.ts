import type { MobileFinderBody } from '../contract/people.ts';
import type { OperationContext } from './context.ts';
import { requireOneOf } from './errors.ts';
import { lookupAnswer, type Answer } from './answer.ts';

export async function findMobile(services: Pick<OperationContext, 'people'>, request: MobileFinderBody): Promise<Answer> {
  requireOneOf(request, ['profile_url', 'work_email', 'personal_email']);
  const found = await services.people.findMobile({
    profile_url: request.profile_url?.trim() || null,
    work_email: request.work_email?.trim() || null,
    personal_email: request.personal_email?.trim() || null,
  });
  return lookupAnswer('mobile-finder', found);
}
