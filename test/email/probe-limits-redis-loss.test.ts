// Probe limits when Redis is lost mid-run (docs/email.md, "Safety"): two `leadbase serve` processes
// on one PostgreSQL database share limits through a redis-server of the test's own, which is killed
// while they validate lists at one strict mail host. Each goes on with its share of the host's
// limit (the limit over the instances it last saw), the host never sees more than the limit, and
// once Redis is back both register again and the lists end with every answer right.
//
// Right after the loss an instance opens nothing for one slot time to live, so that sessions another
// instance held beyond its share end first: the test's time to live is several times a session's
// length here (a dozen RCPTs at the host's 100 ms each), so that a busy machine's slower sessions
// still end within it. The peak is measured from the end of that wait, old sessions still open included.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { until } from '../support/until.ts';
import { ownDatabase, PG_SKIP } from '../support/db.ts';
import { freeLowPort } from '../support/pg-cluster.ts';
import { killOwnRedis, OWN_REDIS_SKIP, startOwnRedis } from '../support/redis-server.ts';
import { baseEnv, Cluster, strictHost } from '../support/probe-cluster.ts';

const LIMIT = 4;
const TTL_MS = 6000;

describe('probe limits when Redis is lost mid-run and comes back', { skip: PG_SKIP || OWN_REDIS_SKIP, timeout: 400_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-limits-redis-'));
  let world: MailWorld;
  let database: Awaited<ReturnType<typeof ownDatabase>>;
  let redis: ChildProcess;
  let port: number;
  let cluster: Cluster | undefined;

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
    const host = await strictHost(world, 'lossy', 40, 100);
    const running = (cluster = new Cluster({ ...baseEnv(world, database.url, LIMIT, TTL_MS), REDIS_URL: `redis://127.0.0.1:${port}` }));
    await running.start(2);
    const ids = await Promise.all(running.servers.map((server, i) => running.post(server, host.list(400, i * 400))));
    await until(() => host.mx.concurrent() > 0, 60_000, 20);
    await new Promise((r) => setTimeout(r, 1500));
    await killOwnRedis(redis);
    // Past the fall-back's wait, what each holds is its share at most (two of four): measured from here.
    await new Promise((r) => setTimeout(r, TTL_MS));
    host.mx.resetPeak();
    await new Promise((r) => setTimeout(r, 3000));
    const peakWithout = host.mx.peakConcurrent();
    const stillRunning = host.mx.concurrent();
    redis = await startOwnRedis(port, dir);
    const client = new Redis(`redis://127.0.0.1:${port}`);
    try {
      // Both instances say they are alive again, and their slots are back in the store.
      await until(async () => (await client.zcard('leadbase:probe:instances')) === 2, 20_000, 100);
    } finally {
      client.disconnect();
    }
    const views = await Promise.all(ids.map((id, i) => running.done(running.servers[i], id)));
    t.diagnostic(
      `without Redis: at most ${peakWithout} connections at once (${stillRunning} open when it returned); overall at most ${host.mx.peakConcurrent()}`,
    );
    for (const view of views) {
      assert.equal(view.processed, 400);
      assert.deepEqual([view.counts.valid, view.counts.invalid], [200, 200]);
    }
    assert.ok(stillRunning > 0, 'the lists were still being validated while Redis was away');
    assert.ok(peakWithout <= LIMIT, `without Redis, shares of ${LIMIT / 2} each: saw ${peakWithout}`);
    assert.ok(host.mx.peakConcurrent() <= LIMIT, `at most ${LIMIT} at once, saw ${host.mx.peakConcurrent()}`);
    for (const server of running.servers) assert.match(server.output(), /probe limits: the shared store is unreachable/);
  });
});
