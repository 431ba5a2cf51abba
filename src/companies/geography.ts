// Country names, codes and continents for company locations (docs/contract.md, Values: lower-case text,
// continent one of africa, antarctica, asia, europe, north america, oceania, south america).
import { countryByCode, countryCodeByName, type Country } from '../lookups/countries.ts';

export interface CountryInfo {
  code: string;
  /** Lower-case common English name. */
  name: string;
  continent: string;
}

function continentOf(c: Country): string {
  switch (c.region) {
    case 'Africa':
      return 'africa';
    case 'Asia':
      return 'asia';
    case 'Europe':
      return 'europe';
    case 'Oceania':
      return 'oceania';
    case 'Antarctic':
      return 'antarctica';
    case 'Americas':
      return c.subregion === 'South America' ? 'south america' : 'north america';
    default:
      return 'asia';
  }
}

/** The country a name, alpha-2 or alpha-3 code refers to, or null (see lookups/countries.ts). */
export function lookupCountry(text: string | null | undefined): CountryInfo | null {
  if (!text) return null;
  const given = String(text).trim();
  const code = /^[A-Za-z]{2,3}$/.test(given) ? countryByCode(given)?.code : undefined;
  const country = countryByCode(code ?? countryCodeByName(given) ?? '');
  return country ? { code: country.code, name: country.name.common.toLowerCase(), continent: continentOf(country) } : null;
}

// US state and Canadian province codes, as SEC filings and many registries write them.
const US_STATES: Record<string, string> = {
  AL: 'alabama',
  AK: 'alaska',
  AZ: 'arizona',
  AR: 'arkansas',
  CA: 'california',
  CO: 'colorado',
  CT: 'connecticut',
  DE: 'delaware',
  DC: 'district of columbia',
  FL: 'florida',
  GA: 'georgia',
  HI: 'hawaii',
  ID: 'idaho',
  IL: 'illinois',
  IN: 'indiana',
  IA: 'iowa',
  KS: 'kansas',
  KY: 'kentucky',
  LA: 'louisiana',
  ME: 'maine',
  MD: 'maryland',
  MA: 'massachusetts',
  MI: 'michigan',
  MN: 'minnesota',
  MS: 'mississippi',
  MO: 'missouri',
  MT: 'montana',
  NE: 'nebraska',
  NV: 'nevada',
  NH: 'new hampshire',
  NJ: 'new jersey',
  NM: 'new mexico',
  NY: 'new york',
  NC: 'north carolina',
  ND: 'north dakota',
  OH: 'ohio',
  OK: 'oklahoma',
  OR: 'oregon',
  PA: 'pennsylvania',
  RI: 'rhode island',
  SC: 'south carolina',
  SD: 'south dakota',
  TN: 'tennessee',
  TX: 'texas',
  UT: 'utah',
  VT: 'vermont',
  VA: 'virginia',
  WA: 'washington',
  WV: 'west virginia',
  WI: 'wisconsin',
  WY: 'wyoming',
  PR: 'puerto rico',
  GU: 'guam',
  VI: 'virgin islands',
};
const CA_PROVINCES: Record<string, string> = {
  A0: 'alberta',
  A1: 'british columbia',
  A2: 'manitoba',
  A3: 'new brunswick',
  A4: 'newfoundland and labrador',
  A5: 'nova scotia',
  A6: 'ontario',
  A7: 'prince edward island',
  A8: 'quebec',
  A9: 'saskatchewan',
  B0: 'yukon',
};

/** A US state or (EDGAR-coded) Canadian province: its lower-case name and country code, or null. */
export function lookupUsStateOrProvince(code: string | null | undefined): { region: string; countryCode: string } | null {
  if (!code) return null;
  const c = code.trim().toUpperCase();
  if (US_STATES[c]) return { region: US_STATES[c], countryCode: 'US' };
  if (CA_PROVINCES[c]) return { region: CA_PROVINCES[c], countryCode: 'CA' };
  return null;
}
