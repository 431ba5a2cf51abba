import { Type, type Static } from '@sinclair/typebox';
import { BoundedInteger, Nullable, Text } from './common.ts';

const Str = Nullable(Type.String());
const Timestamp = Nullable(Type.String({ description: 'ISO 8601 timestamp in UTC' }));

export const CompanyFundingBody = Type.Object(
  {
    company_name: Type.Optional(Text({ description: 'Company name', maxLength: 512 })),
    company_domain: Type.Optional(Text({ description: 'Company domain (a URL or an email also works)', maxLength: 512 })),
    profile_url: Type.Optional(Text({ description: "The company's professional-network page URL", maxLength: 512 })),
  },
  { title: 'CompanyFundingRequest', description: 'At least one of company_name, company_domain and profile_url is required.' },
);
export type CompanyFundingBody = Static<typeof CompanyFundingBody>;

export const Headquarters = Type.Object({ city: Str, state: Str, country: Str, fullAddress: Str });

export const LeadershipPerson = Type.Object({
  firstName: Str,
  lastName: Str,
  designation: Str,
  prof: Nullable(Type.String({ description: 'Professional-network profile URL' })),
  social_b: Nullable(Type.String({ description: 'Social network B profile URL' })),
});

/** Extension: how the company relates to another company, as a source states it (stored in company_relations). */
export const CompanyRelation = Type.Object(
  {
    relation: Type.Union([Type.Literal('parent'), Type.Literal('subsidiary'), Type.Literal('acquired')], {
      description: 'The other company is its parent, its subsidiary, or a company it acquired',
    }),
    company_name: Type.String({ description: 'The other company, as the source names it' }),
    wikidata_id: Nullable(Type.String({ description: "The other company's Wikidata item (Q…), when the source gives it" })),
    since: Nullable(Type.String({ description: 'When the relation began (ISO 8601), when the source says' })),
    source: Type.String({ description: 'The source that states it (for example wikidata)' }),
  },
  { title: 'CompanyRelation' },
);
export type CompanyRelation = Static<typeof CompanyRelation>;

const relationsField = () =>
  Type.Array(CompanyRelation, {
    description:
      'Extension (not in the original API): parent, subsidiaries and acquired companies, parent first; empty when no source states any',
  });

export const FundingResult = Type.Object({
  basicInfo: Type.Object({
    companyName: Str,
    description: Str,
    shortName: Str,
    primaryDomain: Str,
    phone: Str,
    status: Str,
    ownership: Str,
    founded: Nullable(Type.String({ description: 'Year' })),
    followers: Nullable(Type.Integer()),
    headquarters: Nullable(Headquarters),
  }),
  financialInfo: Type.Object({
    revenue: Nullable(Type.Number()),
    totalFunding: Nullable(Type.Number()),
    formattedRevenue: Str,
    formattedFunding: Str,
    lastFundingRound: Nullable(Type.Object({ round: Str, date: Timestamp, amount: Nullable(Type.Number()) })),
  }),
  fundingHistory: Type.Array(
    Type.Object({
      round: Str,
      date: Timestamp,
      amount: Nullable(Type.String({ description: 'Formatted currency amount' })),
      investors: Type.Array(Type.String()),
    }),
  ),
  companySize: Type.Object({ employees: Nullable(Type.Integer()), employeeRange: Str, employeeGrowth: Str }),
  leadership: Type.Object(
    { ceo: Nullable(LeadershipPerson) },
    { additionalProperties: Nullable(LeadershipPerson), description: 'ceo, and other roles (cfo, cto, coo…) when known' },
  ),
  industryAndSectors: Type.Object({
    industrySectors: Type.Array(Type.String()),
    industries: Type.Array(Type.String()),
    technologyStack: Str,
  }),
  topCompetitors: Type.Array(
    Type.Object({
      name: Str,
      revenue: Str,
      employees: Str,
      totalFunding: Str,
      headquarters: Nullable(Headquarters),
      founded: Timestamp,
      ownership: Str,
      website: Str,
    }),
  ),
  acquisitions: Type.Array(Type.Object({ companyName: Str, acquisitionDate: Timestamp, description: Str, source: Str })),
  socialMedia: Type.Array(Type.Object({ platform: Type.String(), url: Type.String() })),
  news: Type.Array(Type.Object({ title: Str, source: Str, date: Timestamp })),
  pressReleases: Type.Array(Type.Object({ title: Str, source: Str, date: Timestamp })),
  keyHighlights: Type.Array(Type.Object({ type: Str, text: Str, source: Str, date: Timestamp, src: Str })),
  summarySection: Str,
  relations: relationsField(),
});
/** What the companies domain service returns when funding data is found. */
export type FundingResult = Static<typeof FundingResult>;

