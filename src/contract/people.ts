import { Type, type Static } from '@sinclair/typebox';
import { BoundedInteger, CreditsNumber, Nullable, Text } from './common.ts';

const Str = Nullable(Type.String());

/** The most employees one employee-finder request answers (its `limit`). */
export const EMPLOYEE_LIMIT_MAX = 1000;

export const RoleFinderBody = Type.Object(
  {
    company_name: Type.Optional(Text({ maxLength: 512 })),
    company_domain: Type.Optional(Text({ maxLength: 512 })),
    job_title: Text({ maxLength: 256, description: 'The title to find, such as CEO or Head of Sales' }),
    company_profile_url: Type.Optional(Text({ maxLength: 512, description: "The company's professional-network page URL" })),
  },
  {
    title: 'RoleFinderRequest',
    description: 'job_title and at least one of company_name, company_domain, company_profile_url are required.',
  },
);
export type RoleFinderBody = Static<typeof RoleFinderBody>;

export const RoleFinderResponse = Type.Object(
  {
    name: Str,
    profile_url: Str,
    first_name: Str,
    last_name: Str,
    message: Type.String({ description: '"Role found." or "Role not found."' }),
    company_name: Str,
    company_website: Str,
    credits_consumed: Type.Integer(),
  },
  { title: 'RoleFinderResult' },
);
export type RoleFinderResponse = Static<typeof RoleFinderResponse>;
export type RoleFound = Omit<RoleFinderResponse, 'credits_consumed' | 'message'>;

export const MobileFinderBody = Type.Object(
  {
    profile_url: Type.Optional(Text({ maxLength: 512, description: 'A profile URL or public identifier' })),
    work_email: Type.Optional(Text({ maxLength: 512 })),
    personal_email: Type.Optional(Text({ maxLength: 512 })),
  },
  { title: 'MobileFinderRequest', description: 'At least one of the three is required.' },
);
export type MobileFinderBody = Static<typeof MobileFinderBody>;

export const MobileFinderResponse = Type.Object(
  {
    profile_url: Str,
    mobile_number: Nullable(Type.Number({ description: 'Digits with country code, no separators' })),
    message: Type.String({ description: '"Mobile found." or "Mobile not found."' }),
    credits_consumed: CreditsNumber,
  },
  { title: 'MobileFinderResult' },
);
export type MobileFinderResponse = Static<typeof MobileFinderResponse>;
export type MobileFound = { profile_url: string | null; mobile_number: number };

export const ProfileEmailBody = Type.Object(
  {
    profile_url: Text({ maxLength: 512, description: 'Public identifier (or URL) of the profile' }),
  },
  { title: 'ProfileEmailRequest' },
);
export type ProfileEmailBody = Static<typeof ProfileEmailBody>;

export const ProfileEmailResponse = Type.Object(
  {
    profile_url: Str,
    credits_consumed: Type.Integer(),
    message: Type.String({ description: '"Email found." or "No email found for this profile."' }),
    email: Str,
    work_email: Nullable(Type.String({ description: "The same value as email, under the original API's name" })),
    status: Type.Union([Type.Literal('found'), Type.Literal('not_found')], {
      description: "Whether an email was found (the original API's field)",
    }),
  },
  { title: 'ProfileEmailResult' },
);
export type ProfileEmailResponse = Static<typeof ProfileEmailResponse>;
export type ProfileEmailFound = { profile_url: string; email: string };

export const EmployeeFinderBody = Type.Object(
  {
    company_name: Type.Optional(Text({ maxLength: 512 })),
    company_domain: Type.Optional(Text({ maxLength: 512 })),
    page: Type.Optional(BoundedInteger({ minimum: 1, maximum: 100000, default: 1 })),
    per_page: Type.Optional(BoundedInteger({ minimum: 1, maximum: 50, description: 'Employees per page (default 20)' })),
    limit: Type.Optional(
      BoundedInteger({
        minimum: 1,
        maximum: EMPLOYEE_LIMIT_MAX,
        description: `How many employees to answer, up to ${EMPLOYEE_LIMIT_MAX} (read a page at a time); in place of per_page, which it must equal when both are given`,
      }),
    ),
  },
  { title: 'EmployeeFinderRequest', description: 'At least one of company_name and company_domain is required.' },
);
export type EmployeeFinderBody = Static<typeof EmployeeFinderBody>;

