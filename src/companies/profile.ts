// A company as company search answers it: the store's facts in the profile shape clients of
// prospecting APIs know (size range as numbers, founding date as an object, locations as a list).
import type { Selectable } from 'kysely';
import type { CompanyProfile, CompanyRelation } from '../contract/companies.ts';
import type { CompanyRelationTable, CompanyRow } from './tables.ts';
import { withScheme, withoutScheme } from './input.ts';

/** "51-200" → {start: 51, end: 200}; "10001+" → {start: 10001, end: null}. */
export function sizeRange(label: string | null): { start: number; end: number | null } | null {
  const m = label?.replace(/,/g, '').match(/^\s*(\d+)\s*(?:-\s*(\d+)|\+)\s*$/);
  if (!m) return null;
  return { start: Number(m[1]), end: m[2] === undefined ? null : Number(m[2]) };
}

/** The forms a professional-network URL is compared in: lower case, no scheme, no query, with and without "www.". */
export function profUrlForms(url: string): string[] {
  const bare = withoutScheme(
    url
      .trim()
      .toLowerCase()
      .replace(/[?#].*$/, ''),
  )?.replace(/\/+$/, '');
  if (!bare) return [];
  const noWww = bare.replace(/^www\./, '');
  return [...new Set([noWww, `www.${noWww}`])];
}

/** The last path segment of a company page URL: "prof.example/company/acme-inc" → "acme-inc". */
function universalName(profUrl: string | null): string | null {
  const path = withoutScheme(profUrl)
    ?.replace(/[?#].*$/, '')
    .split('/')
    .filter(Boolean);
  return path && path.length > 1 ? decodeURIComponent(path[path.length - 1]) : null;
}

/** A company's website as answers show it: the one recorded, else its domain as an https address. */
export function websiteOf(c: Pick<CompanyRow, 'website' | 'domain'>): string | null {
  return c.website ?? (c.domain ? `https://${c.domain}` : null);
}

function coordinates(geo: string | null): { latitude: number; longitude: number } | null {
  const [lat, lon] = (geo ?? '').split(',').map((part) => Number(part.trim()));
  return geo && Number.isFinite(lat) && Number.isFinite(lon) ? { latitude: lat, longitude: lon } : null;
}

const RELATION_ORDER: Record<string, number> = { parent: 0, subsidiary: 1, acquired: 2 };

/** Stored relations as the answer gives them: parent first, then subsidiaries, then acquisitions, the latest first. */
export function relationsOf(rows: Selectable<CompanyRelationTable>[]): CompanyRelation[] {
  return [...rows]
    .sort(
      (a, b) =>
        (RELATION_ORDER[a.relation] ?? 9) - (RELATION_ORDER[b.relation] ?? 9) ||
        (b.since ?? -Infinity) - (a.since ?? -Infinity) ||
        a.company_name.localeCompare(b.company_name),
    )
    .map((r) => ({
      relation: r.relation as CompanyRelation['relation'],
      company_name: r.company_name,
      wikidata_id: r.wikidata_id,
      since: r.since === null ? null : new Date(Number(r.since)).toISOString(),
      source: r.source,
    }));
}

export function toCompanyProfile(c: CompanyRow, relations: Selectable<CompanyRelationTable>[] = []): CompanyProfile {
  const point = coordinates(c.geo);
  const hasLocation = [c.country_code, c.locality, c.region, c.postal_code, c.street_address].some(Boolean);
  return {
    company_name: c.name,
    company_id: c.prof_id && /^\d{1,15}$/.test(c.prof_id) ? Number(c.prof_id) : null,
    description: c.description,
    industry: c.industry,
    website_url: websiteOf(c),
    domain: c.domain,
    employee_count: c.employee_count,
    employee_count_range: sizeRange(c.size_label),
    follower_count: c.followers,
    founded_on: c.founded_year ? { year: c.founded_year, month: null, day: null } : null,
    company_type: c.company_type,
    locations: hasLocation
      ? [
          {
            country: c.country_code,
            city: c.locality,
            geographic_area: c.region,
            postal_code: c.postal_code,
            line1: c.street_address,
            line2: c.address_line_2,
            headquarter: true,
            latitude: point?.latitude ?? null,
            longitude: point?.longitude ?? null,
          },
        ]
      : [],
    universal_name: universalName(c.prof_url),
    url: withScheme(c.prof_url),
    relations: relationsOf(relations),
  };
}
