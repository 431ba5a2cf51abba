// Line-by-line reading of large files, with the byte position for progress bars.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface Line {
  number: number;
  text: string;
}

/** Yields the lines of a file (or of stdin for "-"); `position()` tells the bytes read so far. */
export function readLines(path: string): { lines: AsyncIterable<Line>; position: () => number } {
  const stream = path === '-' ? process.stdin : createReadStream(path);
  let bytes = 0;
  stream.on('data', (chunk: Buffer | string) => {
    bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
  });
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  async function* lines(): AsyncIterable<Line> {
    let number = 0;
    for await (const text of rl) {
      number += 1;
      yield { number, text };
    }
  }
  return { lines: lines(), position: () => bytes };
}
