import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/**
 * Redis's own environment: without a preloaded libfaketime (`npm test -- --year-ahead`), under which
 * redis-server hangs as it starts; its clock is not ours to move, as PostgreSQL's is not.
 */
const { LD_PRELOAD: _preload, ...redisEnv } = process.env;

/** Why a test cannot run a redis-server of its own here, or false. */
export const OWN_REDIS_SKIP =
  spawnSync('redis-server', ['--version'], { env: redisEnv }).status === 0 ? false : 'redis-server not installed: own-Redis test skipped';

/** A redis-server of the test's own on 127.0.0.1:`port` (take it below 32768), without persistence; resolves once it answers. */
export async function startOwnRedis(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: 'ignore',
    env: redisEnv,
  });
  for (let i = 0; i < 200; i++) {
    if (
      spawnSync('redis-cli', ['-p', String(port), 'ping'], { env: redisEnv })
        .stdout?.toString()
        .includes('PONG')
    )
      return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error('redis-server did not start');
}

/** Kills it outright (as a crash or an outage does) and waits for it to be gone. */
export async function killOwnRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}