export const Employee = Type.Object({
  first_name: Str,
  last_name: Str,
  full_name: Type.String({ description: 'Extension' }),
  title: Type.String(),
  profile_url: Str,
  website: Str,
  company_name: Type.String(),
});
export type Employee = Static<typeof Employee>;

export const EmployeeFinderResponse = Type.Object(
  {
    message: Type.String({ description: '"Data found for the given company." or "No employees found for the given company."' }),
    total_count: Type.Integer({ description: 'Current employees known for the company' }),
    returned_count: Type.Integer(),
    page: Type.Integer(),
    per_page: Type.Integer(),
    credits_consumed: CreditsNumber,
    data: Type.Array(Employee),
  },
  { title: 'EmployeeFinderResult' },
);
export type EmployeeFinderResponse = Static<typeof EmployeeFinderResponse>;

export const EmailToProfileBody = Type.Object(
  { work_email: Text({ maxLength: 512, description: "The person's email address (work, or any address the store holds for them)" }) },
  { title: 'EmailToProfileRequest' },
);
export type EmailToProfileBody = Static<typeof EmailToProfileBody>;

export const EmailToProfileResponse = Type.Object(
  {
    profile_url: Str,
    full_name: Str,
    first_name: Str,
    last_name: Str,
    job_title: Nullable(Type.String({ description: 'The title of their current position' })),
    company_name: Str,
    company_website: Str,
    message: Type.String({ description: '"Profile found." or "No profile found for this email."' }),
    credits_consumed: Type.Integer(),
  },
  { title: 'EmailToProfileResult' },
);
export type EmailToProfileFound = Omit<Static<typeof EmailToProfileResponse>, 'credits_consumed' | 'message'> & { profile_url: string };

/** A request that names one profile (profile search, personal email finder). */
export const ProfileBody = Type.Object(
  { profile_url: Text({ maxLength: 512, description: 'Public identifier (or URL) of the profile' }) },
  { title: 'ProfileRequest' },
);
export type ProfileBody = Static<typeof ProfileBody>;

/** One position of a person's history: dates are "YYYY-MM" (the month the source gave, or its first month). */
export const WorkExperience = Type.Object(
  {
    company_name: Str,
    company_domain: Str,
    company_website: Str,
    title: Type.String(),
    start_date: Nullable(Type.String({ description: '"YYYY-MM"' })),
    end_date: Nullable(Type.String({ description: '"YYYY-MM"; null for a current position' })),
    is_current: Type.Boolean(),
  },
  { title: 'WorkExperience' },
);
export type WorkExperience = Static<typeof WorkExperience>;

export const ProfileSearchResponse = Type.Object(
  {
    profile_url: Str,
    public_identifier: Str,
    full_name: Str,
    first_name: Str,
    last_name: Str,
    professional_title: Nullable(Type.String({ description: 'The title of their current position' })),
    company_name: Str,
    company_website: Str,
    company_industry: Str,
    company_size: Nullable(Type.Integer({ description: "The current company's employee count" })),
    work_experience: Nullable(Type.Array(WorkExperience, { description: 'Current positions first, then the past ones, latest first' })),
    message: Type.String({ description: '"Profile found." or "Profile not found."' }),
    credits_consumed: Type.Integer(),
  },
  { title: 'ProfileSearchResult' },
);
export type ProfileSearchFound = Omit<Static<typeof ProfileSearchResponse>, 'credits_consumed' | 'message'>;

export const PersonalEmailResponse = Type.Object(
  {
    profile_url: Str,
    personal_email: Nullable(Type.String({ description: 'The best personal address: verified valid first, then the latest seen' })),
    personal_emails: Nullable(Type.Array(Type.String(), { description: 'Every personal address held, best first' })),
    status: Type.Union([Type.Literal('found'), Type.Literal('not_found')], { description: 'Whether a personal address was found' }),
    message: Type.String({ description: '"Personal email found." or "No personal email found for this profile."' }),
    credits_consumed: Type.Integer(),
  },
  { title: 'PersonalEmailResult' },
);
export type PersonalEmailFound = { profile_url: string; personal_email: string; personal_emails: string[] };

export const JobChangeBody = Type.Object(
  {
    profile_url: Text({ maxLength: 512, description: 'Public identifier (or URL) of the profile' }),
    company_domain: Type.Optional(Text({ maxLength: 512, description: 'The company they were known to work at' })),
    company_name: Type.Optional(Text({ maxLength: 512 })),
  },
  { title: 'JobChangeRequest', description: 'profile_url and at least one of company_domain and company_name are required.' },
);
export type JobChangeBody = Static<typeof JobChangeBody>;

