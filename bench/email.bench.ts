// Email validation throughput and correctness against a local fleet of simulated MX domains
// (bench/support/mx-fleet.ts: 100 domains, 20 ms per reply, port 25 of 127.0.0.2…), at a
// concurrency of 50: leadbase's engine cold and with warm domain caches, and deep-email-validator
// on the same workload in the same run as the baseline.
//   npm run bench -- email [-- --quick] [-- --polite] [-- --rounds=N]
// --rounds=N repeats the four passes N times in the same process (caches cleared before each
// round; the first round is the default run) and reports each round and the median ratios: later
// rounds show the engine with its code optimised by the JIT, as in a server that has been running.
import { fork } from 'node:child_process';
import dns from 'node:dns';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate as deepValidate } from 'deep-email-validator';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createEmailValidationService } from '../src/email/service.ts';
import { fleetDomains, mailboxExists, type DomainKind, type FleetDomain } from './support/mx-fleet.ts';
import { fmt, ratio, summarize } from './support/stats.ts';

const quick = process.argv.includes('--quick');
const DOMAINS = 100;
const LATENCY_MS = 20;
const CONCURRENCY = 50;
const PER_DOMAIN = quick ? 4 : 10;
const ROUNDS = Math.max(1, Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice('--rounds='.length) ?? 1) || 1);

type Status = 'valid' | 'valid_catch_all' | 'catch_all' | 'unknown' | 'invalid';
const STATUSES: Status[] = ['valid', 'valid_catch_all', 'catch_all', 'unknown', 'invalid'];

interface Item {
  email: string;
  truth: Status;
}

function truthOf(kind: DomainKind, local: string): Status {
  if (kind === 'catch-all') return 'catch_all';
  if (kind === 'blocklist' || kind === 'greylist') return 'unknown';
  return mailboxExists(local) ? 'valid' : 'invalid';
}

/** Addresses user<from>…user<from+n-1> on every domain, interleaved by domain as a mixed list is. */
function workload(domains: FleetDomain[], from: number, n: number): Item[] {
  const items: Item[] = [];
  for (let u = from; u < from + n; u += 1) {
    for (const d of domains) items.push({ email: `user${u}@${d.domain}`, truth: truthOf(d.kind, `user${u}`) });
  }
  return items;
}

interface RunResult {
  elapsedMs: number;
  /** CPU time of this process (the verifier under test; the fleet is another process). */
  cpuMs: number;
  latencies: number[];
  predicted: Status[];
}

async function runPool(items: Item[], concurrency: number, fn: (email: string) => Promise<Status>): Promise<RunResult> {
  const predicted: Status[] = new Array(items.length);
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        const t0 = performance.now();
        predicted[i] = await fn(items[i].email);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return { elapsedMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000, latencies, predicted };
}

function confusion(items: Item[], predicted: Status[]) {
  const table = new Map<string, number>();
  let correct = 0;
  items.forEach((item, i) => {
    const key = `${item.truth}|${predicted[i]}`;
    table.set(key, (table.get(key) ?? 0) + 1);
    if (item.truth === predicted[i]) correct += 1;
  });
  const truths = STATUSES.filter((s) => items.some((i) => i.truth === s));
  const lines = [`| truth \\ answer | ${STATUSES.join(' | ')} |`, `|---|${STATUSES.map(() => '---:').join('|')}|`];
  for (const t of truths) lines.push(`| ${t} | ${STATUSES.map((p) => table.get(`${t}|${p}`) ?? 0).join(' | ')} |`);
  return { correct, accuracy: correct / items.length, markdown: lines.join('\n') };
}

/** deep-email-validator's answer in our terms: it has no catch-all or unknown notion of its own. */
function baselineStatus(result: Awaited<ReturnType<typeof deepValidate>>): Status {
  if (result.valid) return 'valid';
  if (result.reason === 'smtp') {
    const reason = result.validators.smtp?.reason ?? '';
    return reason === 'Mailbox not found.' ? 'invalid' : 'unknown';
  }
  if (result.reason === 'mx' || result.reason === 'regex') return 'invalid';
  return 'unknown';
}

function report(label: string, items: Item[], run: RunResult) {
  const rate = (items.length / run.elapsedMs) * 1000;
  const lat = summarize(run.latencies);
  const c = confusion(items, run.predicted);
  console.log(
    `${label.padEnd(34)} ${fmt(rate, 1).padStart(8)} validations/s   p50 ${fmt(lat.p50, 1)} ms   p95 ${fmt(lat.p95, 1)} ms   cpu ${fmt(run.cpuMs / items.length, 3)} ms/validation   correct ${c.correct}/${items.length} (${fmt(c.accuracy * 100, 1)}%)`,
  );
  return { rate, confusion: c };
}

