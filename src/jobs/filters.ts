import { InvalidInputError } from '../invalid-input.ts';
import { JOB_COMPANY_TYPES, JOB_INDUSTRIES, JOB_REGIONS, JOB_TYPES, jobCountries, type LookupItem } from '../lookups/data.ts';
import type { JobsFinderBody } from '../contract/jobs.ts';

/**
 * Country codes clients commonly send for another ISO 3166-1 code. "UK" is not an ISO code (the
 * United Kingdom is GB) but is what people and some documentation write; see docs/jobs.md.
 */
export const COUNTRY_ALIASES: Readonly<Record<string, string>> = { UK: 'GB' };

function checkId(field: string, id: number | undefined, list: LookupItem[], endpoint: string): void {
  if (id === undefined || list.some((item) => item.id === id)) return;
  // Short lists are spelled out; a long one is only named.
  const valid =
    list.length <= 12 ? `valid values are ${list.map((item) => `${item.id} (${item.name})`).join(', ')}; see` : 'valid ids are listed by';
  throw new InvalidInputError(field, `Unknown ${field} ${id}: ${valid} GET ${endpoint}.`);
}

/**
 * The filters with every id checked against its list, and the country code in its canonical form.
 * An unknown id is refused rather than matching nothing: a typo must not look like "no jobs".
 */
export function checkedFilters<T extends JobsFinderBody>(filters: T): T {
  checkId('region_id', filters.region_id, JOB_REGIONS, '/job-regions');
  checkId('job_type_id', filters.job_type_id, JOB_TYPES, '/job-types');
  checkId('company_type_id', filters.company_type_id, JOB_COMPANY_TYPES, '/job-company-types');
  checkId('company_industry_id', filters.company_industry_id, JOB_INDUSTRIES, '/job-industries');
  if (filters.country_id === undefined) return filters;
  const given = filters.country_id.toUpperCase();
  const code = COUNTRY_ALIASES[given] ?? given;
  if (!jobCountries().some((c) => c.id === code)) {
    throw new InvalidInputError(
      'country_id',
      `Unknown country_id "${filters.country_id}": use an ISO 3166-1 alpha-2 code such as US, GB or DE (UK is accepted for GB); GET /job-country lists them all.`,
    );
  }
  return { ...filters, country_id: code };
}
