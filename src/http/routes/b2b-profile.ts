import type { EmailToProfileBody } from '../../contract/people.ts';
import type { Services } from '../../services.ts';
import { requireNonBlank } from '../../operations/errors.ts';
import { lookupAnswer, type Answer } from '../../operations/answer.ts';
import { answerRoute } from './answer-route.ts';

export async function emailToProfile(services: Services, request: EmailToProfileBody): Promise<Answer> {
  const email = requireNonBlank(request, 'work_email');
  return lookupAnswer('b2b-profile', await services.people.emailToProfile(email));
}

export default answerRoute('b2b-profile', emailToProfile);
