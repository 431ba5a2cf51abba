import cliProgress from 'cli-progress';

export interface Progress {
  /** Moves the bar to `done` (units: bytes or records, whatever `total` is in). */
  update(done: number, extra?: string): void;
  stop(): void;
  /** Whether a bar is drawn (a line printed to the terminal meanwhile would run into it). */
  readonly visible: boolean;
}

/**
 * A progress bar on stderr for long imports. Silent when stderr is not a terminal (CI, pipes)
 * or when `quiet` is set, so logs stay clean.
 */
export function createProgress(label: string, total: number, unit = 'bytes', quiet = false): Progress {
  if (quiet || !process.stderr.isTTY) return { update() {}, stop() {}, visible: false };
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {eta_formatted} left | {extra}`,
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(Math.max(total, 1), 0, { extra: '' });
  return {
    update(done, extra = '') {
      bar.update(Math.min(done, total), { extra });
    },
    stop() {
      bar.stop();
    },
    visible: true,
  };
}
