// How fast a connection slot passes between instances sharing the probe limits (docs/email.md,
// "Safety"): instances (SharedProbeLimits, as many processes would have) each run workers that take a
// slot of one host, hold it a while (a session) and give it back, through a limit that keeps them
// waiting. Ideal: holds × hold time / limit. Each hand-off's delay (a slot given back to the next
// holder served) adds to that.
//   npm run bench -- probe-handoff                      Redis (REDIS_URL) and the database (SQLite; PostgreSQL with DATABASE_URL)
//   npm run bench -- probe-handoff --holds=400 --hold-ms=20 --instances=2 --limit=5 --workers=20
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { DatabaseLeaseStore } from '../src/email/lease-store-db.ts';
import { RedisLeaseStore } from '../src/email/lease-store-redis.ts';
import { SharedProbeLimits, type LeaseStore } from '../src/email/shared-limits.ts';
import { openPostgres, openSqlite } from '../test/support/db.ts';
import { fmt, ratio } from './support/stats.ts';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const HOLDS = arg('holds', 400);
const HOLD_MS = arg('hold-ms', 20);
const INSTANCES = arg('instances', 2);
const LIMIT = arg('limit', 5);
const WORKERS = arg('workers', 20);

async function run(name: string, store: () => LeaseStore): Promise<void> {
  const instances = Array.from(
    { length: INSTANCES },
    () =>
      new SharedProbeLimits({
        hostConnections: LIMIT,
        domainSessionsPerMinute: 1e6,
        hostRcptsPerMinute: 0,
        store: store(),
        leaseTtlMs: 10_000,
      }),
  );
  // Pushed grants need the subscription in place, as in a running server.
  await new Promise((r) => setTimeout(r, 300));
  const host = `mx.handoff-${randomBytes(3).toString('hex')}.test`;
  let left = HOLDS;
  let holding = 0;
  let peak = 0;
  /** When the last slot was given back while others waited: the next grant's delay is measured from there. */
  const freedAt: number[] = [];
  const delays: number[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    instances.flatMap((limits) =>
      Array.from({ length: WORKERS }, async () => {
        while (left > 0) {
          left -= 1;
          const release = await limits.acquire(host);
          const at = freedAt.shift();
          if (at !== undefined) delays.push(performance.now() - at);
          holding += 1;
          peak = Math.max(peak, holding);
          await new Promise((r) => setTimeout(r, HOLD_MS));
          holding -= 1;
          if (left > 0) freedAt.push(performance.now());
          release();
        }
      }),
    ),
  );
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await Promise.all(instances.map((l) => l.close()));
  const ideal = (HOLDS * HOLD_MS) / LIMIT;
  delays.sort((a, b) => a - b);
  const at = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? 0;
  console.log(
    `${name.padEnd(22)} ${fmt(ms)} ms (ideal ${fmt(ideal)} ms, ${ratio(ms, ideal)}); hand-off from a slot given back to the next holder: ` +
      `median ${fmt(at(0.5))} ms, p90 ${fmt(at(0.9))} ms; at most ${peak} held at once (limit ${LIMIT}); CPU ${fmt((used.user + used.system) / 1000)} ms`,
  );
  if (peak > LIMIT) throw new Error(`the limit did not hold: ${peak} at once`);
}

console.log(`probe hand-off: ${HOLDS} holds of ${HOLD_MS} ms, ${INSTANCES} instances × ${WORKERS} workers, limit ${LIMIT}`);
if (process.env.REDIS_URL) {
  const redis = new Redis(process.env.REDIS_URL, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  await redis.connect();
  await run('redis', () => new RedisLeaseStore(redis, `bench-handoff-${process.pid}`));
  redis.disconnect();
}
const database = process.env.DATABASE_URL?.startsWith('postgres') ? await openPostgres() : await openSqlite();
await run(`database (${database.dialect})`, () => new DatabaseLeaseStore(database.db, database.dialect));
await database.destroy();
