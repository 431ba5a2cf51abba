// Our documented people JSONL (docs/people.md): one JSON object per line, as PersonInput.
import { readLines } from '../companies/lines.ts';
import type { PersonSourceRecord } from './runner.ts';
import { PERSON_INPUT_FIELDS } from '../../people/input.ts';

const KNOWN = new Set<string>(PERSON_INPUT_FIELDS);

/**
 * Records from a JSONL file ("-" for stdin); blank lines are skipped; `position()` gives bytes read;
 * `unreadKeys()` names the keys no field reads.
 */
export function readPeopleJsonl(path: string): {
  records: AsyncIterable<PersonSourceRecord>;
  position: () => number;
  unreadKeys: () => string[];
} {
  const { lines, position } = readLines(path);
  const unread = new Set<string>();
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
      for (const key in value) if (!KNOWN.has(key)) unread.add(key);
      yield { line: number, input: value };
    }
  }
  return { records: records(), position, unreadKeys: () => [...unread] };
}
