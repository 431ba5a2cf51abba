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

/** A counting, stallable proxy in front of the PostgreSQL at `databaseUrl`, and the URL that goes through it. */
async function proxied(databaseUrl: string): Promise<{ proxy: StallingProxy; url: string }> {
  const target = new URL(databaseUrl);
  const proxy = await startStallingProxy({ host: target.hostname, port: Number(target.port || 5432) });
  target.host = `127.0.0.1:${proxy.port}`;
  return { proxy, url: target.toString() };
}

interface OutageFigures {
  /** Connections the proxy accepted, and lines the instance logged, during the outage. */
  attempts: number;
  lines: number;
  /** Answered 503 during the outage, and over the whole run. */
  refusedDuring: number;
  refused: number;
  slowest503Ms: number;
  other5xx: number;
  /** Seconds from the recovery to the first answered request, and until queued work ran. */
  servedAfter: number;
  queuedWork: number;
  exit: number;
  wedged: number;
}

/**
 * `leadbase serve` on PostgreSQL through a proxy, under load: `fail` breaks the database for
 * `seconds`, `recover` ends it; then what was seen during the outage and after it.
 */
async function databaseOutage(options: {
  world: MailWorld;
  index: number;
  /** The database itself (keys are made there), and the proxy in front of it. */
  databaseUrl: string;
  proxy: StallingProxy;
  proxiedUrl: string;
  seconds: number;
  fail: () => void;
  recover: () => void;
  /** How often readiness is asked after the recovery. */
  pollMs: number;
}): Promise<OutageFigures> {
  const { proxy, seconds } = options;
  const env = { DATABASE_URL: options.proxiedUrl, REDIS_URL: '', CRAWL_ENABLED: '0', ...mailWorldEnv(options.world) };
  const instance = new Instance(options.index, env);
  try {
    await instance.start();
    const key = await keyFor(options.databaseUrl);
    const log = lineCounter(instance);
    const traffic = load(instance, key, 8);
    await sleep(500);
    log.reset();
    const acceptedBefore = proxy.accepted;
    const refusedBefore = traffic.count(503);
    options.fail();
    await sleep(seconds * 1000);
    const attempts = proxy.accepted - acceptedBefore;
    const lines = log.lines();
    const refusedDuring = traffic.count(503) - refusedBefore;
    options.recover();
    const recovered = Date.now();
    while ((await post(instance, '/credits', key)).status !== 200 && Date.now() - recovered < 30_000) await sleep(options.pollMs);
    const servedAfter = (Date.now() - recovered) / 1000;
    await traffic.stop();
    const queuedWork = await secondsUntilQueuedWorkRuns(instance, key, 60_000);
    const exit = await secondsToExit(instance);
    return {
      attempts,
      lines,
      refusedDuring,
      refused: traffic.count(503),
      slowest503Ms: traffic.slowest503(),
      other5xx: traffic.other5xx(),
      servedAfter,
      queuedWork,
      exit,
      wedged: Number.isFinite(exit) ? 0 : 1,
    };
  } finally {
    options.recover();
    await instance.stop();
  }
}

/** What both outages must show: none wedged, a prompt exit, few reconnects, queued work run after, no 5xx but 503. */
function outageHeld(o: OutageFigures, seconds: number): boolean {
  return o.wedged === 0 && o.exit <= SHUTDOWN_MS / 1000 && o.attempts <= seconds * 2 + 10 && o.queuedWork < 30 && o.other5xx === 0;
}

/** The figures both outages report, after their own; `served` names the wait from the recovery to the first answer. */
function outageReport(o: OutageFigures, served: string): Record<string, string | number> {
  return {
    'connections attempted during': o.attempts,
    'lines logged during': o.lines,
    [served]: `${o.servedAfter.toFixed(1)} s`,
    'queued work ran after': `${o.queuedWork.toFixed(1)} s`,
    'seconds to exit': o.exit.toFixed(1),
    wedged: o.wedged,
  };
}

/** A database behind a proxy that stalls for `seconds`, under load; then served again and queued work run. */
export function pgStall(databaseUrl: string, seconds: number): Promise<StallResult> {
  return withMailWorld(async (world) => {
    const { proxy, url } = await proxied(databaseUrl);
    try {
      const o = await databaseOutage({
        world,
        index: 90,
        databaseUrl,
        proxy,
        proxiedUrl: url,
        seconds,
        fail: () => proxy.stall(),
        recover: () => proxy.heal(),
        pollMs: 50,
      });
      return {
        criterion: 'every 503 within 10 s, ≤ 2 connection attempts/s, served and queued work run after, 0 wedged, exit ≤ 10 s',
        pass: outageHeld(o, seconds) && o.slowest503Ms <= 10_000 && o.servedAfter < 5,
        figures: {
          'stall (s)': seconds,
          'answered 503': o.refused,
          'slowest 503': `${(o.slowest503Ms / 1000).toFixed(1)} s`,
          ...outageReport(o, 'served after heal'),
        },
      };
    } finally {
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
    // Only counts: the proxy never stalls here.
    const { proxy, url } = await proxied(cluster.url);
    let down = false;
    try {
      const o = await databaseOutage({
        world,
        index: 91,
        databaseUrl: cluster.url,
        proxy,
        proxiedUrl: url,
        seconds,
        fail: () => {
          down = true;
          cluster.stop();
        },
        recover: () => {
          if (down) cluster.start();
          down = false;
        },
        pollMs: 20,
      });
      return {
        criterion: '503 during, ≤ 2 connection attempts/s, ≤ 1 line/s, served within 2 s of the start, 0 wedged, exit ≤ 10 s',
        pass: outageHeld(o, seconds) && o.lines <= seconds + 5 && o.servedAfter < 2,
        figures: { 'down (s)': seconds, 'answered 503': o.refusedDuring, ...outageReport(o, 'served after start') },
      };
    } finally {
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
  const { proxy, url } = await proxied(databaseUrl);
  const instance = new Instance(92, { DATABASE_URL: url, REDIS_URL: '', CRAWL_ENABLED: '0' });
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
