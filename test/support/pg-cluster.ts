import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PostgreSQL cluster of the test's own, under a temporary directory: a fault test may stop and
 * start it without touching the machine's shared server.
 */
export interface OwnCluster {
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
}

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort().at(-1);
  return version ? join(root, version, 'bin') : undefined;
}

/** Why a cluster cannot be made here (no server binaries), or false. */
export function ownClusterSkip(): false | string {
  const bin = binDir();
  if (!bin || !existsSync(join(bin, 'initdb'))) return 'PostgreSQL server binaries not found: own-cluster test skipped';
  return false;
}

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

/**
 * A free port below Linux's ephemeral range (32768 and up). A client connecting to a stopped server
 * on an ephemeral port can be given that very port as its own and connect to itself, holding the
 * port so the server cannot start again.
 */
export async function freeLowPort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port below 32768');
}

export async function createOwnCluster(): Promise<OwnCluster> {
  const bin = binDir()!;
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freeLowPort();
  // PostgreSQL refuses to run as root: run its tools as the postgres user when we are root.
  const asServer = (tool: string, args: string[]) => {
    const command = join(bin, tool);
    const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
    execFileSync(file, argv, { stdio: 'pipe', timeout: 60_000 });
  };
  asServer('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const cluster: OwnCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => asServer('pg_ctl', ['-D', data, '-o', options, '-w', '-t', '30', '-l', join(dir, 'log'), 'start']),
    stop: () => asServer('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    destroy: () => {
      try {
        cluster.stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
