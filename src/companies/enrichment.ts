// The company fields of the email-validation result (docs/contract.md, Values).
import type { CompanyRow } from './tables.ts';

export interface CompanyLocation {
  name: string | null;
  locality: string | null;
  region: string | null;
  metro: string | null;
  country: string | null;
  continent: string | null;
  street_address: string | null;
  address_line_2: string | null;
  postal_code: string | null;
  /** "lat,lon" */
  geo: string | null;
}

export interface CompanyEnrichment {
  company_name: string | null;
  company_industry: string | null;
  company_size: string | null;
  company_founded: number | null;
  /** Always an object (its fields null when unknown), so clients can read its fields safely. */
  company_location: CompanyLocation;
  /** Without scheme. */
  company_prof_url: string | null;
  company_prof_id: string | null;
  company_social_a_url: string | null;
  company_social_b_url: string | null;
  company_type: string | null;
}

const lower = (s: string | null) => (s === null ? null : s.toLowerCase());

export function toEnrichment(c: CompanyRow): CompanyEnrichment {
  return {
    company_name: c.name,
    company_industry: c.industry,
    company_size: c.size_label,
    company_founded: c.founded_year,
    company_location: {
      name: lower(c.location_name),
      locality: lower(c.locality),
      region: lower(c.region),
      metro: lower(c.metro),
      country: lower(c.country),
      continent: lower(c.continent),
      street_address: lower(c.street_address),
      address_line_2: lower(c.address_line_2),
      postal_code: lower(c.postal_code),
      geo: c.geo,
    },
    company_prof_url: c.prof_url ? c.prof_url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '') : null,
    company_prof_id: c.prof_id,
    company_social_a_url: c.social_a_url,
    company_social_b_url: c.social_b_url,
    company_type: c.company_type,
  };
}
