// The email finder on a simulated fleet: 1,000 people at 100 company domains whose addresses follow
// a known pattern, through POST /email-finder, the engine and the fake mail hosts.
//   npm run bench -- email-finder [-- --people=N]
// 80 domains on 10 strict hosts (8 domains each; a host answers each RCPT 20 ms late, 5 connections);
// 20 catch-all domains on 2 hosts: 10 with three known people in the store (their pattern is
// evidence), 10 without (nothing can be found there: the right answer is not_found). Each domain
// uses one of six patterns; 60 of the strict domains have three known people in the store, the
// other 20 none (the finder goes through the common patterns). Names include accents, hyphens,
// particles and Cyrillic. Reported: finds per second, found where findable (target >= 95%), wrong
// emails returned (target 0), RCPTs asked per person against the candidates' bound (8).
import { loadConfig } from '../src/platform/config.ts';
import { runPeopleImport } from '../src/ingest/people/runner.ts';
import type { PersonInput } from '../src/people/input.ts';
import { foldNamePart } from '../src/people/names.ts';
import { startTestApp } from '../test/support/app.ts';
import { startMailWorld, type FakeMx } from '../test/support/fake-smtp.ts';
import { fmt } from './support/stats.ts';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const PEOPLE = arg('people', 1000);
const DOMAINS = 100;
const REPLY_MS = 20;
const CONCURRENCY = 20;

const FIRST = [
  'Anna',
  'Björn',
  'Chloé',
  'Dmitri',
  'Elif',
  'Farid',
  'Greta',
  'Hiro',
  'Inés',
  'Jean-Luc',
  'Kofi',
  'Lena',
  'Марія',
  'Noah',
  'Olga',
  'Priya',
  'Quentin',
  'Rosa',
  'Sven',
  'Tomás',
];
const LAST = [
  'Adams',
  'van Dijk',
  'Øberg',
  'Núñez',
  'Schröder',
  'de la Cruz',
  'Nakamura',
  'Petrov',
  'Смирнов',
  "O'Neil",
  'Kowalski',
  'Dubois',
  'Haddad',
  'Silva',
  'Byrne',
  'Lindqvist',
  'Moreau',
  'Okafor',
  'Rossi',
  'Zhang',
  'Meyer',
  'Costa',
  'Novak',
  'Berg',
  'Fischer',
  'Garcia',
  'Hansen',
  'Ivanova',
  'Jensen',
  'Keller',
  'Larsen',
  'Müller',
  'Nilsen',
  'Olsen',
  'Park',
  'Quinn',
  'Ramos',
  'Santos',
  'Torres',
  'Ueda',
  'Vidal',
  'Weber',
  'Xu',
  'Young',
  'Ziegler',
  'Abbott',
  'Baker',
  'Carter',
  'Dalton',
  'Ellis',
  'Foster',
];

type Pattern = (first: string, last: string, initial: string) => string;
const PATTERNS: Pattern[] = [
  (f, l) => `${f}.${l}`,
  (_f, l, i) => `${i}${l}`,
  (f, l) => `${f}${l}`,
  (_f, l, i) => `${i}.${l}`,
  (f, l) => `${f}_${l}`,
  (f, l) => `${f}${l[0]}`,
];

/** How the finder writes a name in an address: the last name's particles joined, the first name's parts' initial. */
const folded = (first: string, last: string) => {
  const f = foldNamePart(first.split('-').join(''));
  const l = last
    .split(/[\s-]+/)
    .map(foldNamePart)
    .join('');
  return { f, l, i: f[0] };
};

interface Domain {
  name: string;
  kind: 'strict' | 'catch-all known' | 'catch-all bare';
  pattern: Pattern;
  knownPeople: boolean;
}
const domains: Domain[] = Array.from({ length: DOMAINS }, (_, d) => ({
  name: `co${d}.bench`,
  kind: d < 80 ? 'strict' : d < 90 ? 'catch-all known' : 'catch-all bare',
  pattern: PATTERNS[d % PATTERNS.length],
  knownPeople: d < 60 || (d >= 80 && d < 90),
}));

// Each domain's people: unique names within the domain; the first three are the known ones.
const targets: { first: string; last: string; domain: Domain; truth: string | null }[] = [];
const known: PersonInput[] = [];
const perDomain = Math.ceil(PEOPLE / DOMAINS);
for (const [d, domain] of domains.entries()) {
  for (let k = 0; k < perDomain + 3; k++) {
    const first = FIRST[(d + k) % FIRST.length];
    const last = LAST[(d * 7 + k) % LAST.length];
    const { f, l, i } = folded(first, last);
    const address = `${domain.pattern(f, l, i)}@${domain.name}`;
    if (k < 3) {
      if (domain.knownPeople)
        known.push({
          id: `k${d}-${k}`,
          full_name: `${first} ${last}`,
          positions: [{ company_domain: domain.name, title: 'Staff' }],
          emails: [{ email: address }],
        });
      continue;
    }
    if (targets.length < PEOPLE) targets.push({ first, last, domain, truth: domain.kind === 'catch-all bare' ? null : address });
  }
}

