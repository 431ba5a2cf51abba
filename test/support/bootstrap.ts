// Shared by the bootstrap tests and benchmark: every fake upstream started, and the environment
// of a `leadbase` process on a fresh SQLite file.
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig, type Config } from '../../src/platform/config.ts';
import { BOARDS_CSV } from './upstreams/boards.ts';

export interface Mirror {
  name: string;
  url: string;
  close(): Promise<void>;
}

/** What `leadbase bootstrap --json` prints (the parts the tests read). */
export interface BootstrapReport {
  steps: { name: string; state: string; rows: number; done: number; failed: number; lastError: string | null }[];
  sources: { type: string; locator: string; outcome: string; error: string | null }[];
  interrupted: boolean;
  answers: { endpoint: string; body: Record<string, unknown> | null; reason: string | null; curl: string | null }[];
}

const UPSTREAMS = join(process.cwd(), 'test', 'support', 'upstreams');

/** Every module of test/support/upstreams that exports startMirror(), started. */
export async function startEveryMirror(): Promise<Mirror[]> {
  const mirrors: Mirror[] = [];
  for (const file of readdirSync(UPSTREAMS)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const module = (await import(pathToFileURL(join(UPSTREAMS, file)).href)) as { startMirror?: () => Promise<Mirror> };
    if (module.startMirror) mirrors.push(await module.startMirror());
  }
  return mirrors;
}

/**
 * A service whose operator (signing in with `adminToken`) bootstraps from `mirrors` and the boards
 * list of test/fixtures/bootstrap; no crawl runs on its own, and one host is asked every 20 ms at most.
 */
export function bootstrapConfig(adminToken: string, mirrors: Mirror[]): Config {
  return loadConfig({
    CRAWL_ENABLED: '0',
    ADMIN_TOKEN: adminToken,
    CRAWL_USER_AGENT: 'leadbase-test (ops@example.com)',
    CRAWL_HOST_INTERVAL_MS: '20',
    BOOTSTRAP_MIRRORS: mirrors.map((m) => `${m.name}=${m.url}`).join(','),
    BOOTSTRAP_BOARDS: BOARDS_CSV,
  });
}

export function envFor(dir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: `sqlite:${join(dir, 'leadbase.sqlite')}`,
    CRAWL_USER_AGENT: 'leadbase-test (ops@example.com)',
    CRAWL_HOST_INTERVAL_MS: '20',
    LOG_LEVEL: 'warn',
  };
}

/** The last line of a command's output, as JSON. */
export const lastJson = <T>(stdout: string): T => JSON.parse(stdout.trim().split('\n').pop()!) as T;

/** A 127.0.0.1 port nothing listens on: every connection to it is refused (an upstream that cannot be reached). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
