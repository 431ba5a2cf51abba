// Platform overhead: bare Fastify returning a constant JSON body (the baseline) against our
// GET /job-types and POST /credits through auth + rate limit + billing, in one run.
// The server runs in a child process; autocannon drives it from this one.
import { fmt } from './support/stats.ts';
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
} from './support/server.ts';

const CONNECTIONS = 50;

interface Target {
  name: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  serverAddress: string;
  rounds: Round[];
}

const round = (t: Target, seconds: number) =>
  measureRound(t.serverAddress, { url: t.url, method: t.method, headers: t.headers }, { connections: CONNECTIONS, seconds });

// Both servers run side by side (each idle while the other is measured) and the targets take turns
// in every round, so a slow spell of this shared machine hits all of them alike; medians are reported.
const bare = await startBenchServer('bare');
const ours = await startBenchServer('leadbase');
const unlogged = await startBenchServer('leadbase-unlogged');
const headers = { 'x-api-key': ours.key! };
const targets: Target[] = [
  {
    name: 'bare Fastify, constant JSON (baseline)',
    url: `${bare.address}/constant`,
    method: 'GET',
    headers: {},
    serverAddress: `${bare.address}`,
    rounds: [],
  },
  {
    name: 'GET /job-types (auth + rate limit)',
    url: `${ours.address}/job-types`,
    method: 'GET',
    headers,
    serverAddress: `${ours.address}`,
    rounds: [],
  },
  {
    name: 'POST /credits (auth + rate limit + billing balance)',
    url: `${ours.address}/credits`,
    method: 'POST',
    headers,
    serverAddress: `${ours.address}`,
    rounds: [],
  },
  {
    name: 'GET /job-types, access log off (what the log costs)',
    url: `${unlogged.address}/job-types`,
    method: 'GET',
    headers: { 'x-api-key': unlogged.key! },
    serverAddress: `${unlogged.address}`,
    rounds: [],
  },
];
await alternateRounds(targets, round);
for (const server of [bare, ours, unlogged]) server.child.kill();

const baseline = median(targets[0].rounds.map((r) => r.rps));
console.log(
  `platform benchmark: ${CONNECTIONS} connections; ${ROUNDS} rounds of ${ROUND_S} s per target, targets alternating; medians; ` +
    'SQLite database with 1 key, info-level access log written to a file; servers in their own processes, autocannon in this one' +
    (pinned ? '; servers pinned to CPU 1, autocannon to CPU 0' : ''),
);
console.log(
  '| target | req/s (median) | p50 ms | p99 ms | non-2xx | req/s vs baseline | server CPU µs/request | capacity vs baseline (CPU) |',
);
console.log('|---|---|---|---|---|---|---|---|');
const baselineCpu = median(targets[0].rounds.map((r) => r.cpuPerRequest));
for (const t of targets) {
  const s = summarize(t.rounds, targets[0].rounds);
  console.log(
    `| ${t.name} | ${fmt(s.rps, 0)} | ${fmt(s.p50, 1)} | ${fmt(s.p99, 1)} | ${s.bad} | ${fmt(s.rpsVsBaseline, 2)}x | ` +
      `${fmt(s.cpuPerRequest, 1)} | ${fmt(baselineCpu / s.cpuPerRequest, 2)}x |`,
  );
}
console.log(
  "req/s vs baseline: median of the per-round ratios. Capacity (CPU): baseline CPU per request / this target's, which this shared VM's noisy neighbours disturb far less than wall-clock throughput.",
);
console.log(
  `baseline median ${fmt(baseline, 0)} req/s; per-round req/s: ${targets.map((t) => `${t.name.split(' (')[0]}: ${t.rounds.map((r) => fmt(r.rps, 0)).join(', ')}`).join('; ')}`,
);
