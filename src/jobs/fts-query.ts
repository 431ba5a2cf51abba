// The jobs-finder `job_description` syntax (keywords, "quoted phrases", OR, -excluded), the same
// words websearch_to_tsquery understands on PostgreSQL, turned into an FTS5 query for SQLite.
import { textKey } from './normalize/text-key.ts';

export interface ParsedTextQuery {
  /** AND of OR-groups of phrases (each phrase a list of words). */
  groups: string[][][];
  excluded: string[][];
}

export function parseTextQuery(input: string): ParsedTextQuery {
  const groups: string[][][] = [];
  const excluded: string[][] = [];
  let joinNext = false;
  for (const match of input.matchAll(/(-?)"([^"]*)"?|(\S+)/g)) {
    const [, minus, quoted, bare] = match;
    if (bare !== undefined && bare.toLowerCase() === 'or') {
      joinNext = groups.length > 0;
      continue;
    }
    const negative = minus === '-' || (bare !== undefined && bare.startsWith('-') && bare.length > 1);
    const text = quoted ?? (negative ? bare!.slice(1) : bare!);
    const words = textKey(text).split(' ').filter(Boolean);
    if (!words.length) continue;
    if (negative) {
      excluded.push(words);
    } else if (joinNext) {
      groups[groups.length - 1].push(words);
    } else {
      groups.push([words]);
    }
    joinNext = false;
  }
  return { groups, excluded };
}

const phrase = (words: string[]) => `"${words.join(' ')}"`;

/** FTS5 MATCH text, or null when the input has no positive term. */
export function toFts5Query(input: string): string | null {
  const { groups, excluded } = parseTextQuery(input);
  if (!groups.length) return null;
  const positive = groups.map((g) => (g.length > 1 ? `(${g.map(phrase).join(' OR ')})` : phrase(g[0]))).join(' AND ');
  if (!excluded.length) return positive;
  return `(${positive}) NOT (${excluded.map(phrase).join(' OR ')})`;
}
