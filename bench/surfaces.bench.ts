// The same lookup through each surface a client can use: our own path (the baseline), LeadMagic's
// v1 path (the same operation, its answer reshaped) and an MCP tool call over Streamable HTTP at
// /mcp (a JSON-RPC message, a protocol server per request, the operation called in process).
// POST /company-search for a known company, 1 credit each, on one SQLite leadbase server in its
// own process; autocannon in this one. The ratios say what each adapter costs over the operation.
// Then technographics at scale (bench/surfaces/technographics.ts): its domain call for random
// companies of a store of generated listings, SQLite and (DATABASE_URL) PostgreSQL; targets p99 < 20 ms
// (SQLite), < 50 ms (PostgreSQL), also for the companies with the most listings.
// Then competitors search at scale (bench/surfaces/competitors.ts, part `competitors`): its domain call
// for random companies of a store of generated companies (--competitor-companies=N, default as --listings).
// Then people search at scale (bench/surfaces/people-search.ts): a mix of requests over a store of
// generated people, SQLite and PostgreSQL; targets p99 < 20 ms (SQLite), < 50 ms (PostgreSQL).
//   npm run bench -- surfaces [--quick]   (technographics: 1,000,000 listings, people search:
//                                          1,000,000 people; --quick 50,000 of each)
//   --listings=N  --people=N  --companies=N (people / 10)  --queries=N (200; people search: per kind)
//   --dialects=sqlite,postgres  --parts=http,technographics,competitors,people (all by default)
//   --keep=DIR  people search keeps its store (a SQLite file in DIR, a PostgreSQL schema
//               bench_people_search_<people>_<companies>) and reuses it on the next run of that size
//   --check-estimates  people search checks the total_count estimates against exact counts
import { fmt } from './support/stats.ts';
import { measureTechnographics, technographicsReport } from './surfaces/technographics.ts';
import { competitorsReport, measureCompetitors } from './surfaces/competitors.ts';
import { measurePeopleSearch, peopleSearchReport, type PeopleSearchFigures } from './surfaces/people-search.ts';
import {
  alternateRounds,
  measureRound,
  median,
  pinned,
  ROUND_S,
  ROUNDS,
  startBenchServer,
  summarize,
  type Round,
  quick,
} from './support/server.ts';

const CONNECTIONS = 20;

interface Target {
  name: string;
  path: string;
  body: string;
  headers: Record<string, string>;
  rounds: Round[];
}

const flag = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const parts = flag('parts', 'http,technographics,competitors,people').split(',');
const dialects = flag('dialects', process.env.DATABASE_URL?.startsWith('postgres') ? 'sqlite,postgres' : 'sqlite').split(',');
if (parts.includes('http')) await measureSurfaces();
for (const dialect of parts.includes('technographics') ? dialects : []) {
  const measured = await measureTechnographics(dialect, {
    listings: Number(flag('listings', quick ? '50000' : '1000000')),
    queries: Number(flag('queries', '200')),
  });
  for (const line of technographicsReport([measured])) console.log(line);
}
for (const dialect of parts.includes('competitors') ? dialects : []) {
  const count = Number(flag('competitor-companies', flag('listings', quick ? '50000' : '1000000')));
  const measured = await measureCompetitors(dialect, { companies: count, queries: Number(flag('queries', '200')) });
  for (const line of competitorsReport([measured])) console.log(line);
}

const people: PeopleSearchFigures[] = [];
for (const dialect of parts.includes('people') ? dialects : []) {
  const count = Number(flag('people', quick ? '50000' : '1000000'));
  people.push(
    await measurePeopleSearch(dialect, {
      people: count,
      companies: Number(flag('companies', String(Math.max(10, Math.round(count / 10))))),
      queries: Number(flag('queries', '200')),
      keep: process.argv.find((a) => a.startsWith('--keep='))?.slice('--keep='.length),
      checkEstimates: process.argv.includes('--check-estimates'),
    }),
  );
  for (const line of peopleSearchReport(people.slice(-1))) console.log(line);
}

/** The same lookup through each surface, on a leadbase server of its own. */
async function measureSurfaces(): Promise<void> {
  const server = await startBenchServer('leadbase-surfaces');
  const json = { 'content-type': 'application/json', 'x-api-key': server.key! };

  const targets: Target[] = [
    {
      name: 'POST /company-search (baseline)',
      path: '/company-search',
      body: JSON.stringify({ company_domain: 'acme-robotics.com' }),
      headers: json,
      rounds: [],
    },
    {
      name: 'POST /v1/companies/company-search',
      path: '/v1/companies/company-search',
      body: JSON.stringify({ company_domain: 'acme-robotics.com' }),
      headers: json,
      rounds: [],
    },
    {
      name: 'MCP tools/call search_company at /mcp',
      path: '/mcp',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_company', arguments: { company_domain: 'acme-robotics.com' } },
      }),
      headers: { ...json, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      rounds: [],
    },
  ];

  // Every surface must answer the company (an MCP error would be a 200 with isError).
  for (const t of targets) {
    const res = await fetch(`${server.address}${t.path}`, { method: 'POST', headers: t.headers, body: t.body });
    const text = await res.text();
    if (res.status !== 200 || !text.includes('Acme Robotics') || text.includes('"isError":true'))
      throw new Error(`${t.name}: ${res.status} ${text}`);
  }

  const round = (t: Target, seconds: number) =>
    measureRound(
      server.address,
      { url: `${server.address}${t.path}`, method: 'POST', headers: t.headers, body: t.body },
      { connections: CONNECTIONS, seconds },
    );

  await alternateRounds(targets, round);
  server.child.kill();

  console.log(
    `surfaces benchmark: one company looked up (1 credit per call) through each surface; ${CONNECTIONS} connections; ${ROUNDS} rounds of ${ROUND_S} s per target, targets alternating; medians; SQLite` +
      (pinned ? '; server pinned to CPU 1, autocannon to CPU 0' : ''),
  );
  console.log('| surface | req/s | p50 ms | p99 ms | non-2xx | req/s vs baseline | server CPU µs/request | CPU vs baseline |');
  console.log('|---|---|---|---|---|---|---|---|');
  const baseCpu = median(targets[0].rounds.map((r) => r.cpuPerRequest));
  for (const t of targets) {
    const s = summarize(t.rounds, targets[0].rounds);
    console.log(
      `| ${t.name} | ${fmt(s.rps, 0)} | ${fmt(s.p50, 1)} | ${fmt(s.p99, 1)} | ${s.bad} | ${fmt(s.rpsVsBaseline, 2)}x | ` +
        `${fmt(s.cpuPerRequest, 0)} | ${fmt(s.cpuPerRequest / baseCpu, 2)}x |`,
    );
  }
}
