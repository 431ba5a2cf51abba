// How `serve` and `worker` end. SIGTERM or SIGINT drains what can drain (in-flight requests, running
// jobs handed back) and exits 0; whatever is stalled (a database that never answers), the process
// exits 1 when the drain has not finished within SHUTDOWN_TIMEOUT_MS. A second signal exits at once.

export interface ShutdownOptions {
  /** The longest the drain may take (SHUTDOWN_TIMEOUT_MS). */
  timeoutMs: number;
  /** Drains and closes; may wait for start-up to finish first. */
  drain: () => Promise<void>;
  /** Where the few lines of a shutdown go. */
  log: (details: object, message: string) => void;
}

export function exitOnSignals(options: ShutdownOptions): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      options.log({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    options.log({ signal, timeoutMs: options.timeoutMs }, 'shutting down');
    setTimeout(() => {
      options.log({ timeoutMs: options.timeoutMs }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, options.timeoutMs);
    options.drain().then(
      () => process.exit(0),
      (error: unknown) => {
        options.log({ err: { message: (error as Error).message } }, 'shutdown failed: exiting');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** A start-up that cannot complete (a port in use, an unreachable database) ends the process at once, non-zero. */
export function exitOnStartFailure(command: string, error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`leadbase ${command}: cannot start: ${message}\n`);
  process.exit(1);
}
