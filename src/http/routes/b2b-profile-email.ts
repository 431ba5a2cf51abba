import type { ProfileEmailBody } from '../../contract/people.ts';
import type { Services } from '../../services.ts';
import { requireNonBlank } from '../../operations/errors.ts';
import { lookupAnswer, type Answer } from '../../operations/answer.ts';
import { answerRoute } from './answer-route.ts';

export async function findProfileEmail(services: Services, request: ProfileEmailBody): Promise<Answer> {
  const profile = requireNonBlank(request, 'profile_url');
  const found = await services.people.findProfileEmail(profile);
  const { cost, body } = lookupAnswer('b2b-profile-email', found);
  // The original API's fields for the same answer (its clients read status).
  return { cost, body: { ...body, work_email: found?.email ?? null, status: found ? 'found' : 'not_found' } };
}

export default answerRoute('b2b-profile-email', findProfileEmail);
