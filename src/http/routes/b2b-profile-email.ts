import type { ProfileEmailBody } from '../../contract/people.ts';
import type { Services } from '../../services.ts';
import { requireNonBlank } from '../errors.ts';
import { lookupAnswer, type Answer } from '../operations.ts';
import { answerRoute } from './answer-route.ts';

export async function findProfileEmail(services: Services, request: ProfileEmailBody): Promise<Answer> {
  const profile = requireNonBlank(request, 'profile_url');
  const found = await services.people.findProfileEmail(profile);
  return lookupAnswer('b2b-profile-email', found);
}

export default answerRoute('b2b-profile-email', findProfileEmail);
