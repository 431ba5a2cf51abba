import { spawn, type ChildProcess } from 'node:child_process';
import { LEADBASE_BIN } from './cli.ts';

/** A real `leadbase serve` process, as an operator runs it. */
export interface ServerProcess {
  url: string;
  /** The first key the server printed (when started with an empty database). */
  key?: string;
  child: ChildProcess;
  /** Everything the process wrote so far. */
  output(): string;
  /** Resolves with the exit code (or signal) when the process ends. */
  exited: Promise<number | string | null>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

/** Starts `leadbase serve --first-key` on a free port and waits until it listens. */
export async function startServerProcess(env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, [LEADBASE_BIN, 'serve', '--first-key'], {
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | string | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const check = () => {
      const match = /leadbase listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${output}`));
    });
  });
  const key = /^\s+(lb_\S+)\s*$/m.exec(output)?.[1];
  return {
    url,
    key,
    child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
