// A bulk list at scale (issue 14): a simulated list through POST /email-validate/bulk, the queue and
// the engine, against the lower bound the mail hosts' politeness limits and reply times set.
//   npm run bench -- email-bulk                      100,000 addresses
//   npm run bench -- email-bulk --addresses=N
//   npm run bench -- email-bulk --instances=2        the list split over two instances sharing the
//                                                    mail hosts' limits (needs DATABASE_URL=postgres://…;
//                                                    limits through Redis when REDIS_URL is set, else the database)
// The list: 60% on three big providers' hosts (a Google-like host taking 100 recipients per
// transaction, a Microsoft-like host answering one recipient per session, a Proofpoint-fronted
// host), 100 domains each; 40% over 2,000 small domains on shared hosting (10 ordinary hosts, 2
// catch-all, 2 greylisting, and 100 domains with no DNS at all). Half of the addresses exist.
// Every host allows 5 connections, greets a new connection after 100 ms (the fake SMTP server's
// early-talker pause) and answers each RCPT 20 ms late, one command at a time per connection; a
// greylisting host refuses an address's first RCPT and takes it after 1 s.
// Lower bound, per host, over its 5 connections: every RCPT it must be asked (each address, once
// more when greylisted, and one catch-all probe per domain) at 20 ms, plus a greeting for every
// session it must open: one per connection, and one per address on the one-recipient-per-session
// host. The list's bound is the slowest host's, plus the greylist retry delay on the greylisting
// hosts. DNS, HTTP, the database and the other SMTP replies are not in the bound.
// BENCH_TIMELINE=1 also prints every host's first and last RCPT and, per second of the run, how many
// first asks and second looks the greylisting hosts saw (where the greylist tail is).
import { loadConfig } from '../src/platform/config.ts';
import { startTestApp, type TestApp } from '../test/support/app.ts';
import { dbTargets } from '../test/support/db.ts';
import { startMailWorld, type FakeMx, type MailDomainOptions } from '../test/support/fake-smtp.ts';
import { fmt, ratio } from './support/stats.ts';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const N = arg('addresses', 100_000);
const INSTANCES = Math.max(1, arg('instances', 1));
const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
/** --limits=local|redis|database: where the limits count (default: local for one instance, else redis or database). */
const LIMITS = flag('limits');
/** --postgres: one instance on PostgreSQL too (to tell the database's share from the limits'). */
const ON_POSTGRES = INSTANCES > 1 || process.argv.includes('--postgres');
if (ON_POSTGRES && !process.env.DATABASE_URL?.startsWith('postgres')) {
  console.error('--instances needs DATABASE_URL=postgres://…: instances share one database (and Redis when REDIS_URL is set)');
  process.exit(2);
}
const CONNECTIONS = 5;
const REPLY_MS = 20;
const GREYLIST_MS = 1000;
const GREYLIST_RETRY_MS = 2000;
const GREETING_MS = 100;

type Truth = 'valid' | 'invalid' | 'catch_all';
interface HostPlan {
  name: string;
  options: MailDomainOptions;
  mxHost: string;
  domains: string[];
  share: number;
  truth: (exists: boolean) => Truth;
  greylisting?: boolean;
}

const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));
const ordinary = (exists: boolean): Truth => (exists ? 'valid' : 'invalid');
const plans: HostPlan[] = [
  {
    name: 'google-like',
    options: { maxRcptsPerTransaction: 100 },
    mxHost: 'aspmx.l.google.com',
    domains: range(100, (i) => `g${i}.bench`),
    share: 0.2,
    truth: ordinary,
  },
  {
    name: 'microsoft-like',
    options: { oneRcptPerSession: true },
    mxHost: 'bench.mail.protection.outlook.com',
    domains: range(100, (i) => `m${i}.bench`),
    share: 0.2,
    truth: ordinary,
  },
  {
    name: 'proofpoint-fronted',
    options: {},
    mxHost: 'mx0a-0001.pphosted.com',
    domains: range(100, (i) => `p${i}.bench`),
    share: 0.2,
    truth: ordinary,
  },
  ...range(10, (h) => `host${h}`).map((name, h) => ({
    name: `small ${name}`,
    options: {},
    mxHost: `mx.${name}.hosting.bench`,
    domains: range(140, (i) => `s${h}-${i}.bench`),
    share: (0.4 * (1400 / 2000)) / 10,
    truth: ordinary,
  })),
  ...range(2, (h) => `catchall${h}`).map((name, h) => ({
    name: `small ${name}`,
    options: { acceptAll: true },
    mxHost: `mx.${name}.hosting.bench`,
    domains: range(150, (i) => `c${h}-${i}.bench`),
    share: (0.4 * (300 / 2000)) / 2,
    truth: (): Truth => 'catch_all',
  })),
  ...range(2, (h) => `grey${h}`).map((name, h) => ({
    name: `small ${name}`,
    options: { greylist: true, greylistMs: GREYLIST_MS },
    mxHost: `mx.${name}.hosting.bench`,
    domains: range(100, (i) => `y${h}-${i}.bench`),
    share: (0.4 * (200 / 2000)) / 2,
    truth: ordinary,
    greylisting: true,
  })),
];
const DEAD_DOMAINS = range(100, (i) => `dead${i}.bench`);

