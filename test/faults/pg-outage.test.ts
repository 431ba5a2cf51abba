// A real `leadbase serve` process under steady load while its PostgreSQL (a cluster of the test's
// own, stopped and started with pg_ctl) is down: the process must not open a connection per request
// (the circuit breaker probes one at a time with backoff), must log the outage in a few lines rather
// than one per 503, and must serve again soon after the database returns. A counting TCP proxy in
// front of the cluster sees every connection attempt.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PG_SKIP } from '../support/db.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { createOwnCluster, ownClusterSkip, type OwnCluster } from '../support/pg-cluster.ts';
import { startStallingProxy, type StallingProxy } from '../support/stalling-proxy.ts';

const OUTAGE_MS = 6000;

describe('a PostgreSQL cluster down under load', { skip: PG_SKIP || ownClusterSkip(), timeout: 180_000 }, () => {
  let cluster: OwnCluster;
  let proxy: StallingProxy;
  let server: ServerProcess;

  before(async () => {
    cluster = await createOwnCluster();
    const url = new URL(cluster.url);
    proxy = await startStallingProxy({ host: '127.0.0.1', port: Number(url.port) });
    url.host = `127.0.0.1:${proxy.port}`;
    server = await startServerProcess({ DATABASE_URL: url.toString(), REDIS_URL: '', CRAWL_ENABLED: '0', OUTAGE_LOG_INTERVAL_MS: '2000' });
    // The load runs far past the default per-minute limit of /credits: rate limiting is not what is tested.
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`update api_keys set rate_limits = '{"credits":1000000}'`);
    await admin.end();
  });
  after(async () => {
    await server?.stop();
    await proxy?.close();
    cluster?.destroy();
  });

  it('probes with one connection at a time, logs a few lines, serves again within 3 s of the start', async () => {
    const statuses = new Map<number, number>();
    let running = true;
    const load = Array.from({ length: 8 }, async () => {
      while (running) {
        const res = await fetch(`${server.url}/credits`, { method: 'POST', headers: { 'x-api-key': server.key! } }).catch(() => undefined);
        const status = res?.status ?? 0;
        await res?.arrayBuffer();
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status !== 200) await new Promise((r) => setTimeout(r, 5));
      }
    });
    try {
      await new Promise((r) => setTimeout(r, 500));
      assert.ok((statuses.get(200) ?? 0) > 0, 'served before the outage');
      const logFrom = server.output().length;
      const acceptedBefore = proxy.accepted;
      const refusedBefore = statuses.get(503) ?? 0;
      cluster.stop();
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      const attempts = proxy.accepted - acceptedBefore;
      const refused = (statuses.get(503) ?? 0) - refusedBefore;
      const lines = server
        .output()
        .slice(logFrom)
        .split('\n')
        .filter((line) => line.trim());
      cluster.start();
      const started = Date.now();
      const servedAgain = async () => {
        for (;;) {
          const res = await fetch(`${server.url}/credits`, { method: 'POST', headers: { 'x-api-key': server.key! } });
          await res.arrayBuffer();
          if (res.status === 200) return Date.now() - started;
          assert.equal(res.status, 503);
          if (Date.now() - started > 10_000) return Number.POSITIVE_INFINITY;
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      const recoveryMs = await servedAgain();
      process.stdout.write(
        `# outage ${OUTAGE_MS / 1000} s: ${refused} requests answered 503, ${attempts} connections attempted, ${lines.length} lines logged; served again ${recoveryMs} ms after the start\n`,
      );
      assert.ok(refused > 100, `the load kept running (${refused} answered 503)`);
      // One probe at a time, at most a second apart, plus the connections open when it went down.
      assert.ok(attempts <= 30, `${attempts} connections attempted in ${OUTAGE_MS} ms`);
      assert.ok(lines.length <= 15, `${lines.length} lines logged:\n${lines.join('\n')}`);
      assert.ok(recoveryMs < 3000, `served again ${recoveryMs} ms after the start`);
      assert.equal(statuses.get(500) ?? 0, 0);
      assert.equal(server.child.exitCode, null, server.output());
    } finally {
      running = false;
      await Promise.all(load);
    }
  });
});
