import { openSync } from 'node:fs';
import { pino, type DestinationStream } from 'pino';

/** What the process logger writes to: lines in, and a way to push out what is held. */
export interface LogDestination extends DestinationStream {
  /** Hands every held line to the writer and starts writing them. */
  flush(): void;
  /** Writes every held line before returning (the process is ending). */
  flushSync(): void;
}

/** Lines are handed to the writer once this many characters are held. */
const BLOCK_CHARS = 4096;
/** Held lines go out at least this often, so a quiet server's lines still show promptly (ms). */
const FLUSH_EVERY_MS = 1000;

/** Every destination with lines held, for the last hand-over when the process ends. */
const live = new Set<LineBlocks>();
let exitHooked = false;
/** The destinations made for a descriptor the process already had open (standard output). */
const byDescriptor = new Map<number, LineBlocks>();
/** Set once the process is exiting: no later turn of the event loop will write a held line. */
let exiting = false;

/**
 * Gathers lines into blocks in front of pino's asynchronous writer (sonic-boom). The writer measures
 * the byte length of all it holds on every write it is given, which cost 2 µs per line when each
 * access line was one write; given a block, it measures once per block.
 */
class LineBlocks implements LogDestination {
  private lines: string[] = [];
  private held = 0;

  constructor(private readonly writer: ReturnType<typeof pino.destination>) {
    setInterval(() => this.pass(), FLUSH_EVERY_MS).unref();
    live.add(this);
    writer.on('close', () => live.delete(this));
  }

  write(line: string): boolean {
    this.lines.push(line);
    this.held += line.length;
    if (exiting) this.writeBeforeExit();
    else if (this.held >= BLOCK_CHARS) this.pass();
    return true;
  }

  /** Hands the held lines to the writer as one block. */
  pass(): void {
    if (this.held === 0) return;
    const block = this.lines.join('');
    this.lines = [];
    this.held = 0;
    this.writer.write(block);
  }

  /** A line logged while the process exits (by another exit handler) is written at once. */
  private writeBeforeExit(): void {
    try {
      this.flushSync();
    } catch {
      // The writer is closed: there is nowhere left to write.
    }
  }

  flush(): void {
    this.pass();
    this.writer.flush();
  }

  flushSync(): void {
    this.pass();
    this.writer.flushSync();
  }
}

/**
 * Where the process logs (standard output unless a file is named): written asynchronously, so a slow
 * reader of the log never stalls the server, in blocks of at least 4 KiB and at least once a second
 * (a write per line cost a system call per request). Warnings and errors are written at once (see
 * createLogger). When the process ends, held lines are handed over first, and pino's writer writes
 * them out before exit (after process.exit(), a block already being written in the background may
 * land after them).
 */
export function logDestination(dest: number | string = 1): LogDestination {
  // One writer per open descriptor (standard output): every logger of the process shares it.
  const shared = typeof dest === 'number' ? byDescriptor.get(dest) : undefined;
  if (shared) return shared;
  // A file is opened here rather than by the writer, which opens it later: lines of a process that
  // ends before then would have nowhere to go.
  const fd = typeof dest === 'number' ? dest : openSync(dest, 'a');
  const blocks = new LineBlocks(pino.destination({ dest: fd, sync: false, minLength: 0 }));
  if (typeof dest === 'number') byDescriptor.set(dest, blocks);
  if (!exitHooked) {
    exitHooked = true;
    // Prepended: pino's own handlers, registered with its writer, then find the lines there.
    const passAll = (event: 'beforeExit' | 'exit') => {
      if (event === 'exit') exiting = true;
      for (const destination of live) {
        try {
          destination.pass();
        } catch {
          // Its writer is already closed: pino wrote what it held on the way out.
        }
      }
    };
    process.prependListener('beforeExit', () => passAll('beforeExit'));
    process.prependListener('exit', () => passAll('exit'));
  }
  return blocks;
}