// The list, interleaved as a real export is (sorted by nothing in particular), and its truth.
const list: string[] = [];
const truth = new Map<string, Truth>();
const asked = new Map<HostPlan, number>();
let n = 0;
function add(domains: string[], count: number, truthOf: (exists: boolean) => Truth, plan?: HostPlan) {
  for (let i = 0; i < count; i++) {
    const exists = n % 2 === 0;
    const email = `${exists ? 'v' : 'x'}${n++}@${domains[i % domains.length]}`;
    list.push(email);
    truth.set(email, truthOf(exists));
  }
  if (plan) asked.set(plan, count);
}
for (const plan of plans) add(plan.domains, Math.round(N * plan.share), plan.truth, plan);
add(DEAD_DOMAINS, N - list.length, () => 'invalid');
// Fisher-Yates with a small seeded generator (mulberry32): the same order on every run.
let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};
for (let i = list.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [list[i], list[j]] = [list[j], list[i]];
}

const bounds = plans.map((plan) => {
  const addresses = asked.get(plan)!;
  // A catch-all host is asked once per domain; every other address is answered from that verdict.
  const rcpts = plan.options.acceptAll ? plan.domains.length : addresses * (plan.greylisting ? 2 : 1) + plan.domains.length;
  const sessions = plan.options.oneRcptPerSession ? rcpts : CONNECTIONS;
  const ms = Math.ceil((rcpts * REPLY_MS + sessions * GREETING_MS) / CONNECTIONS) + (plan.greylisting ? GREYLIST_RETRY_MS : 0);
  return { plan, ms };
});
const bound = Math.max(...bounds.map((b) => b.ms));
const slowest = bounds.find((b) => b.ms === bound)!.plan.name;

// BENCH_TRACE=1: where the shared limits spend the time (round trips to the store, the delay from a
// slot given back to its next holder), measured by wrapping the limiter's methods in this process.
const trace = {
  calls: new Map<string, number[]>(),
  handoffs: [] as number[],
  freed: new Map<string, number[]>(),
  /** Slots held per key by every instance of this process together, as the limiter counts them. */
  holding: new Map<string, number>(),
  peakHeld: 0,
};
if (process.env.BENCH_TRACE) {
  const { RedisLeaseStore } = await import('../src/email/lease-store-redis.ts');
  const { DatabaseLeaseStore } = await import('../src/email/lease-store-db.ts');
  const { SharedProbeLimits } = await import('../src/email/shared-limits.ts');
  for (const proto of [RedisLeaseStore.prototype, DatabaseLeaseStore.prototype] as unknown as Record<
    string,
    (...a: unknown[]) => Promise<unknown>
  >[])
    for (const name of ['enter', 'grant', 'leave', 'take']) {
      const original = proto[name];
      proto[name] = async function (this: unknown, ...args: unknown[]) {
        const at = performance.now();
        try {
          return await original.apply(this, args);
        } finally {
          const list = trace.calls.get(name) ?? [];
          list.push(performance.now() - at);
          trace.calls.set(name, list);
        }
      };
    }
  const limits = SharedProbeLimits.prototype as unknown as { hold: (key: string, lease: string, signal?: AbortSignal) => () => void };
  const hold = limits.hold;
  limits.hold = function (this: unknown, key: string, lease: string, signal?: AbortSignal) {
    const freed = trace.freed.get(key);
    const at = freed?.shift();
    if (at !== undefined) trace.handoffs.push(performance.now() - at);
    const release = hold.call(this, key, lease, signal);
    trace.holding.set(key, (trace.holding.get(key) ?? 0) + 1);
    trace.peakHeld = Math.max(trace.peakHeld, trace.holding.get(key)!);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      trace.holding.set(key, trace.holding.get(key)! - 1);
      const list = trace.freed.get(key) ?? [];
      // Only a slot someone waits for counts as a hand-off: kept while the host has work.
      if (list.length < 50) list.push(performance.now());
      trace.freed.set(key, list);
      release();
    };
  };
}
const quantiles = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  return `n ${sorted.length}, median ${fmt(q(0.5))} ms, p90 ${fmt(q(0.9))} ms, p99 ${fmt(q(0.99))} ms`;
};

