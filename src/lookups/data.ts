import { allCountries } from './countries.ts';

// The reference lists behind the jobs-finder filters. Ids are part of the wire
// contract: append new entries, never renumber.

export interface LookupItem {
  id: number;
  name: string;
}

export const JOB_TYPES: LookupItem[] = [
  { id: 1, name: 'Full Time' },
  { id: 2, name: 'Part Time' },
  { id: 3, name: 'Temporary' },
  { id: 4, name: 'Internship' },
  { id: 5, name: 'Freelance' },
  { id: 6, name: 'Contract' },
];

export const JOB_REGIONS: LookupItem[] = [
  { id: 1, name: 'Africa' },
  { id: 2, name: 'Asia/Pacific' },
  { id: 3, name: 'Europe' },
  { id: 4, name: 'Middle East' },
  { id: 5, name: 'North America' },
  { id: 6, name: 'South America' },
];

export const JOB_COMPANY_TYPES: LookupItem[] = [
  { id: 1, name: 'Startup' },
  { id: 2, name: 'Small Business' },
  { id: 3, name: 'Mid-Market' },
  { id: 4, name: 'Enterprise' },
  { id: 5, name: 'Public' },
  { id: 6, name: 'Private' },
  { id: 7, name: 'Non-Profit' },
  { id: 8, name: 'Government' },
  { id: 9, name: 'Educational' },
  { id: 10, name: 'Agency' },
];

export const JOB_INDUSTRIES: LookupItem[] = [
  { id: 1, name: 'Software & IT Services' },
  { id: 2, name: 'Internet' },
  { id: 3, name: 'Computer Hardware & Semiconductors' },
  { id: 4, name: 'Telecommunications' },
  { id: 5, name: 'Financial Services' },
  { id: 6, name: 'Banking' },
  { id: 7, name: 'Insurance' },
  { id: 8, name: 'Venture Capital & Private Equity' },
  { id: 9, name: 'Healthcare' },
  { id: 10, name: 'Biotechnology & Pharmaceuticals' },
  { id: 11, name: 'Medical Devices' },
  { id: 12, name: 'Education' },
  { id: 13, name: 'Retail' },
  { id: 14, name: 'Consumer Goods' },
  { id: 15, name: 'Food & Beverage' },
  { id: 16, name: 'Manufacturing' },
  { id: 17, name: 'Automotive' },
  { id: 18, name: 'Aerospace & Defense' },
  { id: 19, name: 'Energy & Utilities' },
  { id: 20, name: 'Oil & Gas' },
  { id: 21, name: 'Construction' },
  { id: 22, name: 'Real Estate' },
  { id: 23, name: 'Transportation & Logistics' },
  { id: 24, name: 'Hospitality & Travel' },
  { id: 25, name: 'Media & Entertainment' },
  { id: 26, name: 'Marketing & Advertising' },
  { id: 27, name: 'Professional Services & Consulting' },
  { id: 28, name: 'Legal Services' },
  { id: 29, name: 'Government & Public Administration' },
  { id: 30, name: 'Non-Profit & Philanthropy' },
  { id: 31, name: 'Agriculture' },
  { id: 32, name: 'Staffing & Recruiting' },
  { id: 33, name: 'Gaming' },
  { id: 34, name: 'Security & Investigations' },
  { id: 35, name: 'Environmental Services' },
];

export interface CountryItem {
  id: string;
  name: string;
  region_id: number;
}

/** Maps a country's UN region/subregion to one of the six job regions. */
export function jobRegionFor(region: string, subregion: string, code: string): number {
  // Egypt is usually counted with the Middle East in job-market data; Western Asia is, too,
  // except the Caucasus and Cyprus, which job boards list under Europe.
  if (code === 'EG') return 4;
  if (['AM', 'AZ', 'GE', 'CY'].includes(code)) return 3;
  switch (region) {
    case 'Africa':
      return 1;
    case 'Asia':
      return subregion === 'Western Asia' ? 4 : 2;
    case 'Oceania':
      return 2;
    case 'Europe':
      return 3;
    case 'Americas':
      return subregion === 'South America' ? 6 : 5;
    case 'Antarctic':
      return 2;
    default:
      return 2;
  }
}

let countriesCache: CountryItem[] | undefined;

/** Every ISO 3166-1 country with its common English name and job region. */
export function jobCountries(): CountryItem[] {
  countriesCache ??= allCountries()
    .map((c) => ({ id: c.code, name: c.name.common, region_id: jobRegionFor(c.region, c.subregion, c.code) }))
    .sort((a, b) => a.id.localeCompare(b.id));
  return countriesCache;
}