const nullableFundingFields = Object.fromEntries(Object.entries(FundingResult.properties).map(([k, v]) => [k, Nullable(v)])) as {
  [K in keyof typeof FundingResult.properties]: ReturnType<typeof Nullable<(typeof FundingResult.properties)[K]>>;
};

export const CompanyFundingResponse = Type.Object(
  {
    ...nullableFundingFields,
    message: Type.String({ description: '"Funding data found." or "No funding data found for this company."' }),
    credits_consumed: Type.Integer(),
  },
  { title: 'CompanyFundingResult' },
);
export type CompanyFundingResponse = Static<typeof CompanyFundingResponse>;

export const CompanySearchBody = Type.Object(
  {
    company_domain: Type.Optional(Text({ description: 'Company domain (a URL or an email also works)', maxLength: 512 })),
    company_name: Type.Optional(Text({ description: 'Company name', maxLength: 512 })),
    profile_url: Type.Optional(Text({ description: "The company's professional-network page URL", maxLength: 512 })),
  },
  { title: 'CompanySearchRequest', description: 'At least one of company_domain, company_name and profile_url is required.' },
);
export type CompanySearchBody = Static<typeof CompanySearchBody>;

/** A company profile from the company store (null where unknown). */
export const CompanyProfile = Type.Object(
  {
    company_name: Type.String(),
    company_id: Nullable(Type.Integer({ description: "The company's professional-network numeric id" })),
    description: Str,
    industry: Str,
    website_url: Str,
    domain: Nullable(Type.String({ description: 'The primary domain' })),
    employee_count: Nullable(Type.Integer()),
    employee_count_range: Nullable(
      Type.Object({ start: Type.Integer(), end: Nullable(Type.Integer({ description: 'null for the open range 10001+' })) }),
    ),
    follower_count: Nullable(Type.Integer()),
    founded_on: Nullable(Type.Object({ year: Type.Integer(), month: Type.Null(), day: Type.Null() })),
    company_type: Nullable(Type.String({ description: 'private, public, public_subsidiary, nonprofit, educational or government' })),
    locations: Type.Array(
      Type.Object({
        country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2 code' })),
        city: Str,
        geographic_area: Str,
        postal_code: Str,
        line1: Str,
        line2: Str,
        headquarter: Type.Boolean(),
        latitude: Nullable(Type.Number()),
        longitude: Nullable(Type.Number()),
      }),
    ),
    universal_name: Nullable(Type.String({ description: "The last part of the company's professional-network page URL" })),
    url: Nullable(Type.String({ description: "The company's professional-network page URL" })),
    relations: relationsField(),
  },
  { title: 'CompanyProfile' },
);
export type CompanyProfile = Static<typeof CompanyProfile>;

const nullableProfileFields = Object.fromEntries(Object.entries(CompanyProfile.properties).map(([k, v]) => [k, Nullable(v)])) as {
  [K in keyof typeof CompanyProfile.properties]: ReturnType<typeof Nullable<(typeof CompanyProfile.properties)[K]>>;
};

export const CompanySearchResponse = Type.Object(
  {
    ...nullableProfileFields,
    message: Type.String({ description: '"Company found." or "Company not found."' }),
    credits_consumed: Type.Integer(),
  },
  { title: 'CompanySearchResult' },
);
export type CompanySearchResponse = Static<typeof CompanySearchResponse>;

