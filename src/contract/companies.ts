import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Text } from './common.ts';

const Str = Nullable(Type.String());
const Timestamp = Nullable(Type.String({ description: 'ISO 8601 timestamp in UTC' }));

export const CompanyFundingBody = Type.Object(
  {
    company_name: Type.Optional(Text({ description: 'Company name', maxLength: 512 })),
    company_domain: Type.Optional(Text({ description: 'Company domain (a URL or an email also works)', maxLength: 512 })),
  },
  { title: 'CompanyFundingRequest', description: 'At least one of company_name and company_domain is required.' },
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
