// A `leadbase serve` process that cannot serve ends, and one asked to stop does: a start on a port
// another process holds exits non-zero at once (it used to keep its crawls and queue workers running
// with no HTTP, deaf to SIGTERM), and SIGTERM or SIGINT end a serving process (and a worker) within
// SHUTDOWN_TIMEOUT_MS.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEADBASE_BIN } from '../support/cli.ts';
import { startServerProcess } from '../support/server-process.ts';

const SHUTDOWN_TIMEOUT_MS = 5000;

describe('serve ends when it cannot serve or is asked to stop', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-serve-exit-'));
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
    REDIS_URL: '',
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    // Crawls on (the default): their timers must not keep a process that cannot serve alive.
    CRAWL_TICK_MS: '200',
  };
  let holder: Server;
  let port: number;

  before(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });
  after(async () => {
    await new Promise((resolve) => holder.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a port in use: exits non-zero at once, saying why', async () => {
    const started = Date.now();
    const child = spawn(process.execPath, [LEADBASE_BIN, 'serve'], {
      env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const code = await Promise.race([
      new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c))),
      new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 30_000)),
    ]);
    if (code === 'running') child.kill('SIGKILL');
    assert.notEqual(code, 'running', `still running 30 s after a failed listen:\n${output}`);
    assert.notEqual(code, 0);
    assert.match(output, /EADDRINUSE/);
    process.stdout.write(`# port in use: exit ${String(code)} after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  });

  it('SIGTERM ends `leadbase worker` within SHUTDOWN_TIMEOUT_MS', async () => {
    const child = spawn(process.execPath, [LEADBASE_BIN, 'worker'], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    const started = Date.now();
    while (!/leadbase worker running/.test(output)) {
      assert.ok(Date.now() - started < 60_000 && child.exitCode === null, `the worker did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const signalled = Date.now();
    child.kill('SIGTERM');
    const exit = await Promise.race([exited, new Promise((r) => setTimeout(() => r('running'), SHUTDOWN_TIMEOUT_MS + 5000))]);
    if (exit === 'running') child.kill('SIGKILL');
    assert.equal(exit, 0, `after SIGTERM: ${String(exit)}\n${output}`);
    assert.ok(Date.now() - signalled < SHUTDOWN_TIMEOUT_MS + 2000);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} ends a serving process within SHUTDOWN_TIMEOUT_MS`, async () => {
      const server = await startServerProcess(env);
      const signalled = Date.now();
      server.child.kill(signal);
      const exit = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r('running'), SHUTDOWN_TIMEOUT_MS + 5000))]);
      if (exit === 'running') server.child.kill('SIGKILL');
      assert.equal(exit, 0, `after ${signal}: ${String(exit)}\n${server.output()}`);
      assert.ok(Date.now() - signalled < SHUTDOWN_TIMEOUT_MS + 2000);
    });
  }
});
