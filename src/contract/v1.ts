// The LeadMagic v1 surface (docs/leadmagic-v1.md): the same operations under LeadMagic's v1 paths,
// in the shapes of LeadMagic's published OpenAPI document. Two rules turn our answers into theirs,
// for the schemas and the values alike:
// - field names: our contract's neutral names become the networks' names they stand for
//   (company_prof_url → company_linkedin_url, social_b_handle → twitter_handle …);
// - unknown values: our contract answers null, their document types most fields as non-nullable,
//   so a v1 answer leaves an unknown field out, except the fields their document types as nullable.
import { Type, KindGuard, type TSchema, type TObject } from '@sinclair/typebox';
import { Nullable } from './common.ts';
import { EmailFinderResponse, EmailValidateResponse } from './email.ts';
import {
  CompanyFundingResponse,
  CompanySearchResponse,
  CompetitorsResponse,
  TechnographicsResponse,
  TechnologyEntry,
} from './companies.ts';
import { JobsFinderBody, JobsFinderResponse } from './jobs.ts';
import {
  EmailToProfileResponse,
  EmployeeFinderResponse,
  JobChangeResponse,
  PersonalEmailResponse,
  ProfileEmailResponse,
  ProfileSearchResponse,
  RoleFinderResponse,
} from './people.ts';

/** Our field name → the v1 name, wherever it occurs. */
export const V1_NAMES: Readonly<Record<string, string>> = {
  company_prof_url: 'company_linkedin_url',
  company_prof_id: 'company_linkedin_id',
  company_social_a_url: 'company_facebook_url',
  company_social_b_url: 'company_twitter_url',
  prof_url: 'linkedin_url',
  social_b_handle: 'twitter_handle',
  code_host_url: 'github_url',
  // A leader's profile links (company-funding leadership).
  prof: 'linkedin',
  social_b: 'twitter',
};

/** A social-media platform as v1 names it (company-funding socialMedia[].platform). */
export const V1_PLATFORMS: Readonly<Record<string, string>> = {
  prof: 'linkedin',
  social_a: 'facebook',
  social_b: 'twitter',
  code_host: 'github',
};

/** The v1 fields LeadMagic's document types as nullable: they keep their null. */
const V1_NULLABLE = new Set([
  'company_facebook_url',
  'company_twitter_url',
  'mobile_number',
  'work_email',
  'expired',
  'address_line_2',
  'line2',
  // company-search founded_on: a year without month and day.
  'month',
  'day',
]);

/** Our extensions that LeadMagic's v1 answers do not have: left out of the v1 shapes. */
const V1_OMITTED = new Set(['relations']);

/** The non-null member of a Nullable schema, else undefined. */
const isNullable = (schema: TSchema): TSchema | undefined => {
  if (!KindGuard.IsUnion(schema)) return undefined;
  const rest = schema.anyOf.filter((m) => !KindGuard.IsNull(m));
  return rest.length === 1 && schema.anyOf.length === 2 ? rest[0] : undefined;
};

/** Our response schema as the v1 answer's: names renamed, nullable fields optional (or kept nullable, see V1_NULLABLE). */
export function v1Schema(schema: TSchema): TSchema {
  const inner = isNullable(schema);
  if (inner) return Nullable(v1Schema(inner));
  if (KindGuard.IsArray(schema)) return Type.Array(v1Schema(schema.items));
  if (!KindGuard.IsObject(schema)) return schema;
  const object = schema;
  const properties: Record<string, TSchema> = {};
  for (const [name, property] of Object.entries(object.properties)) {
    if (V1_OMITTED.has(name)) continue;
    const v1Name = V1_NAMES[name] ?? name;
    const nonNull = isNullable(property);
    if (nonNull && V1_NULLABLE.has(v1Name)) properties[v1Name] = Nullable(v1Schema(nonNull));
    else if (nonNull) properties[v1Name] = Type.Optional(v1Schema(nonNull));
    else properties[v1Name] = v1Schema(property);
  }
  const extra = object.additionalProperties;
  return Type.Object(properties, {
    ...(object.title ? { title: `V1${object.title}` } : {}),
    ...(typeof extra === 'object' ? { additionalProperties: v1Schema(extra) } : {}),
  });
}

