import type { ProfileBody } from '../contract/people.ts';
import type { OperationContext } from './context.ts';
import { requireNonBlank } from './errors.ts';
import { lookupAnswer, type Answer } from './answer.ts';

export async function profileSearch(services: Pick<OperationContext, 'people'>, request: ProfileBody): Promise<Answer> {
  const profile = requireNonBlank(request, 'profile_url');
  return lookupAnswer('profile-search', await services.people.profileSearch(profile));
}
