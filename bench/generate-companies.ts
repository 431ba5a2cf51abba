// Makes N synthetic companies in our JSONL format (docs/companies.md), deterministic for a seed.
// Usage: node --import tsx bench/generate-companies.ts N [--seed S] [--funding FRACTION] > companies.jsonl
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { seededRandom as random } from './support/random.ts';

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'ta',
  'vo',
  'zi',
  'bri',
  'cor',
  'dex',
  'fin',
  'gra',
  'hel',
  'jun',
  'kel',
  'lum',
  'mor',
  'nov',
  'pax',
  'qui',
  'ros',
  'sol',
  'tri',
  'ul',
  'ver',
  'wix',
  'yal',
  'zen',
  'ax',
];
const WORDS = [
  'Labs',
  'Systems',
  'Analytics',
  'Health',
  'Robotics',
  'Foods',
  'Energy',
  'Logistics',
  'Media',
  'Capital',
  'Software',
  'Bio',
  'Motors',
  'Networks',
  'Studio',
  'Works',
];
const SUFFIXES = ['Inc.', 'LLC', 'Ltd', 'GmbH', 'Corp.', '', '', ''];
const INDUSTRIES = [
  'computer software',
  'internet',
  'financial services',
  'hospital & health care',
  'biotechnology',
  'retail',
  'marketing and advertising',
  'construction',
  'automotive',
  'food & beverages',
  'telecommunications',
  'real estate',
  'education management',
  'logistics and supply chain',
];
const PLACES: [string, string, string][] = [
  ['san francisco', 'california', 'united states'],
  ['new york', 'new york', 'united states'],
  ['austin', 'texas', 'united states'],
  ['london', 'england', 'united kingdom'],
  ['berlin', 'berlin', 'germany'],
  ['paris', 'ile-de-france', 'france'],
  ['toronto', 'ontario', 'canada'],
  ['bangalore', 'karnataka', 'india'],
  ['sydney', 'new south wales', 'australia'],
  ['sao paulo', 'sao paulo', 'brazil'],
];
const TYPES = ['private', 'private', 'private', 'public', 'nonprofit', 'educational'];
const ROUNDS = ['Seed', 'Series A', 'Series B', 'Series C', 'Series D'];
const INVESTORS = ['Northwind Ventures', 'Blue Oak Capital', 'Summit Partners Example', 'Harbor Seed Fund', 'Granite Growth'];
const TLDS = ['com', 'io', 'co', 'ai', 'net'];

export interface GeneratedCompany {
  line: string;
  name: string;
  domain: string;
}

/** The i-th synthetic company: names and domains are unique (the index is part of them). */
export function* generateCompanies(count: number, seed = 42, fundingFraction = 0.2): Generator<GeneratedCompany> {
  const rnd = random(seed);
  const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)];
  for (let i = 0; i < count; i++) {
    const stem = `${pick(SYLLABLES)}${pick(SYLLABLES)}${i.toString(36)}`;
    const brand = stem[0].toUpperCase() + stem.slice(1);
    const word = pick(WORDS);
    const suffix = pick(SUFFIXES);
    const name = [brand, word, suffix].filter(Boolean).join(' ');
    const domain = `${stem}${word.toLowerCase()}.${pick(TLDS)}`;
    const [locality, region, country] = pick(PLACES);
    const employees = Math.floor(Math.exp(rnd() * 10));
    const company: Record<string, unknown> = {
      name,
      domain,
      industry: pick(INDUSTRIES),
      employee_count: employees,
      founded_year: 1950 + Math.floor(rnd() * 74),
      company_type: pick(TYPES),
      location: { locality, region, country },
      prof_url: `prof.example/company/${stem}`,
      social_b_url: `https://social-b.example/${stem}`,
    };
    if (rnd() < fundingFraction) {
      const n = 1 + Math.floor(rnd() * 3);
      company.funding_rounds = Array.from({ length: n }, (_, k) => ({
        round: ROUNDS[k],
        date: `${2015 + k * 2 + Math.floor(rnd() * 2)}-0${1 + Math.floor(rnd() * 9)}-15`,
        amount: Math.round(10 ** (5 + k + rnd() * 2)),
        investors: [pick(INVESTORS), pick(INVESTORS)].filter((v, j, a) => a.indexOf(v) === j),
      }));
    }
    yield { line: JSON.stringify(company), name, domain };
  }
}

/** Writes `count` companies as JSONL to `path` ("-" for stdout). */
export async function writeCompanies(path: string, count: number, seed = 42, fundingFraction = 0.2): Promise<void> {
  const out = path === '-' ? process.stdout : createWriteStream(path);
  let buffer = '';
  for (const c of generateCompanies(count, seed, fundingFraction)) {
    buffer += `${c.line}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.write(buffer);
  if (out !== process.stdout) {
    (out as NodeJS.WritableStream).end();
    await once(out, 'finish');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 1000);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  await writeCompanies(flag('--out') ?? '-', count, Number(flag('--seed') ?? 42), Number(flag('--funding') ?? 0.2));
}
