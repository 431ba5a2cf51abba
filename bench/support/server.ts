// A leadbase (or bare Fastify) server in its own process for the HTTP benchmarks (bench/platform-server.ts),
// pinned to one core where taskset exists while the load generator keeps the other.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

/**
 * Where taskset exists, the servers share one core and the load generator (this process) has the
 * other: the scheduler no longer moves them around, which is most of this shared VM's run-to-run noise.
 */
export const pinned = availableParallelism() >= 2 && spawnSync('taskset', ['-p', '-c', '0', String(process.pid)]).status === 0;

export interface BenchServer {
  child: ChildProcess;
  address: string;
  /** The API key the server created (leadbase modes). */
  key?: string;
}

/** Starts bench/platform-server.ts in `mode` and resolves once it prints READY. */
export function startBenchServer(mode: string): Promise<BenchServer> {
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

/** The server's CPU time so far (its /__bench/cpu route), in microseconds. */
export async function serverCpuMicros(address: string): Promise<number> {
  return ((await (await fetch(`${address}/__bench/cpu`)).json()) as { micros: number }).micros;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One measured round against a bench server: throughput, latency, failures and the server's CPU per request. */
export interface Round {
  rps: number;
  p50: number;
  p99: number;
  bad: number;
  cpuPerRequest: number;
}

/** Drives `url` with autocannon for `seconds` and reads `serverAddress`'s CPU time around it. */
export async function measureRound(
  serverAddress: string,
  request: { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  options: { connections: number; seconds: number },
): Promise<Round> {
  const before = await serverCpuMicros(serverAddress);
  const r = await autocannon({ ...request, connections: options.connections, duration: options.seconds });
  const cpu = (await serverCpuMicros(serverAddress)) - before;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.non2xx + r.errors,
    cpuPerRequest: cpu / Math.max(1, r.requests.total),
  };
}

/** Bench flags every HTTP benchmark reads: --quick runs 2 rounds of 2 s instead of 5 of 5 s. */
export const quick = process.argv.includes('--quick');
export const ROUND_S = quick ? 2 : 5;
export const ROUNDS = quick ? 2 : 5;

/**
 * Warms each target up with a 1 s round, then runs ROUNDS rounds of ROUND_S in which the targets
 * take turns, so a slow spell of this shared machine hits all of them alike.
 */
export async function alternateRounds<T extends { rounds: Round[] }>(
  targets: T[],
  round: (target: T, seconds: number) => Promise<Round>,
): Promise<void> {
  for (const t of targets) await round(t, 1);
  for (let i = 0; i < ROUNDS; i++) for (const t of targets) t.rounds.push(await round(t, ROUND_S));
}

/** A target's medians over its rounds; req/s against the baseline is the median of the per-round ratios. */
export function summarize(rounds: Round[], baseline: Round[]) {
  const of = (pick: (r: Round) => number) => median(rounds.map(pick));
  return {
    rps: of((r) => r.rps),
    p50: of((r) => r.p50),
    p99: of((r) => r.p99),
    bad: rounds.reduce((s, r) => s + r.bad, 0),
    rpsVsBaseline: median(rounds.map((r, i) => r.rps / baseline[i].rps)),
    cpuPerRequest: of((r) => r.cpuPerRequest),
  };
}