const world = await startMailWorld();
const hosts: FakeMx[] = [];
const strictDomains = domains.filter((d) => d.kind === 'strict');
for (let h = 0; h < 10; h++) {
  const mine = strictDomains.filter((_, i) => i % 10 === h);
  // Every person of these domains has a mailbox, the known ones included.
  const mailboxes: string[] = [];
  for (const [d, domain] of domains.entries())
    if (mine.includes(domain))
      for (let k = 0; k < perDomain + 3; k++) {
        const { f, l, i } = folded(FIRST[(d + k) % FIRST.length], LAST[(d * 7 + k) % LAST.length]);
        mailboxes.push(`${domain.pattern(f, l, i)}@${domain.name}`);
      }
  hosts.push(await world.domain(mine[0].name, { mailboxes, tarpitMs: REPLY_MS, mxHost: `mx${h}.strict.bench` }));
  for (const domain of mine.slice(1)) world.dns.mx(domain.name, [{ exchange: `mx${h}.strict.bench`, priority: 10 }]);
}
for (const [c, kind] of (['catch-all known', 'catch-all bare'] as const).entries()) {
  const mine = domains.filter((d) => d.kind === kind);
  hosts.push(await world.domain(mine[0].name, { acceptAll: true, tarpitMs: REPLY_MS, mxHost: `mx${c}.catchall.bench` }));
  for (const domain of mine.slice(1)) world.dns.mx(domain.name, [{ exchange: `mx${c}.catchall.bench`, priority: 10 }]);
}

const t = await startTestApp(undefined, {
  credits: PEOPLE * 2,
  rateLimits: { 'email-finder': 1_000_000 },
  deps: {
    config: loadConfig({ CRAWL_ENABLED: '0' }),
    email: { ...world.emailConfig, maxSessionsPerMxHost: 5, domainSessionsPerMinute: 1_000_000, recheckPollMs: 3_600_000 },
  },
});
await runPeopleImport({
  db: t.database.db,
  companies: t.services.companies,
  source: 'bench',
  records: (async function* () {
    let line = 0;
    for (const input of known) yield { line: ++line, input };
  })(),
});

console.log(
  `email finder: ${targets.length} people at ${DOMAINS} domains (80 strict on 10 hosts, 10 catch-all with known people, 10 catch-all without), ` +
    `RCPT answered ${REPLY_MS} ms late, ${CONCURRENCY} requests at a time`,
);
const results: { status: string; email: string | null; truth: string | null; kind: string; known: boolean }[] = [];
const rcptsBefore = hosts.reduce((n, h) => n + h.rcpts.length, 0);
const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < targets.length) {
      const target = targets[next++];
      const res = await t.post('/email-finder', { first_name: target.first, last_name: target.last, domain: target.domain.name });
      const body = res.json<{ status: string; email: string | null }>();
      results.push({
        status: body.status,
        email: body.email,
        truth: target.truth,
        kind: target.domain.kind,
        known: target.domain.knownPeople,
      });
    }
  }),
);
const elapsedS = (performance.now() - started) / 1000;
const rcpts = hosts.reduce((n, h) => n + h.rcpts.length, 0) - rcptsBefore;
const findable = results.filter((r) => r.truth !== null);
const right = findable.filter((r) => r.email === r.truth);
const wrong = results.filter((r) => r.email !== null && r.email !== r.truth);
const line = (label: string, rows: typeof results) => {
  const can = rows.filter((r) => r.truth !== null);
  const ok = can.filter((r) => r.email === r.truth).length;
  return `  ${label}: ${rows.length} people, found ${ok} of ${can.length} findable, wrong ${rows.filter((r) => r.email !== null && r.email !== r.truth).length}`;
};
console.log(
  [
    `  ${fmt(results.length / elapsedS, 1)} finds/s (${fmt(elapsedS, 1)} s); found ${right.length} of ${findable.length} findable = ${fmt((100 * right.length) / findable.length, 1)}% (target >= 95%); wrong emails ${wrong.length} (target 0)`,
    `  RCPTs asked: ${rcpts} = ${fmt(rcpts / results.length, 2)} per person, against 8 to 12 candidates per person (all of them: ${fmt(rcpts / results.length / 8, 2)}x of 8)`,
    line(
      'strict, domain pattern known from the store',
      results.filter((r) => r.kind === 'strict' && r.known),
    ),
    line(
      'strict, no known people',
      results.filter((r) => r.kind === 'strict' && !r.known),
    ),
    line(
      'catch-all, known pattern',
      results.filter((r) => r.kind === 'catch-all known'),
    ),
    line(
      'catch-all, nothing known (not findable)',
      results.filter((r) => r.kind === 'catch-all bare'),
    ),
  ].join('\n'),
);
for (const w of wrong.slice(0, 5)) console.log(`  wrong: ${w.email} (truth ${w.truth})`);
await t.close();
await world.close();
if (wrong.length || right.length / findable.length < 0.95) process.exitCode = 1;
