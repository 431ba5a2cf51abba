import type { ProfileBody } from '../../contract/people.ts';
import type { Services } from '../../services.ts';
import { requireNonBlank } from '../../operations/errors.ts';
import { lookupAnswer, type Answer } from '../../operations/answer.ts';
import { answerRoute } from './answer-route.ts';

export async function profileSearch(services: Services, request: ProfileBody): Promise<Answer> {
  const profile = requireNonBlank(request, 'profile_url');
  return lookupAnswer('profile-search', await services.people.profileSearch(profile));
}

export default answerRoute('profile-search', profileSearch);
