// A real `leadbase serve` process (pg-boss queue) whose PostgreSQL stalls: a TCP proxy between them
// accepts connections and holds them without a byte either way, as a network partition or a hung
// proxy does. During the stall every request is answered 503 within a few seconds, the process
// opens at most a few connections (the circuit breaker probes one at a time), the outage is logged
// in a few lines, and /readyz says so; after it, requests, bulk jobs and the queue work again. A
// SIGTERM during a stall ends the process within SHUTDOWN_TIMEOUT_MS.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_SKIP, POSTGRES_URL } from '../support/db.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { startStallingProxy, type StallingProxy } from '../support/stalling-proxy.ts';
import { mailWorldEnv, startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { until } from '../support/until.ts';

const CONNECT_TIMEOUT_MS = 3000;
/** A request waiting on a stalled database is answered 503 within this (the query bound, 30 s by default, is not what ends it). */
const STALL_ANSWER_MS = 2 * CONNECT_TIMEOUT_MS + 4000;
const SHUTDOWN_TIMEOUT_MS = 4000;

interface Answer {
  status: number;
  ms: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
}

async function call(server: ServerProcess, path: string, init: RequestInit = {}): Promise<Answer> {
  const started = Date.now();
  const res = await fetchOrSay(server, `${server.url}${path}`, {
    ...init,
    headers: { 'x-api-key': server.key!, ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
    // Longer than any bound the server has: a request the stall wedges fails the test here.
    signal: AbortSignal.timeout(20_000),
  });
  return {
    status: res.status,
    ms: Date.now() - started,
    body: (await res.json()) as Record<string, unknown>,
    retryAfter: res.headers.get('retry-after'),
  };
}

/** fetch, with the server's last output in the error when there is no answer at all. */
async function fetchOrSay(server: ServerProcess, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    throw new Error(
      `${(error as Error).message} (${url}); server exit ${String(server.child.exitCode)}:\n${server.output().slice(-4000)}`,
      {
        cause: error,
      },
    );
  }
}

const bulk = (server: ServerProcess, emails: string[]) =>
  call(server, '/email-validate/bulk', { method: 'POST', body: JSON.stringify({ emails }) });

/** Lines of the process's output after `from` that speak of the outage. */
const outageLines = (server: ServerProcess, from: number) =>
  server
    .output()
    .slice(from)
    .split('\n')
    .filter((line) => /unavailable|connection lost|health check failed|available again/i.test(line));

describe('PostgreSQL stalls under a running server (pg-boss)', { skip: PG_SKIP, timeout: 180_000 }, () => {
  const database = `leadbase_stall_${randomBytes(5).toString('hex')}`;
  const admin = () => new pg.Client({ connectionString: POSTGRES_URL });
  let proxy: StallingProxy;
  let world: MailWorld;
  let server: ServerProcess;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    const client = admin();
    await client.connect();
    await client.query(`create database ${database}`);
    await client.end();
    const target = new URL(POSTGRES_URL!);
    proxy = await startStallingProxy({ host: target.hostname, port: Number(target.port || 5432) });
    world = await startMailWorld();
    await world.domain('stall.test', { mailboxes: ['a', 'b', 'c'] });
    const url = new URL(POSTGRES_URL!);
    url.host = `127.0.0.1:${proxy.port}`;
    url.pathname = `/${database}`;
    env = {
      DATABASE_URL: url.toString(),
      REDIS_URL: '',
      CRAWL_ENABLED: '0',
      ...mailWorldEnv(world),
      DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      OUTAGE_LOG_INTERVAL_MS: '2000',
    };
    server = await startServerProcess(env);
  });
  after(async () => {
    proxy?.heal();
    await server?.stop();
    await world?.close();
    await proxy?.close();
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.end();
  });

  it('503 within the bound during the stall, few connections and lines, then requests, bulk jobs and the queue work again', async (t) => {
    assert.equal((await call(server, '/credits', { method: 'POST' })).status, 200);
    const warm = await bulk(server, ['a@stall.test']);
    assert.equal(warm.status, 202, JSON.stringify(warm.body));
    await until(async () => (await call(server, `/email-validate/bulk/${String(warm.body.id)}`)).body.status === 'done', 30_000, 100);

    const logFrom = server.output().length;
    proxy.stall();
    // Healed whatever happens, so the next test starts on a database that answers.
    t.after(() => proxy.heal());
    const acceptedAtStall = proxy.accepted;
    const stallStarted = Date.now();
    // In flight when the stall begins, and sent during it: each answered 503, never left hanging.
    const during = await Promise.all([
      ...Array.from({ length: 6 }, () => call(server, '/credits', { method: 'POST' })),
      bulk(server, ['b@stall.test']),
    ]);
    for (const answer of during) {
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assert.ok(Number(answer.retryAfter) > 0);
      assert.ok(answer.ms < STALL_ANSWER_MS, `answered after ${answer.ms} ms`);
    }
    // Once the breaker is open, requests are refused at once without touching the database.
    let fast = 0;
    for (let i = 0; i < 200; i++) {
      const answer = await call(server, '/credits', { method: 'POST' });
      assert.equal(answer.status, 503);
      if (answer.ms < 500) fast++;
    }
    assert.ok(fast >= 190, `${fast} of 200 refused at once`);
    const ready = await call(server, '/readyz');
    assert.equal(ready.status, 503);
    while (Date.now() - stallStarted < 8000) await new Promise((r) => setTimeout(r, 250));
    const attempts = proxy.accepted - acceptedAtStall;
    const lines = outageLines(server, logFrom);
    proxy.heal();

    // Probes one at a time, each held until the connect bound: a handful over 8 s, not one per request.
    assert.ok(attempts <= 12, `${attempts} connections attempted during the stall`);
    assert.ok(lines.length <= 25, `${lines.length} lines logged during the stall:\n${lines.join('\n')}`);

    const healed = Date.now();
    await until(async () => (await call(server, '/credits', { method: 'POST' })).status === 200, 15_000, 100);
    const servedAfterMs = Date.now() - healed;
    const job = await bulk(server, ['a@stall.test', 'b@stall.test', 'c@stall.test']);
    assert.equal(job.status, 202, JSON.stringify(job.body));
    await until(async () => (await call(server, `/email-validate/bulk/${String(job.body.id)}`)).body.status === 'done', 30_000, 100);
    const queueRanAfterMs = Date.now() - healed;
    await until(
      async () => {
        const answer = await call(server, '/readyz');
        return answer.status === 200 && (answer.body.checks as Record<string, string>).queue === 'ok';
      },
      15_000,
      200,
    );

    // No bulk job is left queued: the one refused during the stall was withdrawn.
    const url = new URL(POSTGRES_URL!);
    url.pathname = `/${database}`;
    const own = new pg.Client({ connectionString: url.toString() });
    await own.connect();
    const queued = await own.query("select count(*)::int as n from email_bulk_jobs where status in ('queued', 'running')");
    await own.end();
    assert.equal(queued.rows[0].n, 0);
    assert.match(server.output().slice(logFrom), /database available again/);
    assert.equal(server.child.exitCode, null, server.output());
    process.stdout.write(
      `# stall: ${attempts} connections attempted, ${lines.length} lines logged in 8 s; served ${servedAfterMs} ms and queued work done ${queueRanAfterMs} ms after the stall\n`,
    );
  });

  it('SIGTERM during a stall ends the process within SHUTDOWN_TIMEOUT_MS', async () => {
    const second = await startServerProcess(env);
    second.key = server.key;
    try {
      assert.equal((await call(second, '/credits', { method: 'POST' })).status, 200);
      proxy.stall();
      const inFlight = Array.from({ length: 4 }, () => call(second, '/credits', { method: 'POST' }).catch(() => undefined));
      await new Promise((r) => setTimeout(r, 300));
      const signalled = Date.now();
      second.child.kill('SIGTERM');
      const exit = await Promise.race([
        second.exited,
        new Promise((r) => setTimeout(() => r('still running'), SHUTDOWN_TIMEOUT_MS + 5000)),
      ]);
      const seconds = (Date.now() - signalled) / 1000;
      assert.notEqual(exit, 'still running', `no exit ${SHUTDOWN_TIMEOUT_MS + 5000} ms after SIGTERM:\n${second.output()}`);
      assert.ok(seconds * 1000 < SHUTDOWN_TIMEOUT_MS + 2000, `exited ${seconds} s after SIGTERM`);
      await Promise.all(inFlight);
      process.stdout.write(`# SIGTERM during a stall: exit ${String(exit)} after ${seconds.toFixed(1)} s\n`);
    } finally {
      if (second.child.exitCode === null && second.child.signalCode === null) second.child.kill('SIGKILL');
      proxy.heal();
    }
  });
});
