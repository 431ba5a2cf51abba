// Probe limits shared by a cluster (docs/email.md, "Safety"): real `leadbase serve` processes on
// one PostgreSQL database validate lists whose addresses all live on one strict mail host, and that
// host (a local fake that counts its open connections) never sees more connections at once than its
// limit, with the limits shared through Redis and through the database. The slots of a killed
// instance come free once their time to live passes; a Redis lost mid-run leaves each instance a
// share of the limit, and the limits are shared again once it returns.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { Redis } from 'ioredis';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { mailWorldEnv, startMailWorld, type FakeMx, type MailWorld } from '../support/fake-smtp.ts';
import { until } from '../support/until.ts';
import { PG_SKIP, POSTGRES_URL, REDIS_SKIP, REDIS_URL } from '../support/db.ts';
import { freeLowPort } from '../support/pg-cluster.ts';
import { killOwnRedis, OWN_REDIS_SKIP, startOwnRedis } from '../support/redis-server.ts';
import type { BulkJobView } from '../../src/email/bulk.ts';

const LIMIT = 2;
const TTL_MS = 3000;

/** A PostgreSQL database of the test's own (the serve processes migrate it), dropped at the end. */
async function ownDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `leadbase_limits_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = Object.assign(new URL(POSTGRES_URL!), { pathname: `/${name}` }).toString();
  return {
    url,
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A strict host serving `domains` domains (mx.<name>): `v…` addresses exist, `x…` do not. */
async function strictHost(world: MailWorld, name: string, domains: number, tarpitMs: number) {
  const names = Array.from({ length: domains }, (_, i) => `d${i}.${name}.test`);
  const mxHost = `mx.${name}.test`;
  const mx = await world.domain(names[0], { mxHost, tarpitMs, mailboxes: Array.from({ length: 2000 }, (_, i) => `v${i}`) });
  for (const domain of names.slice(1)) world.dns.mx(domain, [{ exchange: mxHost, priority: 10 }]);
  const list = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => `${(offset + i) % 2 ? 'x' : 'v'}${offset + i}@${names[i % domains]}`);
  return { mx, mxHost, list };
}

class Cluster {
  servers: ServerProcess[] = [];
  key = '';
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async start(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const server = await startServerProcess(this.env);
      this.key ||= server.key ?? '';
      this.servers.push(server);
    }
    assert.ok(this.key, 'the first server printed a key');
  }

  async post(server: ServerProcess, emails: string[]): Promise<string> {
    const res = await fetch(`${server.url}/email-validate/bulk`, {
      method: 'POST',
      headers: { 'x-api-key': this.key, 'content-type': 'application/json' },
      body: JSON.stringify({ emails }),
    });
    assert.equal(res.status, 202, await res.clone().text());
    return ((await res.json()) as BulkJobView).id;
  }

  async status(server: ServerProcess, id: string): Promise<BulkJobView> {
    return (await (await fetch(`${server.url}/email-validate/bulk/${id}`, { headers: { 'x-api-key': this.key } })).json()) as BulkJobView;
  }

  async done(server: ServerProcess, id: string, ms = 180_000): Promise<BulkJobView> {
    await until(async () => (await this.status(server, id)).status === 'done', ms, 250);
    return this.status(server, id);
  }

  async stop(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.stop()));
    this.servers = [];
  }
}

const baseEnv = (world: MailWorld, databaseUrl: string): NodeJS.ProcessEnv => ({
  DATABASE_URL: databaseUrl,
  ...mailWorldEnv(world),
  EMAIL_MAX_SESSIONS_PER_MX_HOST: String(LIMIT),
  EMAIL_PROBE_LEASE_TTL_MS: String(TTL_MS),
  EMAIL_DOMAIN_SESSIONS_PER_MINUTE: '100000',
  EMAIL_RECHECK_POLL_MS: '600000',
  STARTER_CREDITS: '1000',
  CRAWL_ENABLED: '0',
});

const backends = [
  { name: 'redis', skip: REDIS_SKIP, env: (ns: string) => ({ REDIS_URL, EMAIL_PROBE_LIMITS_NAMESPACE: ns }) },
  { name: 'database', skip: false as const, env: () => ({ REDIS_URL: '' }) },
];

for (const backend of backends) {
  describe(`probe limits shared by serve processes on PostgreSQL, through ${backend.name}`, { skip: PG_SKIP || backend.skip, timeout: 400_000 }, () => {
    let world: MailWorld;
    let database: Awaited<ReturnType<typeof ownDatabase>>;
    let cluster: Cluster;
    const namespace = `test-limits-${randomBytes(5).toString('hex')}`;
    let env: NodeJS.ProcessEnv;

    before(async () => {
      world = await startMailWorld();
      database = await ownDatabase();
      env = { ...baseEnv(world, database.url), ...backend.env(namespace) };
    });
    after(async () => {
      await cluster?.stop();
      await world?.close();
      await database?.drop();
    });

    it(`three processes validating lists at one strict host never hold more than its ${LIMIT} connections at once`, async (t) => {
      const host = await strictHost(world, 'strict', 60, 15);
      cluster = new Cluster(env);
      await cluster.start(3);
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
      await cluster.stop();
    });

    it("frees a killed instance's connection slots once their time to live passes, and not before", async (t) => {
      // Every RCPT is answered 1.5 s late: the first instance's sessions are busy when it dies.
      const host = await strictHost(world, 'slow', 20, 1500);
      cluster = new Cluster(env);
      await cluster.start(2);
      const [doomed, survivor] = cluster.servers;
      await cluster.post(doomed, host.list(40));
      await until(() => host.mx.concurrent() === LIMIT, 60_000, 20);
      const held = await heldSlots(backend.name, env, namespace, host.mxHost);
      assert.equal(held, LIMIT, 'the doomed instance holds both slots in the shared store');
      doomed.child.kill('SIGKILL');
      await doomed.exited;
      const killedAt = Date.now();
      const id = await cluster.post(survivor, host.list(6, 1000));
      await new Promise((r) => setTimeout(r, 1000));
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
      await cluster.stop();
    });
  });
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
    const { rows } = await client.query("select count(*)::int as n from probe_leases where key = $1 and state = 'held' and expires_at > $2", [
      key,
      Date.now(),
    ]);
    return rows[0].n as number;
  } finally {
    await client.end();
  }
}

describe('probe limits when Redis is lost mid-run and comes back', { skip: PG_SKIP || OWN_REDIS_SKIP, timeout: 400_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-limits-redis-'));
  let world: MailWorld;
  let database: Awaited<ReturnType<typeof ownDatabase>>;
  let redis: ChildProcess;
  let port: number;
  let cluster: Cluster;
  const limit = 4;

  before(async () => {
    world = await startMailWorld();
    database = await ownDatabase();
    port = await freeLowPort();
    redis = await startOwnRedis(port, dir);
  });
  after(async () => {
    await cluster?.stop();
    if (redis) await killOwnRedis(redis);
    await world?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('falls back to a per-instance share without wedging, and shares again once Redis returns', async (t) => {
    const host: { mx: FakeMx; list: (n: number, offset?: number) => string[] } = await strictHost(world, 'lossy', 40, 60);
    cluster = new Cluster({
      ...baseEnv(world, database.url),
      EMAIL_MAX_SESSIONS_PER_MX_HOST: String(limit),
      REDIS_URL: `redis://127.0.0.1:${port}`,
    });
    await cluster.start(2);
    const ids = await Promise.all(cluster.servers.map((server, i) => cluster.post(server, host.list(300, i * 300))));
    await until(() => host.mx.concurrent() > 0, 60_000, 20);
    await new Promise((r) => setTimeout(r, 1500));
    await killOwnRedis(redis);
    // Past the fall-back: what both hold now is each one's share at most (two of four).
    await new Promise((r) => setTimeout(r, 3000));
    host.mx.resetPeak();
    await new Promise((r) => setTimeout(r, 3000));
    const peakWithout = host.mx.peakConcurrent();
    redis = await startOwnRedis(port, dir);
    const client = new Redis(`redis://127.0.0.1:${port}`);
    try {
      // Both instances say they are alive again and their slots are back in the store.
      await until(async () => (await client.zcard('leadbase:probe:instances')) === 2, 20_000, 100);
    } finally {
      client.disconnect();
    }
    const views = await Promise.all(ids.map((id, i) => cluster.done(cluster.servers[i], id)));
    t.diagnostic(`without Redis: at most ${peakWithout} connections at once; overall at most ${host.mx.peakConcurrent()}`);
    for (const view of views) {
      assert.equal(view.processed, 300);
      assert.deepEqual([view.counts.valid, view.counts.invalid], [150, 150]);
    }
    assert.ok(peakWithout <= limit, `without Redis, shares of ${limit / 2} each: saw ${peakWithout}`);
    assert.ok(host.mx.peakConcurrent() <= limit, `at most ${limit} at once, saw ${host.mx.peakConcurrent()}`);
    for (const server of cluster.servers) assert.match(server.output(), /probe limits: the shared store is unreachable/);
  });
});
