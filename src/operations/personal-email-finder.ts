import type { ProfileBody } from '../contract/people.ts';
import type { OperationContext } from './context.ts';
import { requireNonBlank } from './errors.ts';
import { lookupAnswer, type Answer } from './answer.ts';

export async function findPersonalEmail(services: Pick<OperationContext, 'people'>, request: ProfileBody): Promise<Answer> {
  const profile = requireNonBlank(request, 'profile_url');
  const found = await services.people.personalEmails(profile);
  const { cost, body } = lookupAnswer('personal-email-finder', found);
  // The original API's clients read status (found / not_found) and the list even when empty.
  return { cost, body: { ...body, personal_emails: found?.personal_emails ?? [], status: found ? 'found' : 'not_found' } };
}
