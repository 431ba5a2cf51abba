import type { MobileFinderBody } from '../../contract/people.ts';
import type { Services } from '../../services.ts';
import { requireOneOf } from '../errors.ts';
import { notFoundBody, OPERATIONS, PRICE_OF, type Answer } from '../operations.ts';
import { answerRoute } from './answer-route.ts';

const op = OPERATIONS['mobile-finder'];

export async function findMobile(services: Services, request: MobileFinderBody): Promise<Answer> {
  requireOneOf(request, ['profile_url', 'work_email', 'personal_email']);
  const found = await services.people.findMobile({
    profile_url: request.profile_url?.trim() || null,
    work_email: request.work_email?.trim() || null,
    personal_email: request.personal_email?.trim() || null,
  });
  if (!found) return { cost: PRICE_OF['mobile-finder'](false), body: notFoundBody('mobile-finder') };
  return { cost: PRICE_OF['mobile-finder'](true), body: { ...found, message: op.messages.found } };
}

export default answerRoute('mobile-finder', findMobile);
