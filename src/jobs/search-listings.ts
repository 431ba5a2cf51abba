// Loading the listings of a page: the jobs rows of the ids a run found, in its order, with their
// company and places, as the jobs-finder answers them.
import type { Db } from '../db/database.ts';
import { EXPERIENCE_LEVEL_LABELS, type ExperienceLevel, type JobListing } from '../contract/jobs.ts';
import { JOB_TYPES } from '../lookups/data.ts';
import { cityById, countryInfo, regionName } from './geo.ts';

const typeNames = new Map(JOB_TYPES.map((t) => [t.id, t.name]));

/** The listings of `ids`, in that order (an id whose listing is gone meanwhile is left out). */
export async function loadListings(db: Db, ids: number[]): Promise<JobListing[]> {
  const rows = await db
    .selectFrom('jobs as j')
    .leftJoin('companies as c', 'c.id', 'j.company_id')
    .select([
      'j.id',
      'j.title',
      'j.location',
      'j.has_remote',
      'j.published_at',
      'j.experience_level',
      'j.type_ids',
      'j.city_ids',
      'j.country_codes',
      'j.region_ids',
      'j.clearance_required',
      'j.language',
      'j.salary_min',
      'j.salary_max',
      'j.salary_currency',
      'j.description',
      'j.application_url',
      'j.company_name',
      'c.name as c_name',
      'c.website as c_website',
      'c.domain as c_domain',
      'c.prof_url as c_prof_url',
      'c.social_b_handle as c_social_b_handle',
      'c.code_host_url as c_code_host_url',
    ])
    .where('j.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids
    .map((id) => byId.get(id))
    .filter((r) => r !== undefined)
    .map((r) => {
      const countries = (JSON.parse(r.country_codes) as string[]).map(countryInfo).filter((c) => c !== null);
      return {
        company: {
          name: r.c_name ?? r.company_name,
          website_url: r.c_website ?? (r.c_domain ? `https://${r.c_domain}` : null),
          prof_url: r.c_prof_url ?? null,
          social_b_handle: r.c_social_b_handle ?? null,
          code_host_url: r.c_code_host_url ?? null,
        },
        title: r.title,
        location: r.location,
        types: (JSON.parse(r.type_ids) as number[]).map((id) => ({ id, name: typeNames.get(id) ?? String(id) })),
        cities: (JSON.parse(r.city_ids) as number[]).flatMap((gid) => {
          const city = cityById(gid);
          const country = city && countryInfo(city.country);
          return city && country
            ? [
                {
                  geonameid: city.geonameid,
                  asciiname: city.asciiname,
                  name: city.name,
                  country,
                  timezone: city.timezone,
                  latitude: city.latitude,
                  longitude: city.longitude,
                },
              ]
            : [];
        }),
        countries,
        regions: (JSON.parse(r.region_ids) as number[]).map((id) => ({ id, name: regionName(id) ?? String(id) })),
        has_remote: r.has_remote === 1,
        published: new Date(Number(r.published_at)).toISOString(),
        description: r.description,
        application_url: r.application_url,
        language: r.language,
        clearance_required: r.clearance_required === 1,
        salary_min: r.salary_min === null ? null : Number(r.salary_min),
        salary_max: r.salary_max === null ? null : Number(r.salary_max),
        salary_currency: r.salary_currency,
        experience_level: EXPERIENCE_LEVEL_LABELS[r.experience_level as ExperienceLevel] ?? null,
      };
    });
}