/** Our answer as the v1 answer: names renamed, unknown (null) values left out (see V1_NULLABLE). */
export function toV1(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toV1);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    if (V1_OMITTED.has(name)) continue;
    const v1Name = V1_NAMES[name] ?? name;
    if (field === null && !V1_NULLABLE.has(v1Name)) continue;
    out[v1Name] = toV1(field);
  }
  return out;
}

const withFields = (schema: TSchema, fields: Record<string, TSchema>, title: string) =>
  Type.Object({ ...(schema as TObject).properties, ...fields }, { title });

export const V1CreditsResponse = Type.Object(
  { credits: Type.Number({ description: "The calling key's balance in credits" }) },
  { title: 'V1Credits' },
);

export const V1EmailValidationResponse = v1Schema(EmailValidateResponse);
export const V1EmailFinderResponse = withFields(
  v1Schema(EmailFinderResponse),
  { email: Type.String({ description: 'The address found; "" when none (status not_found)' }) },
  'V1EmailFinderResult',
);
export const V1CompanyFundingResponse = v1Schema(CompanyFundingResponse);
export const V1CompanySearchResponse = v1Schema(CompanySearchResponse);
export const V1EmployeeFinderResponse = v1Schema(EmployeeFinderResponse);
export const V1RoleFinderResponse = v1Schema(RoleFinderResponse);

const V1JobListing = (() => {
  const results = (v1Schema(JobsFinderResponse) as TObject).properties.results as unknown as { items: TObject };
  return withFields(
    results.items,
    {
      // Their document writes salaries as strings ("100600").
      salary_min: Type.Optional(Type.String()),
      salary_max: Type.Optional(Type.String()),
      expired: Nullable(Type.String({ description: 'null: every listing served is live' })),
    },
    'V1JobListing',
  );
})();

export const V1JobsFinderResponse = withFields(v1Schema(JobsFinderResponse), { results: Type.Array(V1JobListing) }, 'V1JobsFinderResult');

export const V1MobileFinderResponse = Type.Object(
  {
    profile_url: Type.Optional(Type.String()),
    mobile_number: Nullable(Type.String({ description: 'E.164, "+14155552671"' })),
    message: Type.String(),
    credits_consumed: Type.Number(),
  },
  { title: 'V1MobileFinderResult' },
);

export const V1ProfileEmailResponse = withFields(
  v1Schema(ProfileEmailResponse),
  {
    work_email: Nullable(Type.String()),
    status: Type.Union([Type.Literal('found'), Type.Literal('not_found')]),
  },
  'V1ProfileEmailResult',
);

export const V1CompetitorsResponse = v1Schema(CompetitorsResponse);
export const V1TechnographicsResponse = withFields(
  v1Schema(TechnographicsResponse),
  {
    data: Type.Array(v1Schema(TechnologyEntry), {
      description: 'The same list as technologies (empty when none): the name the n8n templates of LeadMagic read',
    }),
  },
  'V1TechnographicsResult',
);
export const V1EmailToProfileResponse = v1Schema(EmailToProfileResponse);
export const V1JobChangeResponse = v1Schema(JobChangeResponse);
export const V1PersonalEmailResponse = withFields(
  v1Schema(PersonalEmailResponse),
  {
    personal_email: Nullable(Type.String()),
    personal_emails: Type.Array(Type.String()),
    status: Type.Union([Type.Literal('found'), Type.Literal('not_found')]),
  },
  'V1PersonalEmailResult',
);

/** Their document's experiences: the title, the company as subtitle, the dates as caption ("2018-03 - Present"). */
const V1Experience = Type.Object({ title: Type.String(), subtitle: Type.Optional(Type.String()), caption: Type.Optional(Type.String()) });
export const V1ProfileSearchResponse = withFields(
  v1Schema(ProfileSearchResponse),
  {
    // Their document types the size as a string.
    company_size: Type.Optional(Type.String()),
    experiences: Type.Optional(Type.Array(V1Experience)),
  },
  'V1ProfileSearchResult',
);

/** The v1 jobs-finder request: LeadMagic's own request has no has_remote, so an absent one means any listing (ours: non-remote). */
export const V1JobsFinderBody = Type.Object(
  {
    ...JobsFinderBody.properties,
    has_remote: Type.Optional(
      Type.Boolean({ description: 'true: remote-only listings; false: non-remote listings; absent: any listing (on our own path: false)' }),
    ),
  },
  { title: 'V1JobsFinderRequest' },
);
