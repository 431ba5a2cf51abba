import type { EmailToProfileBody } from '../contract/people.ts';
import type { OperationContext } from './context.ts';
import { requireNonBlank } from './errors.ts';
import { lookupAnswer, type Answer } from './answer.ts';

export async function emailToProfile(services: Pick<OperationContext, 'people'>, request: EmailToProfileBody): Promise<Answer> {
  const email = requireNonBlank(request, 'work_email');
  return lookupAnswer('b2b-profile', await services.people.emailToProfile(email));
}