const JobChangeStatus = Type.Union([Type.Literal('NO_CHANGE'), Type.Literal('JOB_CHANGE_DETECTED'), Type.Literal('NEVER_WORKED_THERE')]);

export const JobChangeResponse = Type.Object(
  {
    profile_url: Str,
    job_change_detected: Nullable(Type.Boolean({ description: 'Whether they no longer hold a position at the company asked about' })),
    status: Nullable(JobChangeStatus),
    company_name: Nullable(Type.String({ description: 'The company asked about, as stored' })),
    changed_at: Nullable(Type.String({ description: '"YYYY-MM": when their last position at the company asked about ended' })),
    previous_position: Nullable(WorkExperience),
    current_position: Nullable(WorkExperience),
    work_history: Nullable(Type.Array(WorkExperience)),
    message: Type.String({ description: '"Job change checked." or "Profile or company not found."' }),
    credits_consumed: Type.Integer(),
  },
  { title: 'JobChangeResult' },
);
export type JobChangeFound = Omit<Static<typeof JobChangeResponse>, 'credits_consumed' | 'message'>;

const TextList = (description: string) => Type.Optional(Type.Array(Text({ maxLength: 256 }), { maxItems: 100, description }));

export const PeopleSearchBody = Type.Object(
  {
    company_filters: Type.Optional(
      Type.Object({
        company_domain: TextList('Company domains (a URL or an email also works)'),
        company_industry: TextList('Industries as the company store writes them ("industrial automation")'),
        company_country: TextList('Countries: ISO codes or names'),
        company_size: TextList('Size labels: 1-10, 11-50, 51-200, 201-500, 501-1000, 1001-5000, 5001-10000, 10001+'),
        min_employees: Type.Optional(BoundedInteger({ minimum: 0 })),
        max_employees: Type.Optional(BoundedInteger({ minimum: 0 })),
      }),
    ),
    people_filters: Type.Optional(
      Type.Object({
        contact_job_function: TextList('Job functions: short names (Sales, Marketing, Engineering …) or labels (docs/people.md)'),
        contact_job_level: TextList('Job levels: C-Level, Founder, Owner, Partner, VP, Director, Manager, Lead, Staff …'),
        min_seniority: Type.Optional(Text({ maxLength: 64, description: 'The least senior level answered' })),
        has_email: Type.Optional(Type.Boolean({ description: 'Only people we hold a work address for (true) or without one (false)' })),
      }),
    ),
    page: Type.Optional(BoundedInteger({ minimum: 1, maximum: 10000, default: 1 })),
    per_page: Type.Optional(BoundedInteger({ minimum: 1, maximum: 100, default: 25 })),
  },
  { title: 'PeopleSearchRequest', description: 'At least one filter is required.' },
);
export type PeopleSearchBody = Static<typeof PeopleSearchBody>;

export const PersonFound = Type.Object(
  {
    full_name: Type.String(),
    first_name: Str,
    last_name: Str,
    profile_url: Str,
    job_title: Type.String(),
    job_function: Nullable(Type.String({ description: 'The job function label' })),
    job_level: Type.String({ description: 'The level of their most senior matching role' }),
    company_name: Type.String(),
    company_domain: Str,
    company_website: Str,
    company_industry: Str,
    company_size: Str,
    company_country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2' })),
    has_email: Type.Boolean({ description: 'Whether we hold a work address for them (email finder, profile to email)' }),
  },
  { title: 'PersonFound' },
);
export type PersonFound = Static<typeof PersonFound>;

export const PeopleSearchResponse = Type.Object(
  {
    message: Type.String({ description: '"People found." or "No people found."' }),
    total_count: Type.Integer({
      description:
        'People matching the filters: exact up to 1,000 people (or 2,000 matching roles), above that an estimate, never below 1,001 (docs/people.md)',
    }),
    total_count_exact: Type.Boolean({ description: 'false when total_count is an estimate from a sample of the store' }),
    returned_count: Type.Integer(),
    page: Type.Integer(),
    per_page: Type.Integer(),
    credits_consumed: CreditsNumber,
    data: Type.Array(PersonFound),
  },
  { title: 'PeopleSearchResult' },
);