async function main(): Promise<void> {
  const fleet = fork(join(import.meta.dirname, 'support', 'mx-fleet.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, FLEET_DOMAINS: String(DOMAINS), FLEET_LATENCY_MS: String(LATENCY_MS), FLEET_PORT: '25' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ dns: string; domains: FleetDomain[] }>((resolve, reject) => {
    fleet.once('message', (m) => resolve(m as { dns: string; domains: FleetDomain[] }));
    fleet.once('exit', (code) =>
      reject(new Error(`the MX fleet exited (${code}); it needs port 25 on 127.0.0.2…, i.e. root or CAP_NET_BIND_SERVICE`)),
    );
  });
  const resetGreylist = () => fleet.send({ resetGreylist: true });
  // The baseline resolves MX records with node's global resolver.
  dns.setServers([ready.dns]);

  const domains = fleetDomains(DOMAINS);
  const coldSet = workload(domains, 0, PER_DOMAIN);
  const warmSet = workload(domains, PER_DOMAIN, PER_DOMAIN);
  const kinds = domains.reduce<Record<string, number>>((acc, d) => ((acc[d.kind] = (acc[d.kind] ?? 0) + 1), acc), {});
  console.log(
    `fleet: ${DOMAINS} domains (${Object.entries(kinds)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ')}), ${LATENCY_MS} ms per reply, port 25 on 127.0.0.2-${DOMAINS + 1}`,
  );
  console.log(`workload: ${coldSet.length} addresses per pass (${PER_DOMAIN} per domain, interleaved), concurrency ${CONCURRENCY}`);
  console.log(
    `per-domain politeness: ${process.argv.includes('--polite') ? 'production default (300 new transactions/min per domain)' : 'raised to 60000/min for the fleet (--polite keeps the default)'}\n`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'leadbase-email-bench-'));
  const handle = openDatabase(`sqlite:${join(dir, 'bench.sqlite')}`);
  await migrateToLatest(handle.db);
  const service = createEmailValidationService({
    db: handle.db,
    dialect: handle.dialect,
    config: {
      dnsServers: [ready.dns],
      smtpPort: 25,
      allowPrivateMx: true, // the fleet is on loopback
      heloName: 'bench.leadbase.test',
      mailFrom: 'verify@bench.leadbase.test',
      greylistRecheckMs: 0,
      // The fleet is 100 domains at ~10 validations/s each, above the production default per-domain
      // politeness (300 sessions/min); --polite keeps the default to show its cost.
      ...(process.argv.includes('--polite') ? {} : { domainSessionsPerMinute: 60_000 }),
    },
    recheckWorker: false,
  });
  const ours = async (email: string) => (await service.validate({ email })).email_status;
  const baseline = async (email: string) =>
    baselineStatus(
      await deepValidate({
        email,
        sender: 'verify@bench.leadbase.test',
        validateRegex: true,
        validateMx: true,
        validateTypo: false,
        validateDisposable: false,
        validateSMTP: true,
      }),
    );

  try {
    // Warm-up of both code paths (JIT), on addresses outside the measured sets.
    resetGreylist();
    await runPool(workload(domains.slice(0, 5), 900, 1), 5, ours);
    await runPool(workload(domains.slice(0, 5), 900, 1), 5, baseline);
    service.clearCaches();

    const rounds: {
      oursCold: ReturnType<typeof report>;
      oursWarm: ReturnType<typeof report>;
      baseCold: ReturnType<typeof report>;
      baseWarm: ReturnType<typeof report>;
    }[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      if (ROUNDS > 1) console.log(`${round > 1 ? '\n' : ''}round ${round} of ${ROUNDS}`);
      if (round > 1) service.clearCaches();
      resetGreylist();
      const oursCold = report('leadbase, cold caches', coldSet, await runPool(coldSet, CONCURRENCY, ours));
      resetGreylist();
      const oursWarm = report('leadbase, warm domain caches', warmSet, await runPool(warmSet, CONCURRENCY, ours));
      resetGreylist();
      const baseCold = report('deep-email-validator (same set)', coldSet, await runPool(coldSet, CONCURRENCY, baseline));
      resetGreylist();
      const baseWarm = report('deep-email-validator (warm set)', warmSet, await runPool(warmSet, CONCURRENCY, baseline));
      console.log(
        `throughput ratio vs deep-email-validator: cold ${ratio(oursCold.rate, baseCold.rate)}, warm ${ratio(oursWarm.rate, baseWarm.rate)}`,
      );
      rounds.push({ oursCold, oursWarm, baseCold, baseWarm });
    }
    if (ROUNDS > 1) {
      const median = (values: number[]) => {
        const sorted = [...values].sort((a, b) => a - b);
        const mid = sorted.length / 2;
        return Number.isInteger(mid) ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[Math.floor(mid)];
      };
      const coldRatios = rounds.map((r) => r.oursCold.rate / r.baseCold.rate);
      const warmRatios = rounds.map((r) => r.oursWarm.rate / r.baseWarm.rate);
      console.log(`\nratios by round: cold ${coldRatios.map((v) => fmt(v)).join(', ')}; warm ${warmRatios.map((v) => fmt(v)).join(', ')}`);
      console.log(
        `median ratio of ${ROUNDS} rounds: cold ${fmt(median(coldRatios))}x, warm ${fmt(median(warmRatios))}x; after the first round: cold ${fmt(median(coldRatios.slice(1)))}x, warm ${fmt(median(warmRatios.slice(1)))}x`,
      );
    }
    const { oursCold, oursWarm, baseCold, baseWarm } = rounds[0];
    if (ROUNDS > 1) console.log('\nconfusion tables of round 1 (the correct counts of every round are above)');
    console.log(`\nleadbase, cold — confusion (rows: fleet truth, columns: answer):\n${oursCold.confusion.markdown}`);
    console.log(`\nleadbase, warm:\n${oursWarm.confusion.markdown}`);
    console.log(`\ndeep-email-validator, cold set:\n${baseCold.confusion.markdown}`);
    console.log(`\ndeep-email-validator, warm set:\n${baseWarm.confusion.markdown}`);
  } finally {
    await service.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
    fleet.kill();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
