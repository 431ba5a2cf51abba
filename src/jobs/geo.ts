// Resolves free-text job locations ("San Francisco, CA", "Berlin, Germany; Remote", "Toronto, ON")
// to GeoNames cities, ISO countries and job regions. The city list is src/jobs/geo-data/cities.tsv
// (GeoNames, CC BY 4.0; built by geo-data/build-cities.ts); the states, provinces, region words and
// other names it knows are geo-data/places.ts; countries and their region ids come from the platform
// lookup list (src/lookups/data.ts) so the ids served by GET /job-country match.
import { readFileSync } from 'node:fs';
import { JOB_REGIONS, jobCountries } from '../lookups/data.ts';
import { textKey } from '../platform/text-key.ts';
import { countryCodeByName } from '../lookups/countries.ts';
import {
  US_STATES,
  CA_PROVINCES,
  AU_STATES,
  REGION_WORDS,
  CITY_ALIASES,
  CITY_RENAMINGS,
  PLACE_COUNTRIES,
  PROVINCE_NAMES,
  CITY_STATES,
  REMOTE_PATTERN,
} from './geo-data/places.ts';

export interface GeoCity {
  geonameid: number;
  name: string;
  asciiname: string;
  country: string;
  admin1: string;
  latitude: string;
  longitude: string;
  timezone: string;
  population: number;
}

export interface ResolvedLocation {
  cities: GeoCity[];
  /** ISO 3166-1 alpha-2 codes, in the order they were found. */
  countries: string[];
  /** Job region ids (src/lookups/data.ts JOB_REGIONS), from the countries and from region words. */
  regions: number[];
  /** The text names a remote arrangement ("Remote", "Anywhere", "Work from home"). */
  remote: boolean;
}

const US_STATE_CODES = new Set(Object.values(US_STATES));

interface GeoIndex {
  byKey: Map<string, GeoCity[]>;
  byId: Map<number, GeoCity>;
}

let index: GeoIndex | undefined;

function loadIndex(): GeoIndex {
  if (index) return index;
  const text = readFileSync(new URL('./geo-data/cities.tsv', import.meta.url), 'utf8');
  const byKey = new Map<string, GeoCity[]>();
  const byId = new Map<number, GeoCity>();
  const add = (key: string, city: GeoCity) => {
    if (!key) return;
    const list = byKey.get(key);
    if (!list) byKey.set(key, [city]);
    else if (!list.includes(city)) list.push(city);
  };
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const [id, name, asciiname, country, admin1, latitude, longitude, timezone, population, aliases] = line.split('\t');
    const city: GeoCity = {
      geonameid: Number(id),
      name,
      asciiname,
      country,
      admin1,
      latitude,
      longitude,
      timezone,
      population: Number(population),
    };
    byId.set(city.geonameid, city);
    add(textKey(name), city);
    add(textKey(asciiname), city);
    if (aliases) for (const alias of aliases.split(',')) add(textKey(alias), city);
  }
  for (const list of byKey.values()) list.sort((a, b) => b.population - a.population);

  index = { byKey, byId };
  return index;
}

export function cityById(geonameid: number): GeoCity | undefined {
  return loadIndex().byId.get(geonameid);
}

const countryNames = new Map(jobCountries().map((c) => [c.id, c]));
const regionNames = new Map(JOB_REGIONS.map((r) => [r.id, r.name]));

export function countryInfo(code: string): { code: string; name: string; region: { id: number; name: string } } | null {
  const c = countryNames.get(code);
  if (!c) return null;
  return { code: c.id, name: c.name, region: { id: c.region_id, name: regionNames.get(c.region_id)! } };
}

export function regionName(id: number): string | undefined {
  return regionNames.get(id);
}

/** A two- or three-letter segment read as a country code, or null. */
function countryCodeSegment(segment: string): string | null {
  if (/^[A-Z]{2}$/.test(segment) && countryNames.has(segment)) return segment;
  if (/^[A-Z]{3}$/.test(segment)) return countryCodeByName(segment);
  return null;
}

