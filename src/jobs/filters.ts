import { InvalidInputError } from '../platform/invalid-input.ts';
import { JOB_COMPANY_TYPES, JOB_INDUSTRIES, JOB_REGIONS, JOB_TYPES, type LookupItem } from '../lookups/data.ts';
import { alpha2Code } from '../lookups/countries.ts';
import type { JobsFinderBody } from '../contract/jobs.ts';

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
export function checkedFilters<T extends Omit<JobsFinderBody, 'has_remote'>>(filters: T): T {
  checkId('region_id', filters.region_id, JOB_REGIONS, '/job-regions');
  checkId('job_type_id', filters.job_type_id, JOB_TYPES, '/job-types');
  checkId('company_type_id', filters.company_type_id, JOB_COMPANY_TYPES, '/job-company-types');
  checkId('company_industry_id', filters.company_industry_id, JOB_INDUSTRIES, '/job-industries');
  if (filters.country_id === undefined) return filters;
  const code = alpha2Code(filters.country_id);
  if (!code) {
    throw new InvalidInputError(
      'country_id',
      `Unknown country_id "${filters.country_id}": use an ISO 3166-1 alpha-2 code such as US, GB or DE (UK is accepted for GB); GET /job-country lists them all.`,
    );
  }
  return { ...filters, country_id: code };
}
