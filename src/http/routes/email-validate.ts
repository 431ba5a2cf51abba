import type { EmailValidateBody } from '../../contract/email.ts';
import type { EmailValidation } from '../../contract/email.ts';
import type { Services } from '../../services.ts';
import { requireNonBlank } from '../../operations/errors.ts';
import { PRICE_OF } from '../../operations/catalogue.ts';
import type { Answer } from '../../operations/answer.ts';
import { answerRoute } from './answer-route.ts';

export async function validateEmail(services: Services, body: EmailValidateBody): Promise<Answer<EmailValidation>> {
  const email = requireNonBlank(body, 'email');
  const validation = await services.email.validate({ email, first_name: body.first_name, last_name: body.last_name });
  return { cost: PRICE_OF['email-validate'](validation), body: validation };
}

export default answerRoute('email-validate', validateEmail);
