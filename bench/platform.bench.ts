// Platform overhead: bare Fastify returning a constant JSON body (the baseline) against our
// GET /job-types and POST /credits through auth + rate limit + billing, in one run.
// The server runs in a child process; autocannon drives it from this one.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { fmt } from './support/stats.ts';

const quick = process.argv.includes('--quick');
const ROUND_S = quick ? 2 : 5;
const ROUNDS = quick ? 2 : 5;
const CONNECTIONS = 50;

// Where taskset exists, the servers share one core and the load generator (this process) has the
// other: the scheduler no longer moves them around, which is most of this shared VM's run-to-run noise.
const pinned = availableParallelism() >= 2 && spawnSync('taskset', ['-p', '-c', '0', String(process.pid)]).status === 0;

async function startServer(
  mode: 'bare' | 'leadbase' | 'leadbase-unlogged',
): Promise<{ child: ChildProcess; address: string; key?: string }> {
  const command = [process.execPath, '--import', 'tsx', join('bench', 'platform-server.ts'), mode];
  const child = spawn(pinned ? 'taskset' : command[0], pinned ? ['-c', '1', ...command] : command.slice(1), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/READY (\S+)(?: (\S+))?/);
      if (m) resolve({ child, address: m[1], key: m[2] });
    });
    child.on('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

interface Target {
  name: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  cpuUrl: string;
  rounds: { rps: number; p50: number; p99: number; bad: number; cpuPerRequest: number }[];
}

async function serverCpuMicros(url: string): Promise<number> {
  return ((await (await fetch(url)).json()) as { micros: number }).micros;
}

async function round(target: Target, seconds: number) {
  const before = await serverCpuMicros(target.cpuUrl);
  const r = await autocannon({
    url: target.url,
    method: target.method,
    headers: target.headers,
    connections: CONNECTIONS,
    duration: seconds,
  });
  const cpu = (await serverCpuMicros(target.cpuUrl)) - before;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.non2xx + r.errors,
    cpuPerRequest: cpu / Math.max(1, r.requests.total),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// Both servers run side by side (each idle while the other is measured) and the targets take turns
// in every round, so a slow spell of this shared machine hits all of them alike; medians are reported.
const bare = await startServer('bare');
const ours = await startServer('leadbase');
const unlogged = await startServer('leadbase-unlogged');
const headers = { 'x-api-key': ours.key! };
const targets: Target[] = [
  {
    name: 'bare Fastify, constant JSON (baseline)',
    url: `${bare.address}/constant`,
    method: 'GET',
    headers: {},
    cpuUrl: `${bare.address}/__bench/cpu`,
    rounds: [],
  },
  {
    name: 'GET /job-types (auth + rate limit)',
    url: `${ours.address}/job-types`,
    method: 'GET',
    headers,
    cpuUrl: `${ours.address}/__bench/cpu`,
    rounds: [],
  },
  {
    name: 'POST /credits (auth + rate limit + billing balance)',
    url: `${ours.address}/credits`,
    method: 'POST',
    headers,
    cpuUrl: `${ours.address}/__bench/cpu`,
    rounds: [],
  },
  {
    name: 'GET /job-types, access log off (what the log costs)',
    url: `${unlogged.address}/job-types`,
    method: 'GET',
    headers: { 'x-api-key': unlogged.key! },
    cpuUrl: `${unlogged.address}/__bench/cpu`,
    rounds: [],
  },
];
for (const t of targets) await round(t, 1); // warm-up
for (let i = 0; i < ROUNDS; i++) for (const t of targets) t.rounds.push(await round(t, ROUND_S));
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
  const perRound = t.rounds.map((r, i) => r.rps / targets[0].rounds[i].rps);
  const cpu = median(t.rounds.map((r) => r.cpuPerRequest));
  console.log(
    `| ${t.name} | ${fmt(median(t.rounds.map((r) => r.rps)), 0)} | ${fmt(median(t.rounds.map((r) => r.p50)), 1)} | ` +
      `${fmt(median(t.rounds.map((r) => r.p99)), 1)} | ${t.rounds.reduce((s, r) => s + r.bad, 0)} | ${fmt(median(perRound), 2)}x | ` +
      `${fmt(cpu, 1)} | ${fmt(baselineCpu / cpu, 2)}x |`,
  );
}
console.log(
  "req/s vs baseline: median of the per-round ratios. Capacity (CPU): baseline CPU per request / this target's, which this shared VM's noisy neighbours disturb far less than wall-clock throughput.",
);
console.log(
  `baseline median ${fmt(baseline, 0)} req/s; per-round req/s: ${targets.map((t) => `${t.name.split(' (')[0]}: ${t.rounds.map((r) => fmt(r.rps, 0)).join(', ')}`).join('; ')}`,
);
