// Our documented people JSONL (docs/people.md): one JSON object per line, as PersonInput.
import { readLines } from '../companies/lines.ts';
import type { PersonSourceRecord } from './runner.ts';

/** Records from a JSONL file ("-" for stdin); blank lines are skipped; `position()` gives bytes read. */
export function readPeopleJsonl(path: string): { records: AsyncIterable<PersonSourceRecord>; position: () => number } {
  const { lines, position } = readLines(path);
  async function* records(): AsyncIterable<PersonSourceRecord> {
    for await (const line of lines) {
      const { number } = line;
      // Editors on Windows start UTF-8 files with a byte order mark.
      const text = number === 1 ? line.text.replace(/^\uFEFF/, '') : line.text;
      if (!text.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        yield { line: number, error: `not valid JSON: ${(error as Error).message}` };
        continue;
      }
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        yield { line: number, error: 'a line must hold one JSON object' };
        continue;
      }
      yield { line: number, input: value };
    }
  }
  return { records: records(), position };
}
