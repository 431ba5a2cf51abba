// The chaos suite's stalls and outages (docs/benchmarks.md, "Chaos suite"): a database that stalls
// (a TCP proxy that accepts and holds), a database stopped for 15 s (a PostgreSQL cluster of the run's
// own, stopped and started with pg_ctl), a start on a port in use, and SIGTERM during a stall. Each
// runs its own `leadbase serve` process with the default bounds (SHUTDOWN_TIMEOUT_MS 10 s and the
// rest), and passes only with no wedged process and every exit within the shutdown bound.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { createOwnCluster, ownClusterSkip } from '../../test/support/pg-cluster.ts';
import { startStallingProxy, type StallingProxy } from '../../test/support/stalling-proxy.ts';
import { mailWorldEnv, startMailWorld, type MailWorld } from '../../test/support/fake-smtp.ts';
import { openDatabase } from '../../src/db/database.ts';
import { KeyService } from '../../src/keys/service.ts';
import { call, Instance, sleep, type Answer } from './cluster.ts';

export interface StallResult {
  pass: boolean;
  figures: Record<string, string | number>;
  criterion: string;
}

/** The default of SHUTDOWN_TIMEOUT_MS: every exit must come within it. */
const SHUTDOWN_MS = 10_000;
const BIN = `${process.cwd()}/bin/leadbase.js`;

/** Counts the lines an instance writes (its log) from now on. */
function lineCounter(instance: Instance): { lines(): number; reset(): void } {
  let count = 0;
  const add = (d: Buffer) => (count += d.toString().split('\n').length - 1);
  instance.child.stdout!.on('data', add);
  instance.child.stderr!.on('data', add);
  return { lines: () => count, reset: () => (count = 0) };
}

/** SIGTERM and the seconds until the process is gone (Infinity when it was still there after twice the bound: wedged). */
async function secondsToExit(instance: Instance): Promise<number> {
  if (!instance.alive) return 0;
  const started = Date.now();
  const exited = new Promise((r) => instance.child.once('exit', r));
  instance.child.kill('SIGTERM');
  await Promise.race([exited, sleep(SHUTDOWN_MS * 2)]);
  if (instance.alive) {
    instance.child.kill('SIGKILL');
    return Number.POSITIVE_INFINITY;
  }
  return (Date.now() - started) / 1000;
}

