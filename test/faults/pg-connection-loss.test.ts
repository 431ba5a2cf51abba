// A real `leadbase serve` process losing its PostgreSQL connections: to pg_terminate_backend on the
// shared server (its own database there), and to a full stop and start of a cluster the test owns.
// The process must never exit; while the database is gone every request that needs it is answered
// 503 unavailable with Retry-After, and service resumes by itself within 2 s of the database returning.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_SKIP, POSTGRES_URL } from '../support/db.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { createOwnCluster, ownClusterSkip, type OwnCluster } from '../support/pg-cluster.ts';

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { error?: string; message?: string };
}

async function call(server: ServerProcess, path = '/credits'): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'x-api-key': server.key! } });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Answer['body'] };
}

function assertUnavailableOrOk(answer: Answer): void {
  if (answer.status === 200) return;
  assert.equal(answer.status, 503, `expected 200 or 503, got ${answer.status} ${JSON.stringify(answer.body)}`);
  assert.equal(answer.body.error, 'unavailable');
  assert.equal(typeof answer.body.message, 'string');
  assert.ok(Number(answer.retryAfter) > 0, 'a 503 carries Retry-After');
}

/** Calls until the first 200, asserting every answer on the way; returns the milliseconds it took. */
async function untilServed(server: ServerProcess, withinMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    const answer = await call(server);
    assertUnavailableOrOk(answer);
    if (answer.status === 200) return Date.now() - start;
    assert.ok(Date.now() - start < withinMs, `not served again within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('PostgreSQL connections killed under a running server', { skip: PG_SKIP, timeout: 120_000 }, () => {
  const database = `leadbase_fault_${randomBytes(5).toString('hex')}`;
  let server: ServerProcess;
  const admin = () => new pg.Client({ connectionString: POSTGRES_URL });

  before(async () => {
    const client = admin();
    await client.connect();
    await client.query(`create database ${database}`);
    await client.end();
    const url = new URL(POSTGRES_URL!);
    url.pathname = `/${database}`;
    server = await startServerProcess({ DATABASE_URL: url.toString(), REDIS_URL: '' });
  });
  after(async () => {
    await server?.stop();
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.end();
  });

  it('pg_terminate_backend of every pooled connection: no exit, never a 500, served again within 2 s', async () => {
    // Fill the pool: concurrent calls each hold a connection.
    const warm = await Promise.all(Array.from({ length: 12 }, () => call(server)));
    assert.ok(warm.every((a) => a.status === 200));

    for (let round = 0; round < 3; round++) {
      const client = admin();
      await client.connect();
      const killed = await client.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'leadbase'",
        [database],
      );
      await client.end();
      assert.ok(killed.rowCount! > 0, 'the server had pooled connections to kill');
      const answers = await Promise.all(Array.from({ length: 12 }, () => call(server)));
      answers.forEach(assertUnavailableOrOk);
      assert.ok((await untilServed(server, 2000)) < 2000);
    }
    assert.equal(server.child.exitCode, null, `the process is still running:\n${server.output()}`);
  });

  it('a database that refuses connections: 503 with Retry-After during, /readyz unavailable, recovery within 2 s', async () => {
    const client = admin();
    await client.connect();
    try {
      await client.query(`alter database ${database} allow_connections false`);
      await client.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'leadbase'", [
        database,
      ]);
      for (let i = 0; i < 10; i++) {
        const answer = await call(server);
        assert.equal(answer.status, 503, JSON.stringify(answer.body));
        assertUnavailableOrOk(answer);
      }
      const ready = await fetch(`${server.url}/readyz`);
      assert.equal(ready.status, 503);
      const body = (await ready.json()) as { checks: { database: string } };
      assert.equal(body.checks.database, 'unavailable', 'only the word, never the driver error');
    } finally {
      await client.query(`alter database ${database} allow_connections true`);
      await client.end();
    }
    assert.ok((await untilServed(server, 2000)) < 2000);
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
    assert.equal(server.child.exitCode, null);
  });
});

describe('a PostgreSQL cluster stopped and started under a running server', { skip: PG_SKIP || ownClusterSkip(), timeout: 180_000 }, () => {
  let cluster: OwnCluster;
  let server: ServerProcess;

  before(async () => {
    cluster = await createOwnCluster();
    server = await startServerProcess({ DATABASE_URL: cluster.url, REDIS_URL: '' });
  });
  after(async () => {
    await server?.stop();
    cluster?.destroy();
  });

  it('503 with Retry-After while stopped, served again within 2 s of the start, no restart', async () => {
    // Served before the stop (a busy machine's first connections to the new cluster may take a moment).
    await untilServed(server, 10_000);
    cluster.stop();
    for (let i = 0; i < 10; i++) {
      const answer = await call(server);
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assertUnavailableOrOk(answer);
    }
    cluster.start();
    const recovery = await untilServed(server, 2000);
    assert.ok(recovery < 2000, `served again ${recovery} ms after the cluster started`);
    assert.equal(server.child.exitCode, null, server.output());
  });
});
