// Platform overhead: bare Fastify returning a constant JSON body (the baseline) against our
// GET /job-types and POST /credits through auth + rate limit + billing, in one run.
// The server runs in a child process; autocannon drives it from this one.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { fmt, ratio } from './support/stats.ts';

const quick = process.argv.includes('--quick');
const DURATION_S = quick ? 3 : 10;
const CONNECTIONS = 50;

async function startServer(mode: 'bare' | 'leadbase'): Promise<{ child: ChildProcess; address: string; key?: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join('bench', 'platform-server.ts'), mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = out.match(/READY (\S+)(?: (\S+))?/);
      if (m) resolve({ child, address: m[1], key: m[2] });
    });
    child.on('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function load(name: string, url: string, method: 'GET' | 'POST', headers: Record<string, string> = {}): Promise<Figures> {
  // Warm-up, then the measured run.
  await autocannon({ url, method, headers, connections: CONNECTIONS, duration: 1 });
  const r = await autocannon({ url, method, headers, connections: CONNECTIONS, duration: DURATION_S });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors };
}

const bare = await startServer('bare');
const baseline = await load('bare Fastify, constant JSON (baseline)', `${bare.address}/constant`, 'GET');
bare.child.kill();

const ours = await startServer('leadbase');
const headers = { 'x-api-key': ours.key! };
const rows = [
  baseline,
  await load('GET /job-types (auth + rate limit)', `${ours.address}/job-types`, 'GET', headers),
  await load('POST /credits (auth + rate limit + billing balance)', `${ours.address}/credits`, 'POST', headers),
];
ours.child.kill();

console.log(`platform benchmark: ${CONNECTIONS} connections, ${DURATION_S} s per target after 1 s warm-up, SQLite database with 1 key, server in its own process`);
console.log('| target | req/s | p50 ms | p99 ms | non-2xx | req/s vs baseline |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.name} | ${fmt(r.rps, 0)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${r.non2xx} | ${ratio(r.rps, baseline.rps)} |`);
}
