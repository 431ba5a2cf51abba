// `npm run chaos`: faults an operator meets, on real PostgreSQL and Redis with several instances.
// Prints one table (or --json) and exits non-zero when a scenario misses its criterion.
// See docs/benchmarks.md, "Chaos suite".
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { KeyService } from '../../src/keys/service.ts';
import { BillingService } from '../../src/billing/service.ts';
import { seedListings } from '../../test/support/listings.ts';
import { call, ChaosDatabase, ChaosRedis, enveloped, freePort, Instance, sleep, type Answer } from './cluster.ts';
// Stalls and outages: their own instances, proxies and cluster (bench/chaos/stalls.ts).
import { pgDown, pgStall, portInUse, sigtermStall } from './stalls.ts';
const STALL_SCENARIOS = ['pg-stall', 'pg-down', 'port-in-use', 'sigterm-stall'] as const;

const SCENARIOS = ['charges', 'kill9', 'pg-kill', 'redis-stop', 'fuzz', 'soak', 'sqlite-import-busy', ...STALL_SCENARIOS] as const;
type Scenario = (typeof SCENARIOS)[number];

const HELP = `usage: npm run chaos -- [options]

Runs fault scenarios against real PostgreSQL and Redis with several leadbase instances, and prints
one table of figures. Uses a database of its own (created and dropped on the PostgreSQL server of
DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test) and a redis-server of its own on a free
port; the machine's shared services are never stopped. Everything binds 127.0.0.1.

options:
  --only <list>           comma-separated scenarios (default: all): ${SCENARIOS.join(', ')}
  --instances <n>         server instances (default 3)
  --soak-seconds <n>      length of the soak (default 180)
  --fuzz-requests <n>     hostile requests in the fuzz scenario (default 10000)
  --import-rows <n>       companies imported in the sqlite-import-busy scenario (default 60000)
  --stall-seconds <n>     how long the database stalls in pg-stall (default 20)
  --down-seconds <n>      how long the own cluster is stopped in pg-down (default 15)
  --json                  print the results as JSON instead of a table
  --help                  this text
`;

interface Result {
  scenario: Scenario;
  pass: boolean;
  /** What the scenario measured, as label → value. */
  figures: Record<string, string | number>;
  /** What must hold for a pass, in words. */
  criterion: string;
}

