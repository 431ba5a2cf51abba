// Probe limits when the shared store comes back empty and the instances reach it at different
// times (docs/email.md, "Safety"). Two SharedProbeLimits share a real Redis, each through a proxy of
// its own that can drop its connections; the store's keys are deleted while both are cut off, as a
// Redis restarted without its data. The instance that reaches the store first must go on counting
// its share until the other has put back what it holds: before, it shared again one time to live
// after its return, and the store then handed out slots the other still held (6 at a limit of 4 was
// seen on a busy machine, where the other's return came later).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { RedisLeaseStore } from '../../src/email/lease-store-redis.ts';
import { SharedProbeLimits } from '../../src/email/shared-limits.ts';
import { limitKey } from '../../src/email/probe-limits.ts';
import { REDIS_SKIP, REDIS_URL } from '../support/db.ts';
import { startStallingProxy, type StallingProxy } from '../support/stalling-proxy.ts';
import { until } from '../support/until.ts';

const TTL_MS = 1000;
const settings = { hostConnections: 2, domainSessionsPerMinute: 600, hostRcptsPerMinute: 600 };

interface Instance {
  limits: SharedProbeLimits;
  proxy: StallingProxy;
  redis: Redis;
  logged: () => string[];
}

describe('probe limits rejoining a store that came back empty', { skip: REDIS_SKIP, timeout: 120_000 }, () => {
  let direct: Redis;
  const opened: Instance[] = [];

  before(async () => {
    direct = new Redis(REDIS_URL!);
  });
  after(async () => {
    for (const instance of opened) {
      await instance.limits.close();
      instance.redis.disconnect();
      await instance.proxy.close();
    }
    direct.disconnect();
  });

  async function instance(namespace: string): Promise<Instance> {
    const url = new URL(REDIS_URL!);
    const proxy = await startStallingProxy({ host: url.hostname, port: Number(url.port || 6379) });
    const redis = new Redis({
      host: '127.0.0.1',
      port: proxy.port,
      db: Number(url.pathname.slice(1) || 0),
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    });
    redis.on('error', () => {});
    await until(() => redis.status === 'ready', 10_000);
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line).msg) });
    const limits = new SharedProbeLimits({ ...settings, store: new RedisLeaseStore(redis, namespace), leaseTtlMs: TTL_MS, logger });
    const made = { limits, proxy, redis, logged: () => lines };
    opened.push(made);
    return made;
  }

  const says = (instance: Instance, pattern: RegExp) => instance.logged().some((line) => pattern.test(line));
  const LOST = /shared store is unreachable/;
  const SHARED = /shared store answers again/;

  /** Two instances holding a slot each of a host's two, both cut off, and the store emptied. */
  async function lostWithSlotsHeld() {
    const namespace = `test-rejoin-${randomBytes(5).toString('hex')}`;
    const [a, b] = [await instance(namespace), await instance(namespace)];
    const host = `mx.rejoin-${randomBytes(3).toString('hex')}.test`;
    const instances = `${namespace}:probe:instances`;
    await until(async () => (await direct.zcard(instances)) === 2, 10_000);
    // Both have counted two alive (several beats): their share while cut off is one slot each.
    await new Promise((r) => setTimeout(r, 3 * (TTL_MS / 4)));
    const held = [await a.limits.acquire(host), await b.limits.acquire(host)];
    a.proxy.drop();
    b.proxy.drop();
    await until(() => says(a, LOST) && says(b, LOST), 10_000);
    // Redis restarted without its data.
    const keys = await direct.keys(`${namespace}:*`);
    if (keys.length) await direct.del(...keys);
    return { a, b, host, namespace, instances, held };
  }

  it('goes on counting its share until the other instance has put its slots back', async () => {
    const { a, b, host, namespace, instances, held } = await lostWithSlotsHeld();
    a.proxy.heal();
    await until(async () => (await direct.zcard(instances)) === 1, 10_000);
    // Three times to live after the return: the fixed wait once ended here, long before the other came back.
    const stopAt = Date.now() + 3 * TTL_MS;
    let checks = 0;
    while (Date.now() < stopAt) {
      assert.equal(await a.limits.tryAcquire(host), null, 'the other instance still holds the second slot');
      checks += 1;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(checks > 10, `asked for a slot ${checks} times`);
    assert.ok(!says(a, SHARED), 'not shared again while the other instance is silent');
    b.proxy.heal();
    await until(() => says(a, SHARED) && says(b, SHARED), 20_000);
    // Both slots are in the store again: none free until one is given back.
    assert.equal(await a.limits.tryAcquire(host), null);
    assert.equal(await direct.zcard(`${namespace}:probe:${limitKey.connections(host)}:held`), 2, 'both slots held in the store');
    held[1]();
    const next = await a.limits.acquire(host, AbortSignal.timeout(10_000));
    next();
    held[0]();
  });

  it('takes an instance silent long after the return for gone, and shares again', async () => {
    const { a, b, instances, held } = await lostWithSlotsHeld();
    // Stopped while the store was away (a process gone holds no connection).
    await b.limits.close();
    a.proxy.heal();
    await until(async () => (await direct.zcard(instances)) === 1, 10_000);
    const returned = Date.now();
    await until(() => says(a, SHARED), 30_000);
    const waited = Date.now() - returned;
    assert.ok(waited >= 4 * TTL_MS, `shared again only after the other had been silent a while (${waited} ms)`);
    for (const release of held) release();
  });
});
