// The jobs-finder `job_description` syntax (keywords, "quoted phrases", OR, -excluded), the same
// words websearch_to_tsquery understands on PostgreSQL, turned into an FTS5 query for SQLite.
import { sql, type RawBuilder } from 'kysely';
import { textKey } from '../platform/text-key.ts';

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
    const text = quoted ?? (negative ? bare.slice(1) : bare);
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

/**
 * SQLite full-text rowids are not listing ids but keys in search order: remote flag (bit 62),
 * publication minute (bits 30–61), listing id (bits 0–29). A date window and remote flag are then a
 * rowid range that FTS5 seeks to inside its doclists, so matches outside the window are never
 * looked at. Keys exceed 2^53: they are only ever computed and compared in SQL.
 */
export const FTS_ID_BITS = 30;
export const MAX_FTS_JOB_ID = 2 ** FTS_ID_BITS - 1;
/** Publication minutes are clamped into the key's 32 bits. */
const MAX_KEY_MINUTE = 2 ** 32 - 1;

/** The minute of a published time, clamped into the key's 32 bits, as minuteSql computes it. */
export function ftsKeyMinute(published: number): number {
  return Math.max(0, Math.min(Math.trunc(published / 60000), MAX_KEY_MINUTE));
}

/** The minute of a published time, clamped into the key's 32 bits (SQL over an integer expression). */
const minuteSql = (published: string) => `max(0, min((${published}) / 60000, ${MAX_KEY_MINUTE}))`;

/** SQL of the publication minute a full-text key (an SQL expression) holds. */
export function ftsKeyMinuteSql(key: string): string {
  return `((${key}) >> ${FTS_ID_BITS}) & ${MAX_KEY_MINUTE}`;
}

/** SQL of the full-text key of (remote, published ms, listing id), each an SQL expression. */
export function ftsKeySql(remote: string, published: string, id: string): string {
  return `((((${remote}) << 62) | (${minuteSql(published)} << ${FTS_ID_BITS})) | (${id}))`;
}

/** ftsKeySql for query building: each part a value (bound) or an SQL fragment. */
export function ftsKey(remote: unknown, published: unknown, id: unknown): RawBuilder<number> {
  return sql`((((${remote}) << 62) | (max(0, min((${published}) / 60000, ${sql.raw(String(MAX_KEY_MINUTE))})) << ${sql.raw(String(FTS_ID_BITS))})) | (${id}))`;
}

/** The first or last key of a minute (as ftsKeyMinute gives it): the minute is not recomputed. */
export function ftsKeyOfMinute(remote: number, minute: number, id: number): RawBuilder<number> {
  return sql`(((${remote} << 62) | (${minute} << ${sql.raw(String(FTS_ID_BITS))})) | ${id})`;
}

/** Condition on a full-text rowid: the keys of a remote flag and every minute of [lo, hi]. */
export function ftsKeyInWindow(rowid: RawBuilder<unknown>, remote: number, lo: number, hi: number): RawBuilder<unknown> {
  return sql`${rowid} between ${ftsKey(remote, lo, 0)} and ${ftsKey(remote, hi, MAX_FTS_JOB_ID)}`;
}
