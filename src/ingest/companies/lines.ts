// Line-by-line reading of large files, with the byte position for progress bars.
// Splits 1 MiB chunks itself: node:readline's async iterator costs more per line than parsing
// the JSON of a typical company line.
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export interface Line {
  number: number;
  text: string;
}

/** Line ends as node:readline knows them: \r\n, \n, or a lone \r. */
const LINE_END = /\r\n|\n|\r/g;

/** Yields the lines of a file (or of stdin for "-"); `position()` tells the bytes read so far. */
export function readLines(path: string): { lines: AsyncIterable<Line>; position: () => number } {
  const stream = path === '-' ? process.stdin : createReadStream(path, { highWaterMark: 1 << 20 });
  let bytes = 0;
  async function* lines(): AsyncIterable<Line> {
    const decoder = new StringDecoder('utf8');
    let number = 0;
    let rest = '';
    for await (const chunk of stream) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      bytes += buffer.length;
      const text = rest + decoder.write(buffer);
      // A \r at the end of a chunk may be the first half of a \r\n: keep it for the next chunk.
      const usable = text.endsWith('\r') ? text.length - 1 : text.length;
      let start = 0;
      LINE_END.lastIndex = 0;
      for (let m = LINE_END.exec(text); m && m.index < usable; m = LINE_END.exec(text)) {
        number += 1;
        yield { number, text: text.slice(start, m.index) };
        start = m.index + m[0].length;
      }
      rest = text.slice(start);
    }
    rest += decoder.end();
    // The last line, or a lone \r kept back above that ended it.
    if (rest.length) {
      number += 1;
      yield { number, text: rest.endsWith('\r') ? rest.slice(0, -1) : rest };
    }
  }
  return { lines: lines(), position: () => bytes };
}