/** The most competitors one request answers. */
const COMPETITORS_MAX = 25;

export const CompetitorsBody = Type.Object(
  {
    company_domain: Type.Optional(Text({ description: 'Company domain (a URL or an email also works)', maxLength: 512 })),
    company_url: Type.Optional(Text({ description: "The company's website URL (read as its domain)", maxLength: 512 })),
    company_name: Type.Optional(Text({ description: 'Company name', maxLength: 512 })),
    profile_url: Type.Optional(Text({ description: "The company's professional-network page URL", maxLength: 512 })),
    limit: Type.Optional(
      BoundedInteger({ minimum: 1, maximum: COMPETITORS_MAX, default: 10, description: `How many competitors, up to ${COMPETITORS_MAX}` }),
    ),
  },
  {
    title: 'CompetitorsRequest',
    description: 'At least one of company_domain, company_url, company_name and profile_url is required.',
  },
);
export type CompetitorsBody = Static<typeof CompetitorsBody>;

export const CompetitorEntry = Type.Object(
  {
    name: Type.String(),
    domain: Str,
    website: Str,
    industry: Str,
    employee_count: Nullable(Type.Integer()),
    size_label: Str,
    country_code: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2: its market' })),
    founded_year: Nullable(Type.Integer()),
    description: Str,
    reasons: Type.Array(Type.String(), {
      description: 'Why it was chosen: named by a source, same industry, market, size band, shared sectors',
    }),
  },
  { title: 'Competitor' },
);

export const CompetitorsResponse = Type.Object(
  {
    company_name: Str,
    company_domain: Str,
    company_website: Str,
    competitors: Nullable(Type.Array(CompetitorEntry, { description: 'Named competitors first, then peers, best first' })),
    message: Type.String({ description: '"Competitors found." or "No competitors found for this company."' }),
    credits_consumed: Type.Integer(),
  },
  { title: 'CompetitorsResult' },
);

export const TechnographicsBody = Type.Object(
  {
    company_domain: Type.Optional(Text({ description: 'Company domain (a URL or an email also works)', maxLength: 512 })),
    company_url: Type.Optional(Text({ description: "The company's website URL (read as its domain)", maxLength: 512 })),
    company_name: Type.Optional(Text({ description: 'Company name', maxLength: 512 })),
    profile_url: Type.Optional(Text({ description: "The company's professional-network page URL", maxLength: 512 })),
  },
  {
    title: 'TechnographicsRequest',
    description: 'At least one of company_domain, company_url, company_name and profile_url is required.',
  },
);
export type TechnographicsBody = Static<typeof TechnographicsBody>;

export const TechnologyEntry = Type.Object(
  {
    name: Type.String({ description: 'As the technology dictionary names it' }),
    description: Str,
    categories: Type.Array(Type.String(), { description: 'The dictionary\'s categories ("CRM", "Databases", "JavaScript frameworks", …)' }),
    sub_technologies: Type.Array(Type.String(), { description: 'Always empty: listings do not say which parts of a product are used' }),
    postings: Type.Integer({ description: "How many of the company's listings read name it" }),
    first_seen: Type.String({ description: 'When the earliest of those listings was published (ISO 8601 UTC)' }),
    last_seen: Type.String({ description: 'When the latest of those listings was published (ISO 8601 UTC)' }),
    posting_title: Type.String({ description: 'The latest of those listings: its title' }),
    posting_url: Type.String({ description: 'The latest of those listings: its link' }),
  },
  { title: 'Technology' },
);

export const TechnographicsResponse = Type.Object(
  {
    company_name: Str,
    company_domain: Str,
    company_website: Str,
    technologies: Nullable(Type.Array(TechnologyEntry, { description: 'The technologies its job listings name, most-named first' })),
    postings_read: Nullable(Type.Integer({ description: "How many of the company's most recent listings were read (at most 500)" })),
    message: Type.String({ description: '"Technologies found." or "No technologies found for this company."' }),
    credits_consumed: Type.Integer(),
  },
  { title: 'TechnographicsResult' },
);
