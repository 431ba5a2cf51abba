import { EMPTY_EMAIL_COMPANY, type EmailFinderBody, type EmailFinderResponse } from '../../contract/email.ts';
import type { Services } from '../../services.ts';
import { requireNonBlank, requireOneOf } from '../../operations/errors.ts';
import { PRICE_OF } from '../../operations/catalogue.ts';
import type { Answer } from '../../operations/answer.ts';
import { answerRoute } from './answer-route.ts';

export async function findEmail(
  services: Services,
  request: EmailFinderBody,
): Promise<Answer<Omit<EmailFinderResponse, 'credits_consumed'>>> {
  const first = requireNonBlank(request, 'first_name');
  const last = requireNonBlank(request, 'last_name');
  requireOneOf(request, ['domain', 'company_name']);
  const found = await services.people.findEmail({ ...request, first_name: first, last_name: last });
  const v = found.validation;
  const body = {
    email: found.email,
    status: found.status,
    message: found.message,
    first_name: first,
    last_name: last,
    domain: found.domain,
    is_domain_catch_all: v?.is_domain_catch_all ?? false,
    mx_record: v?.mx_record ?? null,
    mx_provider: v?.mx_provider ?? null,
    mx_security_gateway: v?.mx_security_gateway ?? false,
    ...EMPTY_EMAIL_COMPANY,
    ...(v ? Object.fromEntries(Object.keys(EMPTY_EMAIL_COMPANY).map((k) => [k, v[k as keyof typeof EMPTY_EMAIL_COMPANY]])) : {}),
  };
  return { cost: PRICE_OF['email-finder'](found), body };
}

/** POST /email-finder: a person's work address from their name and company (1 credit when found, else 0). */
export default answerRoute('email-finder', findEmail);
