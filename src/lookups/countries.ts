// Countries: one list (the world-countries package, read once per process) and one way to read a
// country from text, shared by company locations, job locations and the jobs-finder filters.
import { createRequire } from 'node:module';
import { textKey } from '../platform/text-key.ts';

/** One country as the world-countries package describes it. */
export interface Country {
  /** ISO 3166-1 alpha-2. */
  code: string;
  /** ISO 3166-1 alpha-3. */
  cca3: string;
  name: { common: string; official: string };
  altSpellings: string[];
  /** UN region and subregion ("Americas", "South America"). */
  region: string;
  subregion: string;
}

/**
 * Names people write that the package does not list (native names, short forms, the nations of the
 * United Kingdom), by matching key (see textKey).
 */
const NAME_ALIASES: Readonly<Record<string, string>> = {
  usa: 'US',
  'u s a': 'US',
  'u s': 'US',
  america: 'US',
  'united states of america': 'US',
  uk: 'GB',
  'u k': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  britain: 'GB',
  'great britain': 'GB',
  deutschland: 'DE',
  'the netherlands': 'NL',
  holland: 'NL',
  espana: 'ES',
  italia: 'IT',
  schweiz: 'CH',
  suisse: 'CH',
  osterreich: 'AT',
  polska: 'PL',
  'czech republic': 'CZ',
  korea: 'KR',
  'south korea': 'KR',
  'korea republic of': 'KR',
  'russian federation': 'RU',
  uae: 'AE',
  turkiye: 'TR',
  brasil: 'BR',
  mexico: 'MX',
  'hong kong sar': 'HK',
  russia: 'RU',
  vietnam: 'VN',
};

let loaded: { list: Country[]; byCode: Map<string, Country>; codeByName: Map<string, string> } | undefined;

function load() {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const world = require('world-countries') as (Omit<Country, 'code'> & { cca2: string })[];
  const list = world.map(({ cca2, cca3, name, altSpellings, region, subregion }) => ({
    code: cca2,
    cca3,
    name: { common: name.common, official: name.official },
    altSpellings,
    region,
    subregion,
  }));
  const byCode = new Map<string, Country>();
  const codeByName = new Map<string, string>();
  for (const c of list) {
    byCode.set(c.code, c);
    byCode.set(c.cca3, c);
    // Short spellings are codes ("DE", "FRG"): read as names they would turn words of a location
    // ("IN" for Indiana) into countries, so names need more than three letters.
    for (const n of [c.name.common, c.name.official, ...c.altSpellings.filter((s) => s.length > 3)]) {
      const key = textKey(n);
      if (!codeByName.has(key)) codeByName.set(key, c.code);
    }
  }
  for (const c of list) codeByName.set(textKey(c.name.common), c.code);
  for (const [alias, code] of Object.entries(NAME_ALIASES)) codeByName.set(alias, code);
  loaded = { list, byCode, codeByName };
  return loaded;
}

/**
 * Codes people send for another ISO 3166-1 code: "UK" is not an ISO code (the United Kingdom is GB)
 * but is what people and some documentation write.
 */
const CODE_ALIASES: Readonly<Record<string, string>> = { UK: 'GB' };

/** The ISO alpha-2 code a two-letter code stands for (itself, or GB for UK), or null when there is no such country. */
export function alpha2Code(given: string): string | null {
  const upper = given.trim().toUpperCase();
  const code = CODE_ALIASES[upper] ?? upper;
  return code.length === 2 && load().byCode.has(code) ? code : null;
}

/** Every ISO 3166-1 country (the package lists exactly those). */
export function allCountries(): readonly Country[] {
  return load().list;
}

/** The country of an alpha-2 or alpha-3 code (any case), or undefined. */
export function countryByCode(code: string): Country | undefined {
  return load().byCode.get(code.trim().toUpperCase());
}

/** The alpha-2 code of a country named in text ("Deutschland", "the Netherlands", "Korea"), or null. */
export function countryCodeByName(text: string): string | null {
  return load().codeByName.get(textKey(text)) ?? null;
}
