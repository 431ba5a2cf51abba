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
    // No schema `default`: validation would fill it in, and an empty answer names only the defaults
    // the client did not send (hidden_by_defaults), so the route must see whether it was sent.
    has_remote: Type.Optional(
      Type.Boolean({ description: 'true: remote-only listings; false: non-remote listings. Absent: false (the default)' }),
    ),
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

export const HiddenByDefaults = Type.Object(
  {
    count: Type.Integer({ description: 'Listings of this query that the defaults hid (each counted once)' }),
    filters: Type.Array(
      Type.Object({
        filter: Type.String({
          description: 'The default, as its request field and value: "posted_within: 30 (default)", "has_remote: false (default)", or both',
        }),
        would_show: Type.Integer({ description: 'Listings this request would find with `widen_with` added' }),
        widen_with: Type.Object(
          {
            posted_within: Type.Optional(Type.Integer({ description: 'Days back to the oldest of them (at most 36500)' })),
            has_remote: Type.Optional(Type.Literal(true)),
          },
          { additionalProperties: false, description: 'Fields to add to the request' },
        ),
      }),
      { description: 'Only the defaults that hid listings; none of the filters the request gave' },
    ),
  },
  {
    title: 'HiddenByDefaults',
    description:
      'Extension: present only when the search found no listing and listings of the query exist outside the defaults the request did not override (published in the last 30 days; non-remote only). Not on the LeadMagic v1 paths.',
  },
);
export type HiddenByDefaults = Static<typeof HiddenByDefaults>;

/** POST /jobs-finder's own answer: LeadMagic's shape (JobsFinderResponse, the v1 paths') and an empty answer's note. */
export const JobsFinderAnswer = Type.Object(
  { ...JobsFinderResponse.properties, hidden_by_defaults: Type.Optional(HiddenByDefaults) },
  { title: 'JobsFinderResult' },
);
export type JobsFinderAnswer = Static<typeof JobsFinderAnswer>;
/** What the jobs domain service returns; the route adds credits_consumed. */
export type JobSearchResult = Omit<JobsFinderResponse, 'credits_consumed'>;
