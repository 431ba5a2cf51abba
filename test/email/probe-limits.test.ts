// Probe limits shared by instances, on the real stores: two SharedProbeLimits on one database (SQLite,
// and PostgreSQL when DATABASE_URL is set) or one Redis (when REDIS_URL is set) stand for two
// processes. A slot is never held by more than the limit, waiters are served in arrival order
// whichever instance they wait in, a slot whose instance stopped renewing it comes free after its
// time to live, and the per-minute budgets are one for both.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { DatabaseLeaseStore } from '../../src/email/lease-store-db.ts';
import { RedisLeaseStore } from '../../src/email/lease-store-redis.ts';
import { SharedProbeLimits, type LeaseStore } from '../../src/email/shared-limits.ts';
import type { SlotRelease } from '../../src/email/probe-limits.ts';
import { DeadlineError } from '../../src/email/politeness.ts';
import { dbTargets, REDIS_SKIP, REDIS_URL } from '../support/db.ts';
import { until } from '../support/until.ts';

interface Backend {
  name: string;
  skip: false | string;
  open(): Promise<{ store: () => LeaseStore; close(): Promise<void> }>;
}

const backends: Backend[] = [
  ...dbTargets.map((target) => ({
    name: `database (${target.name})`,
    skip: target.skip,
    async open() {
      const database = await target.open();
      return { store: () => new DatabaseLeaseStore(database.db, database.dialect), close: () => database.destroy() };
    },
  })),
  {
    name: 'redis',
    skip: REDIS_SKIP,
    async open() {
      const redis = new Redis(REDIS_URL!, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      await redis.connect();
      const namespace = `test-limits-${randomBytes(5).toString('hex')}`;
      return { store: () => new RedisLeaseStore(redis, namespace), close: async () => redis.disconnect() };
    },
  },
];

// Two connections per host; budgets of 60 a minute: a burst of 6, then one a second.
const settings = { hostConnections: 2, domainSessionsPerMinute: 60, hostRcptsPerMinute: 60 };

for (const backend of backends) {
  describe(`shared probe limits: ${backend.name}`, { skip: backend.skip, timeout: 60_000 }, () => {
    let opened: Awaited<ReturnType<Backend['open']>>;
    const made: SharedProbeLimits[] = [];
    const limits = (leaseTtlMs = 10_000) => {
      const l = new SharedProbeLimits({ ...settings, store: opened.store(), leaseTtlMs });
      made.push(l);
      return l;
    };
    before(async () => {
      opened = await backend.open();
    });
    after(async () => {
      await Promise.all(made.map((l) => l.close()));
      await opened.close();
    });

    it('holds no more than the limit across instances and serves waiters in arrival order', async () => {
      const [a, b] = [limits(), limits()];
      const host = `mx.order-${randomBytes(3).toString('hex')}.test`;
      const first = await a.acquire(host);
      const second = await b.acquire(host);
      assert.equal(await a.tryAcquire(host), null, 'full: no slot without waiting');
      const served: string[] = [];
      const wait = (who: SharedProbeLimits, name: string) =>
        who.acquire(host).then((release) => {
          served.push(name);
          return release;
        });
      const w1 = wait(b, 'b1');
      await new Promise((r) => setTimeout(r, 150));
      const w2 = wait(a, 'a2');
      await new Promise((r) => setTimeout(r, 150));
      const w3 = wait(b, 'b3');
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(served, [], 'nobody is served while both slots are held');
      assert.equal(await b.tryAcquire(host), null, 'a free-slot check never jumps the line');
      first();
      const r1 = await w1;
      assert.deepEqual(served, ['b1']);
      second();
      const r2 = await w2;
      assert.deepEqual(served, ['b1', 'a2'], 'the earlier waiter of the other instance went first');
      r1();
      const r3 = await w3;
      assert.deepEqual(served, ['b1', 'a2', 'b3']);
      r2();
      r3();
    });

    it('gives a waiter up at its deadline without losing its place to a slot', async () => {
      const [a, b] = [limits(), limits()];
      const host = `mx.deadline-${randomBytes(3).toString('hex')}.test`;
      const held = [await a.acquire(host), await a.acquire(host)];
      await assert.rejects(b.acquire(host, AbortSignal.timeout(300)), DeadlineError);
      const next = b.acquire(host);
      held[0]();
      (await next)();
      held[1]();
      // Both slots free again: taken at once.
      const again = [await b.acquire(host, AbortSignal.timeout(5000)), await a.acquire(host, AbortSignal.timeout(5000))];
      for (const release of again) release();
    });

    it('never holds more than the limit while three instances wait, check for free slots and give up at deadlines', async () => {
      const instances = [limits(), limits(), limits()];
      const host = `mx.churn-${randomBytes(3).toString('hex')}.test`;
      let holding = 0;
      let peak = 0;
      let held = 0;
      const stopAt = Date.now() + 3000;
      await Promise.all(
        instances.flatMap((l) =>
          Array.from({ length: 8 }, async () => {
            while (Date.now() < stopAt) {
              let release: SlotRelease | null;
              try {
                if (Math.random() < 0.2) release = await l.tryAcquire(host);
                else release = await l.acquire(host, AbortSignal.timeout(Math.random() < 0.3 ? Math.random() * 30 : 10_000));
              } catch {
                continue; // a deadline passed
              }
              if (!release) continue;
              holding += 1;
              held += 1;
              peak = Math.max(peak, holding);
              await new Promise((r) => setTimeout(r, Math.random() * 10));
              holding -= 1;
              release();
            }
          }),
        ),
      );
      assert.ok(held > 20, `slots were passed around (${held})`);
      assert.ok(peak <= settings.hostConnections, `at most ${settings.hostConnections} at once, saw ${peak}`);
    });

    it('frees the slots of an instance that stopped renewing them once their time to live passed', async () => {
      const host = `mx.crash-${randomBytes(3).toString('hex')}.test`;
      const dead = limits(1500);
      const held: SlotRelease[] = [await dead.acquire(host), await dead.acquire(host)];
      // Stops its heartbeat without giving anything back, as a killed process does.
      await dead.close();
      const live = limits(1500);
      const started = Date.now();
      const release = await live.acquire(host, AbortSignal.timeout(20_000));
      const waited = Date.now() - started;
      assert.ok(waited >= 500, `waited for the dead instance's slots to expire (${waited} ms)`);
      release();
      void held;
    });

    it('shares the per-minute budgets', async () => {
      const [a, b] = [limits(), limits()];
      const domain = `budget-${randomBytes(3).toString('hex')}.test`;
      // Buckets of each instance's own would take all 9 at once; one shared bucket holds 6, then one a second.
      let started = Date.now();
      for (let i = 0; i < 9; i++) await (i % 2 ? b : a).takeSession(domain);
      let elapsed = Date.now() - started;
      assert.ok(elapsed >= 2500, `sessions: 9 taken from one bucket of 6 refilled at 1/s in ${elapsed} ms`);
      started = Date.now();
      await a.takeRcpts(`mx.${domain}`, 4);
      await b.takeRcpts(`mx.${domain}`, 4);
      elapsed = Date.now() - started;
      assert.ok(elapsed >= 1500, `RCPTs: 8 taken from one bucket of 6 refilled at 1/s in ${elapsed} ms`);
    });

    it('counts every instance alive', async () => {
      const [a, b] = [limits(), limits()];
      await until(async () => {
        // The instance count drives the share each takes while the store is away.
        const store = opened.store();
        return (await store.beat('probe', 10_000)).length >= 3;
      }, 5000);
      void a;
      void b;
    });
  });
}