interface PlaceHints {
  country?: string;
  usState?: string;
  admin1?: string;
}

/** What a state or province code after a city says ("NY", "ON", "NSW"), or null. */
function codeHints(raw: string): PlaceHints | null {
  if (!/^[A-Z]{2,3}$/.test(raw)) return null;
  if (US_STATE_CODES.has(raw)) return { country: 'US', usState: raw };
  if (CA_PROVINCES[raw]) return { country: 'CA', admin1: CA_PROVINCES[raw] };
  if (AU_STATES[raw]) return { country: 'AU', admin1: AU_STATES[raw] };
  return null;
}

/** What a state or province name after a city says ("Oregon", "Ontario"), or an island or nation anywhere ("Bali", "Scotland"). */
function nameHints(key: string, afterCity: boolean): PlaceHints | null {
  const state = US_STATES[key];
  if (state && afterCity) return { country: 'US', usState: state };
  const within = PLACE_COUNTRIES[key];
  if (within) return { country: within };
  const province = PROVINCE_NAMES[key];
  if (province && afterCity) return { country: province[0], admin1: province[1] };
  return null;
}

/** Adds what a segment says: the first country named stands, a state or province narrows it. */
function addHints(hints: PlaceHints, more: PlaceHints): void {
  hints.country ??= more.country;
  if (more.usState) hints.usState = more.usState;
  if (more.admin1) hints.admin1 = more.admin1;
}

/** The cities a name can mean, most populous first: an alias's one city, a renamed city in its country, then the index's. */
function cityCandidates(key: string, geo: GeoIndex): GeoCity[] {
  const aliased = CITY_ALIASES[key];
  if (aliased) return [geo.byId.get(aliased)!].filter(Boolean);
  const renamed = CITY_RENAMINGS[key];
  if (!renamed) return geo.byKey.get(key) ?? [];
  return [...(geo.byKey.get(renamed[0]) ?? []).filter((c) => c.country === renamed[1]), ...(geo.byKey.get(key) ?? [])];
}

/**
 * `fixed`: the country the source itself gives (a structured field). A place the text names only by
 * a city's name is looked for in that country alone ("Bali" with country ID is not Bari, Italy);
 * what the text says explicitly ("Toronto, ON", "Berlin, Germany") is still read as written.
 */
function resolvePlace(place: string, geo: GeoIndex, out: ResolvedLocation, fixed?: string): void {
  const segments = place
    .split(/\s*,\s*|\s+-\s+|\s*\(\s*|\s*\)\s*/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (isCityList(place, segments, geo)) {
    for (const segment of segments) resolvePlace(segment, geo, out, fixed);
    return;
  }
  const hints: PlaceHints = {};
  const rest: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const raw = segments[i];
    const key = textKey(raw);
    if (!key) continue;
    if (REMOTE_PATTERN.test(raw) && key.split(' ').length <= 3) {
      out.remote = true;
      const left = key
        .replace(REMOTE_PATTERN, ' ')
        .replace(/\b(only|first|friendly|ok|possible|option)\b/g, ' ')
        .trim();
      if (!left) continue;
      segments[i] = left;
      i--;
      continue;
    }
    const regionIds = REGION_WORDS[key];
    if (regionIds) {
      for (const r of regionIds) if (!out.regions.includes(r)) out.regions.push(r);
      continue;
    }
    // A trailing "CA", "NY", "ON" after a city names a state or province, not a country.
    const code = i > 0 ? codeHints(raw) : null;
    if (code) {
      addHints(hints, code);
      continue;
    }
    const country = countryCodeSegment(raw) ?? countryCodeByName(key);
    if (country && (i > 0 || segments.length === 1 || !geo.byKey.has(key))) {
      hints.country = country;
      // A city-state ("Singapore", "Hong Kong", "Monaco") is its city as well as its country.
      const capital = geo.byKey.get(key)?.find((c) => c.country === country);
      if (capital && CITY_STATES.has(country)) rest.push(key);
      continue;
    }
    const named = nameHints(key, i > 0);
    if (named) {
      addHints(hints, named);
      continue;
    }
    rest.push(key);
  }

  // Only a bare name is read within the source's country; explicit hints of the text stand.
  if (fixed && !hints.country && !hints.usState && !hints.admin1) hints.country = fixed;
  let city: GeoCity | undefined;
  for (const key of rest) {
    const candidates = cityCandidates(key, geo);
    city = candidates.find(
      (c) =>
        (!hints.country || c.country === hints.country) &&
        (!hints.usState || c.admin1 === hints.usState) &&
        (!hints.admin1 || c.admin1 === hints.admin1),
    );
    if (city) break;
    // "New York" alone is the city, "California" alone is the state.
    if (!hints.country && US_STATES[key] && !candidates.length) hints.country = 'US';
  }
  if (!city && !hints.country && rest.length === 1 && US_STATES[rest[0]]) hints.country = 'US';
  if (city && !out.cities.some((c) => c.geonameid === city.geonameid)) out.cities.push(city);
  const country = city?.country ?? hints.country;
  if (country && !out.countries.includes(country)) out.countries.push(country);
}

