// The chaos suite's own world: a PostgreSQL database of its own on the machine's server, a
// redis-server of its own on a free port, and several `leadbase serve` processes sharing both.
// Nothing of the machine's shared services is stopped; everything binds 127.0.0.1.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const BIN = join(process.cwd(), 'bin', 'leadbase.js');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A database of the run's own on the given server; dropped (with its connections) at the end. */
export class ChaosDatabase {
  readonly name = `leadbase_chaos_${process.pid}_${randomBytes(3).toString('hex')}`;
  readonly url: string;
  constructor(private readonly adminUrl: string) {
    const url = new URL(adminUrl);
    url.pathname = `/${this.name}`;
    this.url = url.toString();
  }
  private async admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: this.adminUrl });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  }
  create = () => this.admin((c) => c.query(`create database ${this.name}`));
  drop = () => this.admin((c) => c.query(`drop database if exists ${this.name} with (force)`));
  /** Terminates every connection the instances hold to this database; returns how many. */
  terminateBackends = () =>
    this.admin(async (c) => {
      const res = await c.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'leadbase'",
        [this.name],
      );
      return res.rowCount ?? 0;
    });
}

/** A redis-server child on its own port and directory. */
export class ChaosRedis {
  private child?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), 'leadbase-chaos-redis-'));
  constructor(readonly port: number) {}
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }
  static available(): boolean {
    return spawnSync('redis-server', ['--version']).status === 0;
  }
  async start(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i++) {
      if (
        spawnSync('redis-cli', ['-p', String(this.port), 'ping'])
          .stdout?.toString()
          .includes('PONG')
      )
        return;
      await sleep(50);
    }
    throw new Error('the chaos redis-server did not start');
  }
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
  async destroy(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** One `leadbase serve` process. */
export class Instance {
  child!: ChildProcess;
  url = '';
  output = '';
  /** Exits that were not asked for (a crash): the suite's "process exits" figure. */
  unexpectedExits = 0;
  private expectingExit = false;

  constructor(
    readonly index: number,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  async start(timeoutMs = 60_000): Promise<void> {
    this.expectingExit = false;
    this.output = '';
    this.child = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d) => (this.output = (this.output + d).slice(-20_000)));
    this.child.stderr!.on('data', (d) => (this.output = (this.output + d).slice(-20_000)));
    this.child.on('exit', () => {
      if (!this.expectingExit) this.unexpectedExits += 1;
    });
    const started = Date.now();
    for (;;) {
      const match = /leadbase listening on (http:\/\/\S+)/.exec(this.output);
      if (match) {
        this.url = match[1]!;
        return;
      }
      if (this.child.exitCode !== null) throw new Error(`instance ${this.index} exited at start:\n${this.output}`);
      if (Date.now() - started > timeoutMs) throw new Error(`instance ${this.index} did not start:\n${this.output}`);
      await sleep(25);
    }
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  async kill9(): Promise<void> {
    this.expectingExit = true;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    this.expectingExit = true;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (this.alive) this.child.kill('SIGKILL');
  }
}

export interface Answer {
  status: number;
  body: string;
  retryAfter: string | null;
  /** Network failure (instance down), instead of an HTTP answer. */
  failed?: string;
  ms: number;
}

/** One HTTP call that never throws: a refused connection is an Answer with `failed`. */
export async function call(url: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 30_000) });
    return { status: res.status, body: await res.text(), retryAfter: res.headers.get('retry-after'), ms: performance.now() - started };
  } catch (error) {
    return { status: 0, body: '', retryAfter: null, failed: (error as Error).message, ms: performance.now() - started };
  }
}

/** True when a 4xx/5xx body is the API's envelope {error, message}. */
export function enveloped(answer: Answer): boolean {
  if (answer.status < 400) return true;
  try {
    const body = JSON.parse(answer.body) as { error?: unknown; message?: unknown };
    return typeof body.error === 'string' && typeof body.message === 'string';
  } catch {
    return false;
  }
}
