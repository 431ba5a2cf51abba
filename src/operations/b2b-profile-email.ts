import type { ProfileEmailBody } from '../contract/people.ts';
import type { OperationContext } from './context.ts';
import { requireNonBlank } from './errors.ts';
import { lookupAnswer, type Answer } from './answer.ts';

export async function findProfileEmail(services: Pick<OperationContext, 'people'>, request: ProfileEmailBody): Promise<Answer> {
  const profile = requireNonBlank(request, 'profile_url');
  const found = await services.people.findProfileEmail(profile);
  const { cost, body } = lookupAnswer('b2b-profile-email', found);
  // The original API's fields for the same answer (its clients read status).
  return { cost, body: { ...body, work_email: found?.email ?? null, status: found ? 'found' : 'not_found' } };
}