const world = await startMailWorld();
const servers = new Map<HostPlan, FakeMx>();
const validLocals = list.filter((e) => e.startsWith('v')).map((e) => e.slice(0, e.indexOf('@')));
for (const plan of plans) {
  const [first, ...rest] = plan.domains;
  servers.set(plan, await world.domain(first, { ...plan.options, mailboxes: validLocals, tarpitMs: REPLY_MS, mxHost: plan.mxHost }));
  for (const domain of rest) world.dns.mx(domain, [{ exchange: plan.mxHost, priority: 10 }]);
}

// One instance: SQLite and limits in the process, as a single deployment runs. Several: each its
// own services (queue workers, engine, limits) on one PostgreSQL database, limits shared through
// Redis when REDIS_URL is set, else through the database.
const shared = ON_POSTGRES;
const limitsBackend = (LIMITS ?? (INSTANCES === 1 ? 'local' : process.env.REDIS_URL ? 'redis' : 'database')) as
  'local' | 'redis' | 'database';
const instanceDeps = {
  config: loadConfig({ BULK_GREYLIST_RETRY_MS: String(GREYLIST_RETRY_MS), REDIS_URL: process.env.REDIS_URL }),
  email: {
    ...world.emailConfig,
    maxSessionsPerMxHost: CONNECTIONS,
    domainSessionsPerMinute: 1_000_000,
    rcptsPerTransaction: 100,
    recheckPollMs: 3_600_000,
    probeLimits: limitsBackend,
    probeLimitsNamespace: `bench-${process.pid}`,
  } as const,
};
const t = await startTestApp(shared ? dbTargets[1] : undefined, { credits: N, redisUrl: process.env.REDIS_URL, deps: instanceDeps });
const others: TestApp[] = [];
for (let i = 1; i < INSTANCES; i++)
  others.push(
    await startTestApp(undefined, {
      database: t.database,
      existingKey: { key: t.key, id: t.keyId },
      redisUrl: process.env.REDIS_URL,
      deps: instanceDeps,
    }),
  );
const instances = [t, ...others];