const { values: opts } = parseArgs({
  options: {
    only: { type: 'string' },
    instances: { type: 'string', default: '3' },
    'soak-seconds': { type: 'string', default: '180' },
    'fuzz-requests': { type: 'string', default: '10000' },
    'import-rows': { type: 'string', default: '60000' },
    'stall-seconds': { type: 'string', default: '20' },
    'down-seconds': { type: 'string', default: '15' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (opts.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const only = (opts.only
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean) ?? [...SCENARIOS]) as Scenario[];
const unknown = only.filter((s) => !SCENARIOS.includes(s));
if (unknown.length) {
  process.stderr.write(`unknown scenario(s): ${unknown.join(', ')}\n${HELP}`);
  process.exit(2);
}
const instanceCount = Math.max(1, Number(opts.instances));
const soakSeconds = Math.max(1, Number(opts['soak-seconds']));
const fuzzRequests = Math.max(1, Number(opts['fuzz-requests']));
const adminUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : 'postgres://postgres@127.0.0.1:5432/test';
if (!ChaosRedis.available()) {
  process.stderr.write('chaos: redis-server is not installed; it is needed for a Redis of the run’s own\n');
  process.exit(2);
}

const progress = (line: string) => process.stderr.write(`chaos: ${line}\n`);

const database = new ChaosDatabase(adminUrl);
const redis = new ChaosRedis(await freePort());
const instances: Instance[] = [];
let handle: DatabaseHandle | undefined;
const results: Result[] = [];

/** Round-robin over the live instances. */
let turn = 0;
function nextInstance(): Instance {
  for (let i = 0; i < instances.length; i++) {
    const instance = instances[turn++ % instances.length];
    if (instance.alive) return instance;
  }
  return instances[0];
}

function post(instance: Instance, path: string, key: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return call(`${instance.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** Runs `task` for each item with at most `concurrency` at once. */
async function pool<T>(items: T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await task(items[next++]);
    }),
  );
}

async function newKey(credits: number): Promise<{ id: number; key: string }> {
  const keys = new KeyService(handle!.db);
  const created = await keys.create(`chaos-${randomBytes(3).toString('hex')}`, credits * 1000);
  // The suite calls far faster than the default per-minute limits allow: rate limiting is not what it tests.
  for (const operation of ['jobs-finder', 'credits']) await keys.setRateLimit(created.id, operation, 1_000_000);
  return { id: created.id, key: created.key };
}

const SEARCH = { job_title: 'engineer', per_page: 1 };

async function charges(): Promise<Result> {
  // Keys with 30 credits each; 1-credit searches spread over every instance, far more than they can pay.
  const keys = await Promise.all(Array.from({ length: 5 }, () => newKey(30)));
  const calls = keys.flatMap((k) => Array.from({ length: 60 }, () => k));
  const served = new Map<number, number>();
  let refused = 0;
  let other = 0;
  await pool(calls, 30, async (k) => {
    const answer = await post(nextInstance(), '/jobs-finder', k.key, SEARCH);
    if (answer.status === 200)
      served.set(k.id, (served.get(k.id) ?? 0) + (JSON.parse(answer.body) as { credits_consumed: number }).credits_consumed);
    else if (answer.status === 402) refused += 1;
    else other += 1;
  });
  const billing = new BillingService(handle!.db);
  let exact = true;
  let negative = 0;
  for (const k of keys) {
    const balance = await billing.balance(k.id);
    const ledger = await billing.ledgerBalance(k.id);
    if (balance < 0) negative += 1;
    if (balance !== ledger || 30_000 - balance !== Math.round((served.get(k.id) ?? 0) * 1000)) exact = false;
  }
  const charged = [...served.values()].reduce((a, b) => a + b, 0);
  return {
    scenario: 'charges',
    criterion: 'ledger = balance = what the 200s said, never negative, the rest 402',
    pass: exact && negative === 0 && other === 0 && charged === 150,
    figures: {
      requests: calls.length,
      served: charged,
      'refused 402': refused,
      other,
      'ledgers exact': exact ? 'yes' : 'no',
      'negative balances': negative,
    },
  };
}

async function kill9(): Promise<Result> {
  const key = await newKey(1000);
  const billing = new BillingService(handle!.db);
  const before = await billing.balance(key.id);
  const logical = Array.from({ length: 240 }, (_, i) => `chaos-${randomBytes(4).toString('hex')}-${i}`);
  let completed = 0;
  const retries = new Map<string, number>();
  let longestWaitMs = 0;
  let paidWithoutCharge = 0;
  const victim = instances[0];
  let killedAt = 0;
  const killer = (async () => {
    await sleep(800);
    killedAt = Date.now();
    await victim.kill9();
    await sleep(1000);
    await victim.start();
  })();
  await pool(logical, 20, async (idem) => {
    const first = Date.now();
    for (;;) {
      const answer = await post(nextInstance(), '/jobs-finder', key.key, SEARCH, { 'idempotency-key': idem });
      if (answer.status === 200) {
        completed += 1;
        if ((JSON.parse(answer.body) as { credits_consumed: number }).credits_consumed !== 1) paidWithoutCharge += 1;
        longestWaitMs = Math.max(longestWaitMs, Date.now() - first);
        return;
      }
      const cause = answer.failed ? 'connection' : String(answer.status);
      retries.set(cause, (retries.get(cause) ?? 0) + 1);
      if (Date.now() - first > 60_000) return;
      await sleep(answer.status === 409 ? 250 : 50);
    }
  });
  await killer;
  const after = await billing.balance(key.id);
  const charged = (before - after) / 1000;
  const ledgerExact = (await billing.ledgerBalance(key.id)) === after;
  return {
    scenario: 'kill9',
    criterion: 'every logical request charged exactly once, none served unpaid, retries proceed within seconds',
    pass: completed === logical.length && charged === completed && paidWithoutCharge === 0 && ledgerExact,
    figures: {
      'logical requests': logical.length,
      completed,
      'charged (credits)': charged,
      retries: [...retries].map(([cause, n]) => `${n}×${cause}`).join(' ') || 0,
      'longest wait to success': `${(longestWaitMs / 1000).toFixed(1)} s`,
      'killed after': killedAt ? 'yes' : 'no',
    },
  };
}

/** Load that keeps every instance busy until stopped; counts answers by status. */
function load(key: string, concurrency: number) {
  const statuses = new Map<number, number>();
  let running = true;
  let lastOkAt = 0;
  const workers = Array.from({ length: concurrency }, async (_, i) => {
    while (running) {
      const answer =
        i % 2
          ? await post(nextInstance(), '/jobs-finder', key, SEARCH)
          : await call(`${nextInstance().url}/credits`, { headers: { 'x-api-key': key } });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 200) lastOkAt = Date.now();
      if (answer.status >= 500 && answer.status !== 503) statuses.set(-1, (statuses.get(-1) ?? 0) + 1);
      if (answer.status === 503 && !answer.retryAfter) statuses.set(-2, (statuses.get(-2) ?? 0) + 1);
    }
  });
  return {
    statuses,
    lastOkAt: () => lastOkAt,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

async function untilOk(check: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if (await check()) return Date.now() - started;
    await sleep(20);
  }
  return Number.POSITIVE_INFINITY;
}

async function pgKill(): Promise<Result> {
  const key = await newKey(1_000_000);
  const exitsBefore = instances.reduce((n, i) => n + i.unexpectedExits, 0);
  const traffic = load(key.key, 16);
  await sleep(500);
  const recoveries: number[] = [];
  let killed = 0;
  for (let round = 0; round < 3; round++) {
    killed += await database.terminateBackends();
    const ok = () => call(`${nextInstance().url}/credits`, { headers: { 'x-api-key': key.key } }).then((a) => a.status === 200);
    recoveries.push(await untilOk(ok, 10_000));
    await sleep(700);
  }
  await traffic.stop();
  const exits = instances.reduce((n, i) => n + i.unexpectedExits, 0) - exitsBefore;
  const fiveHundreds = traffic.statuses.get(-1) ?? 0;
  const withoutRetryAfter = traffic.statuses.get(-2) ?? 0;
  return {
    scenario: 'pg-kill',
    criterion: '0 process exits, no 5xx but 503 with Retry-After, served again within 2 s',
    pass: exits === 0 && fiveHundreds === 0 && withoutRetryAfter === 0 && Math.max(...recoveries) < 2000,
    figures: {
      'connections killed': killed,
      'served 200': traffic.statuses.get(200) ?? 0,
      'answered 503': traffic.statuses.get(503) ?? 0,
      'other 5xx': fiveHundreds,
      'process exits': exits,
      'worst recovery': `${Math.max(...recoveries)} ms`,
    },
  };
}

async function redisStop(): Promise<Result> {
  const key = await newKey(1_000_000);
  const exitsBefore = instances.reduce((n, i) => n + i.unexpectedExits, 0);
  const traffic = load(key.key, 8);
  await sleep(500);
  await redis.kill();
  await sleep(1500);
  const servedWithout = traffic.statuses.get(200) ?? 0;
  const readyz = await call(`${nextInstance().url}/readyz`);
  const degraded = readyz.status === 200 && /"redis":"unavailable"/.test(readyz.body) && /"degraded"/.test(readyz.body);
  await sleep(1000);
  const servedDuring = (traffic.statuses.get(200) ?? 0) - servedWithout;
  await redis.start();
  const back = await untilOk(async () => {
    const answers = await Promise.all(instances.filter((i) => i.alive).map((i) => call(`${i.url}/readyz`)));
    return answers.every((a) => /"redis":"ok"/.test(a.body));
  }, 30_000);
  await traffic.stop();
  const exits = instances.reduce((n, i) => n + i.unexpectedExits, 0) - exitsBefore;
  return {
    scenario: 'redis-stop',
    criterion: 'still served (limits per instance), /readyz degraded, every instance back on Redis within 10 s, 0 exits',
    pass: exits === 0 && servedDuring > 0 && degraded && back < 10_000 && (traffic.statuses.get(-1) ?? 0) === 0,
    figures: {
      'served while down (1 s)': servedDuring,
      '/readyz while down': degraded ? 'degraded, redis unavailable' : `${readyz.status} ${readyz.body.slice(0, 60)}`,
      'back on Redis after restart': `${back} ms`,
      '5xx': traffic.statuses.get(-1) ?? 0,
      'process exits': exits,
    },
  };
}

const HOSTILE_VALUES: unknown[] = [
  'a\u0000b',
  '\u0007',
  'x'.repeat(5000),
  '\ud800',
  "' OR 1=1 --",
  2147483648,
  -1e308,
  1e308,
  1.5,
  -1,
  null,
  true,
  [],
  {},
  { $gt: '' },
  '9'.repeat(400),
];
const RAW_REQUESTS = [
  'GET / HTTP/1.1\r\nHost: x\r\nX-Big: ' + 'a'.repeat(20_000) + '\r\n\r\n',
  'POST /jobs-finder HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  'POST /jobs-finder HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
  'NONSENSE\r\n\r\n',
  'GET /%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
];

function rawCall(url: string, request: string): Promise<Answer> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const last = data.split(/(?=HTTP\/1\.1 \d{3} )/).at(-1) ?? '';
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(last)?.[1] ?? 0);
      resolve({ status, body: last.slice(last.indexOf('\r\n\r\n') + 4), retryAfter: null, ms: performance.now() - started });
    });
    socket.setTimeout(3000, () => socket.destroy());
    socket.write(request);
  });
}

async function fuzz(): Promise<Result> {
  const key = await newKey(1_000_000);
  const doc = JSON.parse((await call(`${instances[0].url}/openapi.json`)).body) as {
    paths: Record<
      string,
      Record<string, { requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } }>
    >;
  };
  const routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      path,
      method: method.toUpperCase(),
      fields: Object.keys(op.requestBody?.content['application/json']?.schema.properties ?? {}),
    })),
  );
  routes.push(
    { path: '/webhooks/postmark', method: 'POST', fields: ['Email', 'RecordType'] },
    { path: '/nope', method: 'DELETE', fields: [] },
  );
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
  let fiveXX = 0;
  let notEnveloped = 0;
  let noAnswer = 0;
  const examples: string[] = [];
  const jobs = Array.from({ length: fuzzRequests }, (_, i) => i);
  await pool(jobs, 20, async (i) => {
    const instance = nextInstance();
    let answer: Answer;
    let what: string;
    if (i % 50 === 0) {
      const request = pick(RAW_REQUESTS);
      what = `raw ${JSON.stringify(request.slice(0, 30))}`;
      answer = await rawCall(instance.url, request);
    } else {
      const route = pick(routes);
      const body: Record<string, unknown> = {};
      for (const field of route.fields) if (Math.random() < 0.5) body[field] = pick(HOSTILE_VALUES);
      const variant = Math.random();
      const payload = variant < 0.05 ? '{"broken": ' : variant < 0.1 ? JSON.stringify(pick(HOSTILE_VALUES)) : JSON.stringify(body);
      const headers: Record<string, string> = { 'content-type': variant < 0.12 && variant >= 0.1 ? 'text/xml' : 'application/json' };
      if (Math.random() < 0.9) headers['x-api-key'] = Math.random() < 0.9 ? key.key : 'lb_wrong';
      if (Math.random() < 0.1) headers['idempotency-key'] = Math.random() < 0.5 ? 'x'.repeat(300) : `fuzz-${i}`;
      what = `${route.method} ${route.path} ${payload.slice(0, 60)}`;
      answer = await call(`${instance.url}${route.path}`, {
        method: route.method,
        headers,
        body: route.method === 'GET' ? undefined : payload,
      });
    }
    if (answer.status === 0) noAnswer += 1;
    else if (answer.status >= 500) fiveXX += 1;
    else if (!enveloped(answer)) notEnveloped += 1;
    else return;
    if (examples.length < 5) examples.push(`${answer.status} ${what}`);
  });
  if (examples.length) progress(`fuzz examples: ${examples.join(' | ')}`);
  return {
    scenario: 'fuzz',
    criterion: '0 5xx, every error in {error, message}',
    pass: fiveXX === 0 && notEnveloped === 0 && noAnswer === 0,
    figures: { requests: fuzzRequests, '5xx': fiveXX, 'not enveloped': notEnveloped, 'no answer': noAnswer, routes: routes.length },
  };
}

async function heapUsed(instance: Instance): Promise<number> {
  const metrics = (await call(`${instance.url}/metrics`)).body;
  return Number(/^leadbase_nodejs_heap_size_used_bytes (\S+)/m.exec(metrics)?.[1] ?? Number.NaN);
}

async function soak(): Promise<Result> {
  const key = await newKey(1_000_000_000);
  const instance = instances.find((i) => i.alive)!;
  const samples: number[] = [];
  const traffic = load(key.key, 8);
  const started = Date.now();
  while (Date.now() - started < soakSeconds * 1000) {
    await sleep(Math.min(2000, soakSeconds * 100));
    samples.push(await heapUsed(instance));
    progress(`soak ${Math.round((Date.now() - started) / 1000)}/${soakSeconds} s, heap ${(samples.at(-1)! / 1e6).toFixed(1)} MB`);
  }
  await traffic.stop();
  // The lowest heap of a stretch is its heap after collection: compare the first third with the last.
  const third = Math.max(1, Math.floor(samples.length / 3));
  const start = Math.min(...samples.slice(0, third));
  const end = Math.min(...samples.slice(-third));
  const growth = end - start;
  const served = [...traffic.statuses.entries()].filter(([s]) => s === 200).reduce((n, [, c]) => n + c, 0);
  return {
    scenario: 'soak',
    criterion: 'heap after GC flat: last third within 10 MB or 20% of the first, 0 5xx',
    pass: (growth < 10e6 || growth < start * 0.2) && (traffic.statuses.get(-1) ?? 0) === 0,
    figures: {
      seconds: soakSeconds,
      requests: served,
      'heap low, first third': `${(start / 1e6).toFixed(1)} MB`,
      'heap low, last third': `${(end / 1e6).toFixed(1)} MB`,
      '5xx': traffic.statuses.get(-1) ?? 0,
    },
  };
}

// ---- sqlite-import-busy: an import beside busy servers on one SQLite file ----
// A world of its own (a SQLite file, two `leadbase serve` processes on it, no Redis): the servers
// charge keys as fast as they are asked while `leadbase import companies jsonl` writes a file of
// companies into the same database. Every row of the file must be stored, and the command exit 0.

const importRows = Math.max(1, Number(opts['import-rows']));

async function sqliteImportBusy(): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-chaos-sqlite-'));
  const databaseUrl = `sqlite:${join(dir, 'db.sqlite')}`;
  const servers = [0, 1].map((i) => new Instance(100 + i, { DATABASE_URL: databaseUrl, REDIS_URL: '' }));
  let local: DatabaseHandle | undefined;
  try {
    await servers[0].start(); // migrates the new file
    await servers[1].start();
    local = openDatabase(databaseUrl);
    await seedListings(local.db, { count: 20, word: 'Busy', idPrefix: 'S', board: 'sqlite-busy' });
    const keys = new KeyService(local.db);
    const key = await keys.create('chaos-sqlite', 1_000_000_000);
    await keys.setRateLimit(key.id, 'jobs-finder', 1_000_000);

    const file = join(dir, 'companies.jsonl');
    const tag = randomBytes(3).toString('hex');
    writeFileSync(
      file,
      `${Array.from({ length: importRows }, (_, i) => JSON.stringify({ name: `Busy ${tag} ${i}`, domain: `busy-${tag}-${i}.test` })).join('\n')}\n`,
    );
    const statuses = new Map<number, number>();
    let running = true;
    const hammer = Array.from({ length: 8 }, async (_, i) => {
      while (running) {
        const answer = await post(servers[i % 2], '/jobs-finder', key.key, SEARCH);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
    });
    const started = Date.now();
    const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [join(process.cwd(), 'bin', 'leadbase.js'), 'import', 'companies', 'jsonl', file, '--quiet', '--json'],
        {
          env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: '' },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    const seconds = (Date.now() - started) / 1000;
    running = false;
    await Promise.all(hammer);
    let rejected: number | string = 'no summary';
    try {
      rejected = (JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '') as { rejected: number }).rejected;
    } catch {
      progress(`sqlite-import-busy: the import printed no summary: ${result.stderr.slice(0, 500)}`);
    }
    const written = Number(
      (
        await local.db
          .selectFrom('companies')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('name', 'like', `Busy ${tag} %`)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const exits = servers.reduce((n, i) => n + i.unexpectedExits, 0);
    const fiveHundreds = [...statuses].filter(([s]) => s >= 500 && s !== 503).reduce((n, [, c]) => n + c, 0);
    return {
      scenario: 'sqlite-import-busy',
      criterion: 'every row of the file written (0 lost), the import exits 0, the servers keep charging, 0 server exits',
      pass: written === importRows && result.status === 0 && (statuses.get(200) ?? 0) > 0 && exits === 0,
      figures: {
        'rows in file': importRows,
        'rows written': written,
        lost: importRows - written,
        rejected,
        'import exit': result.status ?? 'killed',
        'import seconds': seconds.toFixed(1),
        'charged 200': statuses.get(200) ?? 0,
        'answered 503': statuses.get(503) ?? 0,
        'other 5xx': fiveHundreds,
        'server exits': exits,
      },
    };
  } finally {
    await Promise.all(servers.map((i) => i.stop()));
    await local?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
// ---- end of sqlite-import-busy ----
// Stall and outage scenarios: each figure set comes from stalls.ts.
const stallSeconds = Math.max(1, Number(opts['stall-seconds']));
const downSeconds = Math.max(1, Number(opts['down-seconds']));
const stallRunners: Record<(typeof STALL_SCENARIOS)[number], () => Promise<Result>> = {
  'pg-stall': async () => ({ scenario: 'pg-stall', ...(await pgStall(database.url, stallSeconds)) }),
  'pg-down': async () => ({ scenario: 'pg-down', ...(await pgDown(downSeconds)) }),
  'port-in-use': async () => ({ scenario: 'port-in-use', ...(await portInUse(database.url)) }),
  'sigterm-stall': async () => ({ scenario: 'sigterm-stall', ...(await sigtermStall(database.url)) }),
};

const RUNNERS: Record<Scenario, () => Promise<Result>> = {
  charges,
  kill9,
  'pg-kill': pgKill,
  'redis-stop': redisStop,
  fuzz,
  soak,
  'sqlite-import-busy': sqliteImportBusy,
  ...stallRunners,
};

async function setUp(): Promise<void> {
  progress(`database ${database.name}, redis-server on port ${redis.port}, ${instanceCount} instances`);
  await database.create();
  await redis.start();
  const env = { DATABASE_URL: database.url, REDIS_URL: redis.url };
  for (let i = 0; i < instanceCount; i++) instances.push(new Instance(i, env));
  await instances[0].start(); // migrates the new database
  await Promise.all(instances.slice(1).map((i) => i.start()));
  handle = openDatabase(database.url, { poolSize: 4 });
  // Listings to search: one page of one listing costs 1 credit.
  await seedListings(handle.db, { count: 50, word: 'Chaos', idPrefix: 'C', board: 'chaos' });
}

async function tearDown(): Promise<void> {
  await Promise.all(instances.map((i) => i.stop()));
  await handle?.close();
  await redis.destroy();
  await database.drop().catch((error: unknown) => progress(`could not drop ${database.name}: ${(error as Error).message}`));
}

function table(rows: Result[]): string {
  const lines = ['| scenario | result | figures | criterion |', '|---|---|---|---|'];
  for (const r of rows) {
    const figures = Object.entries(r.figures)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; ');
    lines.push(`| ${r.scenario} | ${r.pass ? 'pass' : '**FAIL**'} | ${figures} | ${r.criterion} |`);
  }
  return lines.join('\n');
}

const started = Date.now();
let crashed: unknown;
try {
  await setUp();
  for (const scenario of only) {
    progress(`${scenario}…`);
    results.push(await RUNNERS[scenario]());
    progress(`${scenario}: ${results.at(-1)!.pass ? 'pass' : 'FAIL'}`);
  }
} catch (error) {
  crashed = error;
} finally {
  await tearDown();
}
const exits = instances.reduce((n, i) => n + i.unexpectedExits, 0);
if (opts.json) {
  process.stdout.write(
    `${JSON.stringify({ instances: instanceCount, seconds: Math.round((Date.now() - started) / 1000), unexpectedExits: exits, results }, null, 2)}\n`,
  );
} else {
  process.stdout.write(
    `\nleadbase chaos: ${instanceCount} instances, PostgreSQL ${new URL(adminUrl).host}, own Redis, ${Math.round((Date.now() - started) / 1000)} s\n\n${table(results)}\n\nunexpected process exits over the whole run: ${exits}\n`,
  );
}
if (crashed) {
  process.stderr.write(`chaos: the run stopped: ${crashed instanceof Error ? crashed.stack : JSON.stringify(crashed)}\n`);
  process.exit(1);
}
process.exit(results.every((r) => r.pass) && exits === 0 ? 0 : 1);
