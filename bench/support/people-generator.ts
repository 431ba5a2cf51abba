// Deterministic synthetic people for the people benchmark, in our JSONL import format
// (docs/people.md): `people` persons spread over `companies` companies, every company with a
// CEO, a CTO and a VP Sales, the rest drawn from common titles; most with a work email and a phone.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { seededRandom as random } from './random.ts';

const FIRST = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'José',
  'María',
  'Wei',
  'Priya',
  'Ahmed',
  'Fatima',
  'Lukas',
  'Sofia',
  'Hiroshi',
  'Chloé',
  'Olga',
  'Kwame',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'García',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'de la Cruz',
  'van Dijk',
  "O'Brien",
  'Müller',
  'Nguyen',
  'Kim',
  'Patel',
  'Singh',
  'Rossi',
  'Dubois',
  'Kowalski',
  'Tanaka',
  'Silva',
  'Cohen',
  'Okafor',
];
/** Titles of the people after each company's first three (CEO, CTO, VP Sales). */
export const OTHER_TITLES = [
  'Software Engineer',
  'Senior Software Engineer',
  'Account Executive',
  'Sales Development Representative',
  'Marketing Manager',
  'Head of Marketing',
  'Product Manager',
  'Engineering Manager',
  'Customer Success Manager',
  'Data Analyst',
  'Recruiter',
  'Director of Finance',
  'Office Manager',
  'Designer',
  'Head of People',
  'Sales Manager',
  'DevOps Engineer',
  'Controller',
];
const EMAIL_PATTERNS = [(f: string, l: string) => `${f}.${l}`, (f: string, l: string) => `${f[0]}${l}`, (f: string) => f];
const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

export const companyDomain = (c: number) => `company${c}.example`;
export const profileId = (p: number) => `person-${p}-${((p * 2654435761) % 1000000).toString(36)}`;
export const workEmail = (p: number, first: string, last: string, c: number) =>
  `${EMAIL_PATTERNS[c % 3](fold(first), fold(last))}${p}@${companyDomain(c)}`;

export interface GeneratedPerson {
  index: number;
  company: number;
  title: string;
  line: string;
}

/** The person at `index` (people are laid out company by company). */
export function person(index: number, people: number, companies: number): GeneratedPerson {
  const perCompany = Math.max(1, Math.floor(people / companies));
  const company = Math.min(companies - 1, Math.floor(index / perCompany));
  const slot = index - company * perCompany;
  const rnd = random(index + 1);
  const first = FIRST[Math.floor(rnd() * FIRST.length)];
  const last = LAST[Math.floor(rnd() * LAST.length)];
  const title =
    slot === 0
      ? 'CEO'
      : slot === 1
        ? 'Chief Technology Officer'
        : slot === 2
          ? 'VP Sales'
          : OTHER_TITLES[Math.floor(rnd() * OTHER_TITLES.length)];
  const phoneRoll = rnd();
  const subscriber = String(1000000 + Math.floor(rnd() * 8999999)).slice(-7);
  // About 70% have a number: UK mobiles, US numbers (fixed-or-mobile ranges), or a fixed line.
  const phones =
    phoneRoll < 0.3
      ? [{ number: `+44 74${subscriber.slice(0, 2)} ${subscriber.slice(2)}0`, type: 'mobile' }]
      : phoneRoll < 0.6
        ? [{ number: `(415) 5${subscriber.slice(0, 2)}-${subscriber.slice(2, 6)}` }]
        : phoneRoll < 0.7
          ? [{ number: `+34 91${subscriber}`, type: 'office' }]
          : [];
  const record = {
    id: String(index),
    full_name: `${first} ${last}`,
    profile_url: `https://www.linkedin.com/in/${profileId(index)}`,
    positions: [
      {
        company_name: `Company ${company} Inc.`,
        company_domain: companyDomain(company),
        title,
        start: `${2010 + (index % 14)}-0${1 + (index % 9)}`,
      },
      ...(rnd() < 0.3
        ? [
            {
              company_name: `Company ${(company + 7) % companies} Inc.`,
              company_domain: companyDomain((company + 7) % companies),
              title: 'Sales Manager',
              start: '2008',
              end: '2009-12',
            },
          ]
        : []),
    ],
    emails: rnd() < 0.8 ? [{ email: workEmail(index, first, last, company), type: 'work', status: rnd() < 0.5 ? 'valid' : null }] : [],
    phones,
  };
  return { index, company, title, line: JSON.stringify(record) };
}

/** Writes the JSONL file; returns its size in bytes. */
export async function writePeopleJsonl(path: string, people: number, companies: number): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  for (let i = 0; i < people; i++) {
    const line = `${person(i, people, companies).line}\n`;
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}
