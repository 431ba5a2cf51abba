import { EMPTY_EMAIL_COMPANY, type EmailFinderBody, type EmailFinderResponse } from '../contract/email.ts';
import type { OperationContext } from './context.ts';
import { requireNonBlank, requireOneOf } from './errors.ts';
import { PRICE_OF } from './catalogue.ts';
import type { Answer } from './answer.ts';

export async function findEmail(
  services: Pick<OperationContext, 'people'>,
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
