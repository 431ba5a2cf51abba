import type { MobileFinderBody } from '../../contract/people.ts';
import type { Services } from '../../services.ts';
import { requireOneOf } from '../../operations/errors.ts';
import { lookupAnswer, type Answer } from '../../operations/answer.ts';
import { answerRoute } from './answer-route.ts';

export async function findMobile(services: Services, request: MobileFinderBody): Promise<Answer> {
  requireOneOf(request, ['profile_url', 'work_email', 'personal_email']);
  const found = await services.people.findMobile({
    profile_url: request.profile_url?.trim() || null,
    work_email: request.work_email?.trim() || null,
    personal_email: request.personal_email?.trim() || null,
  });
  return lookupAnswer('mobile-finder', found);
}

export default answerRoute('mobile-finder', findMobile);