console.log(
  `email bulk: ${N} addresses (${plans.length} mail hosts, ${plans.reduce((s, p) => s + p.domains.length, 0) + DEAD_DOMAINS.length} domains), ` +
    `${CONNECTIONS} connections per host, RCPT answered ${REPLY_MS} ms late; lower bound ${fmt(bound)} ms (${slowest}); ` +
    `${INSTANCES} instance(s), limits ${limitsBackend}`,
);
try {
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  // Several instances: the list in as many parts, each posted to its own instance.
  const parts = instances.map((_, i) => list.filter((_, j) => j % INSTANCES === i));
  const ids: string[] = [];
  for (const [i, part] of parts.entries()) {
    const created = await instances[i].post('/email-validate/bulk', { emails: part });
    if (created.statusCode !== 202) throw new Error(`POST answered ${created.statusCode}: ${created.body}`);
    ids.push(created.json<{ id: string }>().id);
  }
  const accepted = performance.now() - started;
  console.log(`list accepted (202) after ${fmt(accepted)} ms`);
  // Where the time goes, seen from the mail hosts: when each host was first and last asked, and how
  // many of its connections were open meanwhile (a slot idle between two holders shows as fewer than the limit).
  const usage = new Map(plans.map((p) => [p, { first: 0, last: 0, seen: 0, samples: 0, openSum: 0, full: 0 }]));
  const usageSampler = setInterval(() => {
    const now = performance.now() - started;
    for (const [plan, u] of usage) {
      const mx = servers.get(plan)!;
      if (mx.rcpts.length > u.seen) {
        if (!u.first) u.first = now;
        u.last = now;
        u.seen = mx.rcpts.length;
      }
      if (u.first && u.seen < asked.get(plan)!) {
        u.samples += 1;
        u.openSum += mx.concurrent();
        if (mx.concurrent() >= CONNECTIONS) u.full += 1;
      }
    }
  }, 10);
  // BENCH_TIMELINE: when each greylisting host was asked (first asks and retries), per second of the run.
  const greyAsks: number[][] = [];
  if (process.env.BENCH_TIMELINE)
    for (const plan of plans.filter((p) => p.greylisting)) {
      const rcpts = servers.get(plan)!.rcpts;
      const seenBefore = new Set<string>();
      rcpts.push = (...items: string[]) => {
        for (const item of items) {
          greyAsks.push([performance.now() - started, seenBefore.has(item) ? 1 : 0]);
          seenBefore.add(item);
        }
        return Array.prototype.push.apply(rcpts, items);
      };
    }
  const timeline: string[] = [];
  const sampler = setInterval(() => {
    timeline.push(
      plans
        .slice(0, 3)
        .map((p) => servers.get(p)!.connections() + '/' + servers.get(p)!.rcpts.length)
        .join(' '),
    );
  }, 5000);
  type Status = { status: string; processed: number; credits_consumed: number };
  let statuses: Status[];
  for (;;) {
    statuses = await Promise.all(ids.map(async (id, i) => (await instances[i].get(`/email-validate/bulk/${id}`)).json<Status>()));
    if (statuses.every((s) => s.status === 'done' || s.status === 'failed')) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const status = { credits_consumed: statuses.reduce((sum, s) => sum + s.credits_consumed, 0) };
  const ms = performance.now() - started;
  clearInterval(sampler);
  clearInterval(usageSampler);
  for (const [plan, u] of [...usage].filter(([p], i) => i < 3 || process.env.BENCH_TIMELINE || p.greylisting))
    console.log(
      `  ${plan.name.padEnd(20)} first RCPT at ${fmt(u.first)} ms (${fmt(u.first - accepted)} ms after acceptance), last at ${fmt(u.last)} ms; ` +
        `while it had work: ${fmt(u.openSum / Math.max(1, u.samples))} connections open on average, all ${CONNECTIONS} open ${fmt((u.full / Math.max(1, u.samples)) * 100)}% of the time`,
    );
  if (process.env.BENCH_TIMELINE) {
    console.log(timeline.join('\n'));
    const perSecond = new Map<number, [number, number]>();
    for (const [at, again] of greyAsks) {
      const s = perSecond.get(Math.floor(at / 1000)) ?? [0, 0];
      s[again] += 1;
      perSecond.set(Math.floor(at / 1000), s);
    }
    console.log(
      `greylisting hosts asked, per second (first asks / asked again): ${[...perSecond].map(([s, [a, b]]) => `${s}s ${a}/${b}`).join(', ')}`,
    );
  }
  if (process.env.BENCH_TRACE) {
    for (const [name, list] of trace.calls) console.log(`  store ${name.padEnd(6)} ${quantiles(list)}`);
    console.log(`  slot given back → next holder: ${quantiles(trace.handoffs)}`);
    console.log(`  most slots held at once for one host, by the instances together: ${trace.peakHeld}`);
  }
  const cpu = process.cpuUsage(cpuAtStart);
  console.log(
    `benchmark process CPU ${fmt((cpu.user + cpu.system) / 1000)} ms (${fmt(((cpu.user + cpu.system) / 1000 / ms) * 100)}% of one core)`,
  );
  const rows: string[] = [];
  for (const [i, id] of ids.entries()) rows.push(...(await instances[i].get(`/email-validate/bulk/${id}/results`)).body.trim().split('\n'));
  let correct = 0;
  const wrong = new Map<string, number>();
  for (const line of rows) {
    const row = JSON.parse(line) as { email: string; email_status: string };
    const expected = truth.get(row.email);
    if (row.email_status === expected) correct += 1;
    else if (process.env.BENCH_TIMELINE)
      console.log(`wrong: ${row.email} ${expected}→${row.email_status} ${JSON.stringify(row).slice(0, 300)}`);
    if (row.email_status !== expected)
      wrong.set(`${expected}→${row.email_status}`, (wrong.get(`${expected}→${row.email_status}`) ?? 0) + 1);
  }
  const charged = [...truth.values()].filter((v) => v !== 'catch_all').length * 0.05;
  console.log(`completed in ${fmt(ms)} ms: ${ratio(ms, bound)} of the lower bound; ${fmt((N / ms) * 1000)} addresses/s`);
  console.log(
    `correct ${correct}/${N} (${rows.length} results)${wrong.size ? `; wrong: ${[...wrong].map(([k, v]) => `${k} ${v}`).join(', ')}` : ''}; ` +
      `credits ${status.credits_consumed} (truth: ${fmt(charged)})`,
  );
  for (const { plan, ms: hostBound } of bounds.slice(0, 3)) {
    console.log(
      `  ${plan.name.padEnd(20)} bound ${fmt(hostBound)} ms, ${servers.get(plan)!.transactions()} transactions, ${servers.get(plan)!.connections()} connections`,
    );
  }
  const peak = Math.max(...[...servers.values()].map((mx) => mx.peakConcurrent()));
  const over = plans
    .filter((p) => servers.get(p)!.peakConcurrent() > CONNECTIONS)
    .map((p) => `${p.name} ${servers.get(p)!.peakConcurrent()}`);
  console.log(
    `most connections open at once on any host: ${peak} (limit ${CONNECTIONS})${over.length ? `; over: ${over.join(', ')}` : ''}`,
  );
} finally {
  for (const other of others) await other.close();
  await t.close();
  await world.close();
}
