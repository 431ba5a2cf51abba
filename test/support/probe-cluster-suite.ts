// Probe limits shared by a cluster (docs/email.md, "Safety"), run by probe-limits-cluster-*.test.ts: real `leadbase serve` processes on
// one PostgreSQL database validate lists whose addresses all live on one strict mail host, and that
// host (a local fake that counts its open connections) never sees more connections at once than its
// limit, with the limits shared through Redis and through the database. The slots of a killed
// instance come free once their time to live passes; a Redis lost mid-run leaves each instance a
// share of the limit, and the limits are shared again once it returns (probe-limits-redis-loss.test.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { startMailWorld, type MailWorld } from './fake-smtp.ts';
import { until } from './until.ts';
import { ownDatabase, PG_SKIP, REDIS_SKIP, REDIS_URL } from './db.ts';
import { baseEnv, Cluster, strictHost } from './probe-cluster.ts';

const LIMIT = 2;
// Short enough for the test to wait it out, long beside a heartbeat on a busy machine.
const TTL_MS = 8000;

const backends = [
  { name: 'redis', skip: REDIS_SKIP, env: (ns: string) => ({ REDIS_URL, EMAIL_PROBE_LIMITS_NAMESPACE: ns }) },
  { name: 'database', skip: false as const, env: () => ({ REDIS_URL: '' }) },
];

/** The suite on one back end (one file each, so each stays within the runner's time per file). */
export function describeProbeCluster(name: 'redis' | 'database'): void {
  const backend = backends.find((b) => b.name === name)!;
  describe(
    `probe limits shared by serve processes on PostgreSQL, through ${backend.name}`,
    { skip: PG_SKIP || backend.skip, timeout: 400_000 },
    () => {
      let world: MailWorld;
      let database: Awaited<ReturnType<typeof ownDatabase>>;
      let cluster: Cluster;
      const namespace = `test-limits-${randomBytes(5).toString('hex')}`;
      let env: NodeJS.ProcessEnv;

      before(async () => {
        world = await startMailWorld();
        database = await ownDatabase();
        env = { ...baseEnv(world, database.url, LIMIT, TTL_MS), ...backend.env(namespace) };
        cluster = new Cluster(env);
        await cluster.start(3);
      });
      after(async () => {
        await cluster?.stop();
        await world?.close();
        await database?.drop();
      });

      it(`three processes validating lists at one strict host never hold more than its ${LIMIT} connections at once`, async (t) => {
        const host = await strictHost(world, 'strict', 60, 15);
        const lists = [0, 1, 2].map((i) => host.list(200, i * 200));
        const started = Date.now();
        const ids = await Promise.all(cluster.servers.map((server, i) => cluster.post(server, lists[i])));
        const views = await Promise.all(ids.map((id, i) => cluster.done(cluster.servers[i], id)));
        t.diagnostic(
          `${backend.name}: 600 addresses on 3 processes in ${Date.now() - started} ms; ${host.mx.connections()} connections, ` +
            `at most ${host.mx.peakConcurrent()} at once`,
        );
        for (const view of views) {
          assert.equal(view.processed, 200);
          assert.deepEqual([view.counts.valid, view.counts.invalid], [100, 100]);
        }
        assert.ok(host.mx.peakConcurrent() <= LIMIT, `at most ${LIMIT} at once, saw ${host.mx.peakConcurrent()}`);
        assert.ok(host.mx.peakConcurrent() >= 1);
      });

      it("frees a killed instance's connection slots once their time to live passes, and not before", async (t) => {
        // Every RCPT is answered 1.5 s late: the first instance's sessions are busy when it dies.
        const host = await strictHost(world, 'slow', 20, 1500);
        const [doomed, survivor] = cluster.servers;
        // Single-address requests: validated in the process they reach (a bulk job may be run by any instance).
        for (const email of host.list(8))
          void fetch(`${doomed.url}/email-validate`, {
            method: 'POST',
            headers: { 'x-api-key': cluster.key, 'content-type': 'application/json' },
            body: JSON.stringify({ email }),
          }).catch(() => {});
        await until(() => host.mx.concurrent() === LIMIT, 60_000, 20);
        const held = await heldSlots(backend.name, env, namespace, host.mxHost);
        assert.equal(held, LIMIT, 'the doomed instance holds both slots in the shared store');
        doomed.child.kill('SIGKILL');
        await doomed.exited;
        const killedAt = Date.now();
        const id = await cluster.post(survivor, host.list(6, 1000));
        await new Promise((r) => setTimeout(r, 2000));
        assert.equal(host.mx.concurrent(), 0, 'no connection while the dead slots are still live');
        assert.ok((await heldSlots(backend.name, env, namespace, host.mxHost)) >= 1, 'the dead slots are still honoured');
        await until(() => host.mx.concurrent() > 0, 60_000, 20);
        const freedAfter = Date.now() - killedAt;
        const view = await cluster.done(survivor, id);
        t.diagnostic(`${backend.name}: the survivor connected ${freedAfter} ms after the kill (time to live ${TTL_MS} ms)`);
        assert.equal(view.processed, 6);
        // Renewed at most a heartbeat (a quarter of the time to live) before the kill.
        assert.ok(freedAfter >= TTL_MS * 0.75 - 100, `waited for the slots to expire: ${freedAfter} ms`);
        assert.ok(host.mx.peakConcurrent() <= LIMIT, `at most ${LIMIT} at once, saw ${host.mx.peakConcurrent()}`);
      });
    },
  );
}

/** Slots held for `mxHost` in the shared store, as the store says. */
async function heldSlots(backend: string, env: NodeJS.ProcessEnv, namespace: string, mxHost: string): Promise<number> {
  const key = `conn|${mxHost}|default`;
  if (backend === 'redis') {
    const redis = new Redis(env.REDIS_URL!);
    try {
      return await redis.zcount(`${namespace}:probe:${key}:held`, Date.now() - 1000, '+inf');
    } finally {
      redis.disconnect();
    }
  }
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      "select count(*)::int as n from probe_leases where key = $1 and state = 'held' and expires_at > $2",
      [key, Date.now()],
    );
    return rows[0].n as number;
  } finally {
    await client.end();
  }
}