function post(instance: Instance, path: string, key: string, body?: unknown, timeoutMs = 60_000): Promise<Answer> {
  return call(`${instance.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    timeoutMs,
  });
}

/** A key with plenty of credits and no practical rate limit on the routes used, made in the database itself (migrated by the instance). */
async function keyFor(databaseUrl: string): Promise<string> {
  const handle = openDatabase(databaseUrl, { poolSize: 1 });
  try {
    const keys = new KeyService(handle.db);
    const created = await keys.create(`chaos-stall-${randomBytes(3).toString('hex')}`, 1_000_000 * 1000);
    for (const operation of ['credits', 'email-validate-bulk', 'email-validate-bulk-status'])
      await keys.setRateLimit(created.id, operation, 1_000_000);
    return created.key;
  } finally {
    await handle.close();
  }
}

/** Seconds from now until a bulk job sent now is done (Infinity after `limitMs`): queued work runs. */
async function secondsUntilQueuedWorkRuns(instance: Instance, key: string, limitMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    const sent = await post(instance, '/email-validate/bulk', key, { emails: ['a@chaos-mail.test', 'b@chaos-mail.test'] }, 15_000);
    if (sent.status !== 202) {
      await sleep(250);
      continue;
    }
    const id = (JSON.parse(sent.body) as { id: string }).id;
    while (Date.now() - started < limitMs) {
      const job = await call(`${instance.url}/email-validate/bulk/${id}`, { headers: { 'x-api-key': key } });
      if (job.status === 200 && (JSON.parse(job.body) as { status: string }).status === 'done') return (Date.now() - started) / 1000;
      await sleep(100);
    }
  }
  return Number.POSITIVE_INFINITY;
}

/** Requests in a loop on `concurrency` workers until stopped; counts answers by status and the slowest 503. */
function load(instance: Instance, key: string, concurrency: number) {
  const statuses = new Map<number, number>();
  let slowest503 = 0;
  let running = true;
  const workers = Array.from({ length: concurrency }, async () => {
    while (running) {
      const answer = await post(instance, '/credits', key);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 503) slowest503 = Math.max(slowest503, answer.ms);
      if (answer.status !== 200) await sleep(5);
    }
  });
  return {
    count: (status: number) => statuses.get(status) ?? 0,
    slowest503: () => slowest503,
    other5xx: () => [...statuses].filter(([s]) => s >= 500 && s !== 503).reduce((n, [, c]) => n + c, 0),
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

async function withMailWorld<T>(run: (world: MailWorld) => Promise<T>): Promise<T> {
  const world = await startMailWorld();
  await world.domain('chaos-mail.test', { mailboxes: ['a', 'b'] });
  try {
    return await run(world);
  } finally {
    await world.close();
  }
}

/** A database behind a proxy that stalls for `seconds`, under load; then served again and queued work run. */
export function pgStall(databaseUrl: string, seconds: number): Promise<StallResult> {
  return withMailWorld(async (world) => {
    const target = new URL(databaseUrl);
    const proxy = await startStallingProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(databaseUrl);
    url.host = `127.0.0.1:${proxy.port}`;
    const direct = databaseUrl;
    const instance = new Instance(90, { DATABASE_URL: url.toString(), REDIS_URL: '', CRAWL_ENABLED: '0', ...mailWorldEnv(world) });
    try {
      await instance.start();
      const key = await keyFor(direct);
      const log = lineCounter(instance);
      const traffic = load(instance, key, 8);
      await sleep(500);
      log.reset();
      const acceptedBefore = proxy.accepted;
      proxy.stall();
      await sleep(seconds * 1000);
      const attempts = proxy.accepted - acceptedBefore;
      const lines = log.lines();
      proxy.heal();
      const healed = Date.now();
      while ((await post(instance, '/credits', key)).status !== 200 && Date.now() - healed < 30_000) await sleep(50);
      const servedAfter = (Date.now() - healed) / 1000;
      await traffic.stop();
      const queuedWork = await secondsUntilQueuedWorkRuns(instance, key, 60_000);
      const exit = await secondsToExit(instance);
      const wedged = Number.isFinite(exit) ? 0 : 1;
      return {
        criterion: 'every 503 within 10 s, ≤ 2 connection attempts/s, served and queued work run after, 0 wedged, exit ≤ 10 s',
        pass:
          wedged === 0 &&
          traffic.slowest503() <= 10_000 &&
          exit <= SHUTDOWN_MS / 1000 &&
          attempts <= seconds * 2 + 10 &&
          servedAfter < 5 &&
          queuedWork < 30 &&
          traffic.other5xx() === 0,
        figures: {
          'stall (s)': seconds,
          'answered 503': traffic.count(503),
          'slowest 503': `${(traffic.slowest503() / 1000).toFixed(1)} s`,
          'connections attempted during': attempts,
          'lines logged during': lines,
          'served after heal': `${servedAfter.toFixed(1)} s`,
          'queued work ran after': `${queuedWork.toFixed(1)} s`,
          'seconds to exit': exit.toFixed(1),
          wedged,
        },
      };
    } finally {
      proxy.heal();
      await instance.stop();
      await proxy.close();
    }
  });
}

/** A PostgreSQL cluster of the run's own stopped for `seconds` under load, then started. */
export function pgDown(seconds: number): Promise<StallResult> {
  const skip = ownClusterSkip();
  if (skip) return Promise.resolve({ criterion: skip, pass: false, figures: { skipped: skip } });
  return withMailWorld(async (world) => {
    const cluster = await createOwnCluster();
    const port = Number(new URL(cluster.url).port);
    // Only counts: the proxy never stalls here.
    const proxy = await startStallingProxy({ host: '127.0.0.1', port });
    const url = new URL(cluster.url);
    url.host = `127.0.0.1:${proxy.port}`;
    const direct = cluster.url;
    const instance = new Instance(91, { DATABASE_URL: url.toString(), REDIS_URL: '', CRAWL_ENABLED: '0', ...mailWorldEnv(world) });
    try {
      await instance.start();
      const key = await keyFor(direct);
      const log = lineCounter(instance);
      const traffic = load(instance, key, 8);
      await sleep(500);
      log.reset();
      const acceptedBefore = proxy.accepted;
      const refusedBefore = traffic.count(503);
      cluster.stop();
      await sleep(seconds * 1000);
      const attempts = proxy.accepted - acceptedBefore;
      const lines = log.lines();
      const refused = traffic.count(503) - refusedBefore;
      cluster.start();
      const started = Date.now();
      while ((await post(instance, '/credits', key)).status !== 200 && Date.now() - started < 30_000) await sleep(20);
      const servedAfter = (Date.now() - started) / 1000;
      await traffic.stop();
      const queuedWork = await secondsUntilQueuedWorkRuns(instance, key, 60_000);
      const exit = await secondsToExit(instance);
      const wedged = Number.isFinite(exit) ? 0 : 1;
      return {
        criterion: '503 during, ≤ 2 connection attempts/s, ≤ 1 line/s, served within 2 s of the start, 0 wedged, exit ≤ 10 s',
        pass:
          wedged === 0 &&
          exit <= SHUTDOWN_MS / 1000 &&
          attempts <= seconds * 2 + 10 &&
          lines <= seconds + 5 &&
          servedAfter < 2 &&
          queuedWork < 30 &&
          traffic.other5xx() === 0,
        figures: {
          'down (s)': seconds,
          'answered 503': refused,
          'connections attempted during': attempts,
          'lines logged during': lines,
          'served after start': `${servedAfter.toFixed(1)} s`,
          'queued work ran after': `${queuedWork.toFixed(1)} s`,
          'seconds to exit': exit.toFixed(1),
          wedged,
        },
      };
    } finally {
      await instance.stop();
      await proxy.close();
      cluster.destroy();
    }
  });
}

/** `leadbase serve` on a port another process holds: it must exit non-zero at once. */
export async function portInUse(databaseUrl: string): Promise<StallResult> {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as { port: number }).port;
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: databaseUrl, REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await Promise.race([
    new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c))),
    sleep(SHUTDOWN_MS * 2).then(() => 'running' as const),
  ]);
  const seconds = (Date.now() - started) / 1000;
  if (code === 'running') child.kill('SIGKILL');
  await new Promise((resolve) => holder.close(resolve));
  const wedged = code === 'running' ? 1 : 0;
  return {
    criterion: 'exits non-zero, saying EADDRINUSE, within 10 s; 0 wedged',
    pass: wedged === 0 && code !== 0 && seconds <= SHUTDOWN_MS / 1000 && /EADDRINUSE/.test(output),
    figures: {
      'exit code': String(code),
      'seconds to exit': seconds.toFixed(1),
      'says EADDRINUSE': /EADDRINUSE/.test(output) ? 'yes' : 'no',
      wedged,
    },
  };
}

/** SIGTERM while the database stalls and requests wait on it: the process must end within SHUTDOWN_TIMEOUT_MS. */
export async function sigtermStall(databaseUrl: string): Promise<StallResult> {
  const target = new URL(databaseUrl);
  const proxy: StallingProxy = await startStallingProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${proxy.port}`;
  const instance = new Instance(92, { DATABASE_URL: url.toString(), REDIS_URL: '', CRAWL_ENABLED: '0' });
  try {
    await instance.start();
    const key = await keyFor(databaseUrl);
    const traffic = load(instance, key, 8);
    await sleep(500);
    proxy.stall();
    await sleep(2000);
    const exit = await secondsToExit(instance);
    await traffic.stop();
    const wedged = Number.isFinite(exit) ? 0 : 1;
    return {
      criterion: 'SIGTERM with requests stuck on a stalled database: exit ≤ 10 s (SHUTDOWN_TIMEOUT_MS), 0 wedged',
      pass: wedged === 0 && exit <= SHUTDOWN_MS / 1000 + 0.5,
      figures: { 'seconds to exit': exit.toFixed(1), 'exit code': String(instance.child.exitCode), wedged },
    };
  } finally {
    proxy.heal();
    await instance.stop();
    await proxy.close();
  }
}
