import type { ProfileEmailBody } from '../../contract/people.ts';
import type { Services } from '../../services.ts';
import { requireNonBlank } from '../errors.ts';
import { notFoundBody, OPERATIONS, PRICE_OF, type Answer } from '../operations.ts';
import { answerRoute } from './answer-route.ts';

const op = OPERATIONS['b2b-profile-email'];

export async function findProfileEmail(services: Services, request: ProfileEmailBody): Promise<Answer> {
  const profile = requireNonBlank(request, 'profile_url');
  const found = await services.people.findProfileEmail(profile);
  if (!found) return { cost: PRICE_OF['b2b-profile-email'](false), body: notFoundBody('b2b-profile-email') };
  return { cost: PRICE_OF['b2b-profile-email'](true), body: { ...found, message: op.messages.found } };
}

export default answerRoute('b2b-profile-email', findProfileEmail);
