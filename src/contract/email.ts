import { Type, type Static } from '@sinclair/typebox';
import { CreditsNumber, Nullable, Text } from './common.ts';

export const EMAIL_STATUSES = ['valid', 'valid_catch_all', 'catch_all', 'unknown', 'invalid'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const EmailValidateBody = Type.Object(
  {
    email: Text({ description: 'Address to validate', maxLength: 1024 }),
    first_name: Type.Optional(Text({ description: "Person's first name", maxLength: 256 })),
    last_name: Type.Optional(Text({ description: "Person's last name", maxLength: 256 })),
  },
  { title: 'EmailValidateRequest' },
);
export type EmailValidateBody = Static<typeof EmailValidateBody>;

export const CompanyLocation = Type.Object(
  {
    name: Nullable(Type.String()),
    locality: Nullable(Type.String()),
    region: Nullable(Type.String()),
    metro: Nullable(Type.String()),
    country: Nullable(Type.String()),
    continent: Nullable(Type.String()),
    street_address: Nullable(Type.String()),
    address_line_2: Nullable(Type.String()),
    postal_code: Nullable(Type.String()),
    geo: Nullable(Type.String({ description: '"latitude,longitude"' })),
  },
  { description: 'Lower-case location text of the company' },
);
export type CompanyLocation = Static<typeof CompanyLocation>;

/** The company part of an email validation result, null fields where unknown. */
export const EmailCompanyFields = {
  company_name: Nullable(Type.String()),
  company_industry: Nullable(Type.String()),
  company_size: Nullable(Type.String({ description: 'Range label such as 51-200' })),
  company_founded: Nullable(Type.Integer()),
  company_location: Nullable(CompanyLocation),
  company_prof_url: Nullable(Type.String({ description: 'Professional-network company URL, without scheme' })),
  company_prof_id: Nullable(Type.String()),
  company_social_a_url: Nullable(Type.String()),
  company_social_b_url: Nullable(Type.String()),
  company_type: Nullable(Type.String()),
};
export const EmailCompany = Type.Object(EmailCompanyFields);

/** The company part of a result when the domain's company is not known: every field of it null. */
export const EMPTY_EMAIL_COMPANY = Object.fromEntries(Object.keys(EmailCompanyFields).map((k) => [k, null])) as Static<typeof EmailCompany>;
export type EmailCompany = Static<typeof EmailCompany>;

export const EmailValidateResponse = Type.Object(
  {
    email: Type.String(),
    email_status: Type.Union(EMAIL_STATUSES.map((s) => Type.Literal(s))),
    credits_consumed: CreditsNumber,
    message: Type.String(),
    is_domain_catch_all: Type.Boolean(),
    mx_record: Nullable(Type.String()),
    mx_provider: Nullable(Type.String()),
    mx_security_gateway: Type.Boolean(),
    ...EmailCompanyFields,
    // Extensions: fields the original API does not have (clients written against it ignore them).
    is_disposable: Type.Boolean({ description: 'Extension: the domain is a disposable-mail service (a maintained public list).' }),
    is_role_account: Type.Boolean({
      description: 'Extension: the local part names a role or team (info@, sales@, support@…), not a person.',
    }),
    is_free_email: Type.Boolean({ description: 'Extension: the domain is a consumer mail provider (gmail.com, outlook.com…).' }),
    did_you_mean: Nullable(
      Type.String({
        description:
          'Extension: the address with a common provider domain when the domain looks like a typo of it (gmial.com → gmail.com).',
      }),
    ),
  },
  { title: 'EmailValidationResult' },
);
export type EmailValidateResponse = Static<typeof EmailValidateResponse>;
/** What the email domain service returns; the route adds credits_consumed. */
export type EmailValidation = Omit<EmailValidateResponse, 'credits_consumed'>;

export const EmailFinderBody = Type.Object(
  {
    first_name: Text({
      description: "The person's first name (any script; accents and hyphens are handled)",
      maxLength: 256,
      minLength: 1,
    }),
    last_name: Text({ description: "The person's last name, with its particles (van, de la…)", maxLength: 256, minLength: 1 }),
    domain: Type.Optional(Text({ description: "The company's domain (or website)", maxLength: 1024 })),
    company_name: Type.Optional(
      Text({ description: "The company's name, when its domain is not known: resolved through the company store", maxLength: 512 }),
    ),
  },
  { title: 'EmailFinderRequest' },
);
export type EmailFinderBody = Static<typeof EmailFinderBody>;

export const EMAIL_FINDER_STATUSES = ['valid', 'valid_catch_all', 'not_found'] as const;

export const EmailFinderResponse = Type.Object(
  {
    email: Nullable(Type.String({ description: 'The work address found, or null' })),
    status: Type.Union(
      EMAIL_FINDER_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          'valid: the mail server accepts this address; valid_catch_all: the domain accepts every address and evidence points at this one; not_found: nothing found (no charge)',
      },
    ),
    credits_consumed: CreditsNumber,
    message: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    domain: Nullable(Type.String()),
    is_domain_catch_all: Type.Boolean(),
    mx_record: Nullable(Type.String()),
    mx_provider: Nullable(Type.String()),
    mx_security_gateway: Type.Boolean(),
    ...EmailCompanyFields,
  },
  { title: 'EmailFinderResult' },
);
export type EmailFinderResponse = Static<typeof EmailFinderResponse>;