/** A segment that says which state, province or country a city is in, never a city of a list. */
function qualifiesACity(raw: string, key: string): boolean {
  if (codeHints(raw) || nameHints(key, true) || REGION_WORDS[key] || REMOTE_PATTERN.test(raw)) return true;
  const country = countryCodeSegment(raw) ?? countryCodeByName(key);
  return !!country && !CITY_STATES.has(country);
}

/**
 * "SF, SEA, NYC" and "Berlin, Munich" list cities, where "Portland, Oregon" and "Paris, France" name
 * one: the comma separates places when every segment is a city and none qualifies another. In a list
 * of three or more, a later name that is also a state's ("New York") is read as the city.
 */
function isCityList(place: string, segments: string[], geo: GeoIndex): boolean {
  if (segments.length < 2 || !place.includes(',') || /[()]|\s-\s/.test(place)) return false;
  return segments.every((raw, i) => {
    const key = textKey(raw);
    if (!key || !cityCandidates(key, geo).length) return false;
    if (!qualifiesACity(raw, key)) return true;
    return i >= 2 && segments.length >= 3 && US_STATES[key] !== undefined && CITY_ALIASES[key] !== undefined;
  });
}

/** Splits a location text into places and resolves each. Unknown places are left out. */
function resolveUncached(text: string, fixed?: string): ResolvedLocation {
  const out: ResolvedLocation = { cities: [], countries: [], regions: [], remote: false };
  const geo = loadIndex();
  const places = text.split(/\s*(?:;|\||\/|•|\n|\bor\b|\band\b|\s&\s)\s*/i).filter((p) => p.trim());
  for (const place of places.slice(0, 20)) resolvePlace(place.trim(), geo, out, fixed);
  for (const code of out.countries) {
    const info = countryNames.get(code);
    if (info && !out.regions.includes(info.region_id)) out.regions.push(info.region_id);
  }
  return out;
}

// A board repeats a handful of location texts across its postings, so each distinct text is
// resolved once; the least recently used answers go when the cache is full.
const CACHE_SIZE = 10_000;
const resolved = new Map<string, ResolvedLocation>();

/**
 * Splits a location text into places and resolves each. Unknown places are left out. `country`: the
 * source's own structured country, which the text is read within and never contradicts. The result
 * is the caller's to change.
 */
export function resolveLocation(text: string | null | undefined, country?: string): ResolvedLocation {
  if (!text) return { cities: [], countries: [], regions: [], remote: false };
  const key = country ? `${country}\u0000${text}` : text;
  let hit = resolved.get(key);
  if (hit) resolved.delete(key);
  else {
    hit = resolveUncached(text, country);
    if (resolved.size >= CACHE_SIZE) resolved.delete(resolved.keys().next().value!);
  }
  resolved.set(key, hit);
  return { cities: [...hit.cities], countries: [...hit.countries], regions: [...hit.regions], remote: hit.remote };
}
