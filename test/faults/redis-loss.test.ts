// A real `leadbase serve` process whose Redis (a redis-server of the test's own, on its own port)
// goes away under it: the process keeps serving with rate limits counted per instance, /readyz says
// the instance is degraded, and everything returns by itself when Redis does.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { freePort } from '../support/pg-cluster.ts';
import { startStallingProxy, type StallingProxy } from '../support/stalling-proxy.ts';
import { killOwnRedis, OWN_REDIS_SKIP, startOwnRedis } from '../support/redis-server.ts';

describe('Redis lost under a running server', { skip: OWN_REDIS_SKIP, timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-redis-fault-'));
  let port: number;
  let redis: ChildProcess;
  let server: ServerProcess;

  before(async () => {
    port = await freePort();
    redis = await startOwnRedis(port, dir);
    server = await startServerProcess({ DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, REDIS_URL: `redis://127.0.0.1:${port}` });
  });
  after(async () => {
    await server?.stop();
    if (redis?.exitCode === null) await killOwnRedis(redis);
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string) => fetch(`${server.url}${path}`, { headers: { 'x-api-key': server.key! } });

  it('keeps serving with per-instance limits, says degraded, and recovers when Redis returns', async () => {
    assert.equal((await get('/job-types')).status, 200);
    let ready = (await (await get('/readyz')).json()) as { status: string; checks: { redis: string } };
    assert.deepEqual([ready.status, ready.checks.redis], ['ready', 'ok']);

    await killOwnRedis(redis);
    for (let i = 0; i < 20; i++) {
      const res = await get('/job-types');
      assert.equal(res.status, 200, await res.text());
      assert.ok(res.headers.get('ratelimit-limit'), 'still rate limited (per instance)');
    }
    const readyz = await get('/readyz');
    assert.equal(readyz.status, 200, 'an instance without Redis still serves: a load balancer keeps it');
    ready = (await readyz.json()) as typeof ready;
    assert.deepEqual([ready.status, ready.checks.redis], ['degraded', 'unavailable']);
    assert.equal(server.child.exitCode, null);

    redis = await startOwnRedis(port, dir);
    const start = Date.now();
    for (;;) {
      ready = (await (await get('/readyz')).json()) as typeof ready;
      if (ready.checks.redis === 'ok') break;
      assert.ok(Date.now() - start < 5000, 'Redis seen again within 5 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(ready.status, 'ready');
    assert.equal((await get('/job-types')).status, 200);
    assert.match(server.output(), /redis unavailable/, 'the outage is logged');
    assert.equal(server.child.exitCode, null);
  });
});

describe('Redis stalled under a running server', { skip: OWN_REDIS_SKIP, timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-redis-stall-'));
  let redis: ChildProcess;
  let proxy: StallingProxy;
  let server: ServerProcess;

  before(async () => {
    const port = await freePort();
    redis = await startOwnRedis(port, dir);
    proxy = await startStallingProxy({ host: '127.0.0.1', port });
    server = await startServerProcess({
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_COMMAND_TIMEOUT_MS: '500',
    });
  });
  after(async () => {
    proxy?.heal();
    await server?.stop();
    await proxy?.close();
    if (redis?.exitCode === null) await killOwnRedis(redis);
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const started = Date.now();
    const res = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': server.key! }, signal: AbortSignal.timeout(10_000) });
    return { status: res.status, ms: Date.now() - started, body: (await res.json()) as { status?: string; checks?: { redis?: string } } };
  };

  it('answers within the command bound, per-instance limits, degraded, and back when it heals', async () => {
    assert.equal((await get('/job-types')).status, 200);
    proxy.stall();
    let slowest = 0;
    for (let i = 0; i < 20; i++) {
      const answer = await get('/job-types');
      assert.equal(answer.status, 200);
      slowest = Math.max(slowest, answer.ms);
    }
    assert.ok(slowest < 3000, `slowest answer ${slowest} ms while Redis stalled`);
    const ready = await get('/readyz');
    assert.deepEqual([ready.status, ready.body.status, ready.body.checks?.redis], [200, 'degraded', 'unavailable']);
    proxy.heal();
    const healed = Date.now();
    for (;;) {
      const answer = await get('/readyz');
      if (answer.body.checks?.redis === 'ok') break;
      assert.ok(Date.now() - healed < 15_000, 'Redis used again within 15 s of the heal');
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(server.child.exitCode, null);
  });
});
