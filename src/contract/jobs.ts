import { Type, type Static } from '@sinclair/typebox';
import { IdName, Nullable, Text, BoundedInteger } from './common.ts';

export const EXPERIENCE_LEVELS = ['entry', 'mid', 'senior', 'executive'] as const;
export type ExperienceLevel = (typeof EXPERIENCE_LEVELS)[number];
export const EXPERIENCE_LEVEL_LABELS: Record<ExperienceLevel, string> = {
  entry: 'Entry Level',
  mid: 'Mid Level',
  senior: 'Senior Level',
  executive: 'Executive Level',
};

const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD' });

export const JobsFinderBody = Type.Object(
  {
    company_name: Type.Optional(Text({ maxLength: 512 })),
    company_website: Type.Optional(Text({ maxLength: 512 })),
    job_title: Type.Optional(Text({ maxLength: 512 })),
    location: Type.Optional(Text({ maxLength: 512 })),
    experience_level: Type.Optional(
      Type.Union(
        EXPERIENCE_LEVELS.map((l) => Type.Literal(l)),
        { description: 'When absent, all levels are included' },
      ),
    ),
    job_description: Type.Optional(Text({ maxLength: 1024, description: 'Keywords or "quoted phrases" matched in the description' })),
    country_id: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Id from GET /job-country' })),
    region_id: Type.Optional(BoundedInteger({ minimum: 1, description: 'Id from GET /job-regions' })),
    job_type_id: Type.Optional(BoundedInteger({ minimum: 1, description: 'Id from GET /job-types' })),
    company_type_id: Type.Optional(BoundedInteger({ minimum: 1, description: 'Id from GET /job-company-types' })),
    company_industry_id: Type.Optional(BoundedInteger({ minimum: 1, description: 'Id from GET /job-industries' })),
    min_employees: Type.Optional(BoundedInteger({ minimum: 0 })),
    max_employees: Type.Optional(BoundedInteger({ minimum: 0 })),
    has_remote: Type.Optional(Type.Boolean({ default: false, description: 'true: remote-only listings; false: non-remote listings' })),
    posted_within: Type.Optional(
      BoundedInteger({
        minimum: 1,
        maximum: 36500,
        description: 'Days since posting; default 30 when neither posted_after nor posted_before is given',
      }),
    ),
    posted_after: Type.Optional(DateOnly),
    posted_before: Type.Optional(DateOnly),
    page: Type.Optional(BoundedInteger({ minimum: 1, maximum: 100000, default: 1 })),
    per_page: Type.Optional(BoundedInteger({ minimum: 1, maximum: 50, default: 20 })),
  },
  { title: 'JobsFinderRequest' },
);
export type JobsFinderBody = Static<typeof JobsFinderBody>;

export const JobCountry = Type.Object({ code: Type.String(), name: Type.String(), region: IdName });

export const JobListing = Type.Object(
  {
    company: Type.Object({
      name: Nullable(Type.String()),
      website_url: Nullable(Type.String()),
      prof_url: Nullable(Type.String()),
      social_b_handle: Nullable(Type.String()),
      code_host_url: Nullable(Type.String()),
    }),
    title: Type.String(),
    location: Type.String(),
    types: Type.Array(IdName),
    cities: Type.Array(
      Type.Object({
        geonameid: Type.Integer(),
        asciiname: Type.String(),
        name: Type.String(),
        country: JobCountry,
        timezone: Type.String(),
        latitude: Type.String(),
        longitude: Type.String(),
      }),
    ),
    countries: Type.Array(JobCountry),
    regions: Type.Array(IdName),
    has_remote: Type.Boolean(),
    published: Type.String({ description: 'ISO 8601 timestamp in UTC' }),
    description: Type.String(),
    application_url: Type.String(),
    language: Type.String({ description: 'Language code' }),
    clearance_required: Type.Boolean(),
    salary_min: Nullable(Type.Number()),
    salary_max: Nullable(Type.Number()),
    salary_currency: Nullable(Type.String({ description: 'ISO 4217 code' })),
    experience_level: Nullable(Type.String({ description: 'Entry Level, Mid Level, Senior Level or Executive Level' })),
  },
  { title: 'JobListing' },
);
export type JobListing = Static<typeof JobListing>;

export const JobsFinderResponse = Type.Object(
  {
    total_count: Type.Integer({ default: 0 }),
    page: Type.Integer({ default: 0 }),
    per_page: Type.Integer({ default: 0 }),
    total_pages: Type.Integer({ default: 0 }),
    credits_consumed: Type.Integer({ default: 0 }),
    results: Type.Array(JobListing),
  },
  { title: 'JobsFinderResult' },
);
export type JobsFinderResponse = Static<typeof JobsFinderResponse>;
/** What the jobs domain service returns; the route adds credits_consumed. */
export type JobSearchResult = Omit<JobsFinderResponse, 'credits_consumed'>;
