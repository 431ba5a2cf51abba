import type { EmailValidateBody } from '../contract/email.ts';
import type { EmailValidation } from '../contract/email.ts';
import type { OperationContext } from './context.ts';
import { requireNonBlank } from './errors.ts';
import { PRICE_OF } from './catalogue.ts';
import type { Answer } from './answer.ts';

export async function validateEmail(services: Pick<OperationContext, 'email'>, body: EmailValidateBody): Promise<Answer<EmailValidation>> {
  const email = requireNonBlank(body, 'email');
  const validation = await services.email.validate({ email, first_name: body.first_name, last_name: body.last_name });
  return { cost: PRICE_OF['email-validate'](validation), body: validation };
}
