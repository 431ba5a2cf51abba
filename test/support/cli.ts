import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The real `leadbase` command, as an operator runs it after `npm install`. */
export const LEADBASE_BIN = join(process.cwd(), 'bin', 'leadbase.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `leadbase ARGS…` without blocking this process (a test's local HTTP server must keep
 * answering the command), killing it after `timeoutMs`.
 */
export function runLeadbase(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [LEADBASE_BIN, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
