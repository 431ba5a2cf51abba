// tsvector values in PostgreSQL's binary form (the format of tsvectorsend/tsvectorrecv), for
// job_terms. Read as text, the server parses every lexeme and every position of termsVector's
// padding (up to 256 positions on a few lexemes per listing) and sorts them: measured at about
// 180 µs of server CPU per listing, more than the row's insert and index entries together. The
// binary form is what the server stores, minus the parse: lexemes sorted and unique, each with its
// positions. The value stored is the same (test/jobs/tsvector-binary.test.ts compares them).

import { descriptionTerms, termsBucket, termsVector } from './search-terms.ts';
import type { NormalizeOutcome } from './listing.ts';

/** Oid of PostgreSQL's tsvector type (pg_type), named in a binary array's header. */
const TSVECTOR_OID = 3614;
/** Position weights as tsvector text may give them after a position (none: D, 0). */
const WEIGHTS: Record<string, number> = { A: 3, B: 2, C: 1, D: 0, a: 3, b: 2, c: 1, d: 0 };
const QUOTE = 39; // '
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const SPACE = 32;
/** A position's bits below its weight's. */
const POS_MASK = 16383;

function notUnderstood(text: string, at: number): never {
  throw new Error(`tsvector text not understood near "${text.slice(at, at + 20)}"`);
}

/** Where the lexeme quoted from `at` (after its opening quote) ends: its closing quote. */
function closingQuote(text: string, at: number): number {
  let end = text.indexOf("'", at);
  // The usual case: no backslash before it and no doubled quote.
  if (end > 0 && text.charCodeAt(end + 1) !== QUOTE && !text.slice(at, end).includes('\\')) return end;
  for (end = at; end < text.length; end++) {
    const c = text.charCodeAt(end);
    if (c === BACKSLASH) end++;
    else if (c === QUOTE) {
      if (text.charCodeAt(end + 1) !== QUOTE) return end;
      end++;
    }
  }
  return notUnderstood(text, at - 1);
}

/** Positions text "3,1B,2" from `at`: their values (weight in the top two bits) and where they end. */
function positionsAt(text: string, at: number): [number[], number] {
  const out: number[] = [];
  let i = at;
  for (;;) {
    let pos = 0;
    const from = i;
    while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) pos = pos * 10 + text.charCodeAt(i++) - 48;
    if (i === from) notUnderstood(text, from);
    const weight = WEIGHTS[text[i]];
    if (weight !== undefined) i++;
    out.push((weight ?? 0) * (POS_MASK + 1) + Math.min(pos, POS_MASK));
    if (text.charCodeAt(i) !== COMMA) return [out, i];
    i++;
  }
}

/** Positions sorted, one per position (the highest weight kept), at most 256: as tsvectorin keeps them. */
function uniquePositions(positions: number[]): number[] {
  let ordered = true;
  for (let i = 1; i < positions.length && ordered; i++) ordered = (positions[i] & POS_MASK) > (positions[i - 1] & POS_MASK);
  if (!ordered) {
    positions.sort((a, b) => (a & POS_MASK) - (b & POS_MASK) || b - a);
    positions = positions.filter((p, i) => i === 0 || (p & POS_MASK) !== (positions[i - 1] & POS_MASK));
  }
  return positions.length > 256 ? positions.slice(0, 256) : positions;
}

/** Big-endian 16 and 32 bits as latin1 characters (one a byte). */
const u16 = (n: number) => String.fromCharCode(n >>> 8, n & 255);
const u32 = (n: number) => String.fromCharCode(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);

/** Encoded position lists by their text: termsVector pads many lexemes with the same list. */
const positionCache = new Map<string, string>();

/** A lexeme's positions in binary form (count, then each), from their text, or of a merged list. */
function positionBytes(positions: number[]): string {
  const unique = uniquePositions(positions);
  let out = u16(unique.length);
  for (const p of unique) out += u16(p);
  return out;
}

const NO_POSITIONS = u16(0);

/**
 * One tsvector in binary form (lexeme count, then each lexeme NUL-terminated with its positions)
 * as a latin1 string, from tsvector input text: quoted lexemes ('' a quote and \x an x inside),
 * each with optional positions; sorted and merged as tsvectorin does. Works on the text's UTF-8
 * bytes read as latin1, so that string order is byte order (tsCompareString's: a prefix first).
 */
export function tsvectorBinary(source: string): string {
  const text = /[^\u0000-\u007f]/.test(source) ? Buffer.from(source, 'utf8').toString('latin1') : source;
  const words: string[] = [];
  // Positions text of each lexeme that has some.
  let positioned: Map<string, string[]> | undefined;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === SPACE) {
      i++;
      continue;
    }
    if (c !== QUOTE) notUnderstood(text, i);
    const end = closingQuote(text, i + 1);
    let word = text.slice(i + 1, end);
    if (word.includes("'") || word.includes('\\')) word = word.replace(/''|\\(.)/g, (_, x: string | undefined) => x ?? "'");
    i = end + 1;
    if (text.charCodeAt(i) === COLON) {
      const from = i + 1;
      i = positionsAt(text, from)[1];
      positioned ??= new Map();
      const lists = positioned.get(word) ?? [];
      lists.push(text.slice(from, i));
      positioned.set(word, lists);
    }
    if (i < text.length && text.charCodeAt(i) !== SPACE) notUnderstood(text, i);
    words.push(word);
  }
  // Default sort compares UTF-16 units, here bytes.
  words.sort();
  const parts: string[] = [];
  let count = 0;
  for (let k = 0; k < words.length; k++) {
    const word = words[k];
    if (k && word === words[k - 1]) continue;
    count++;
    const lists = positioned?.get(word);
    let positions = NO_POSITIONS;
    if (lists?.length === 1) {
      const cached = positionCache.get(lists[0]);
      positions = cached ?? positionBytes(positionsAt(lists[0], 0)[0]);
      if (cached === undefined) {
        if (positionCache.size >= 1_000) positionCache.clear();
        positionCache.set(lists[0], positions);
      }
    } else if (lists) positions = positionBytes(lists.flatMap((l) => positionsAt(l, 0)[0]));
    parts.push(word, '\0', positions);
  }
  return u32(count) + parts.join('');
}

/**
 * A listing's job_terms vector in binary form: termsVector's text of its description's terms in the
 * bucket of its remote flag (0 or 1) and publication time, encoded.
 */
export function listingTermsBinary(description: string, hasRemote: number, publishedAt: number): string {
  return tsvectorBinary(termsVector(descriptionTerms(description), termsBucket(hasRemote, publishedAt)));
}

/** The outcome with its listing's job_terms vector in binary form (a refusal as it is). */
export function withTermsBinary(outcome: NormalizeOutcome): NormalizeOutcome {
  if (typeof outcome !== 'string')
    outcome.termsBinary = listingTermsBinary(outcome.description, outcome.hasRemote ? 1 : 0, outcome.publishedAt);
  return outcome;
}

/**
 * A tsvector[] query parameter in binary form, from tsvectors in binary form (tsvectorBinary).
 * node-pg sends a Buffer parameter as binary; the statement must type it (`$1::tsvector[]`).
 */
export function tsvectorArrayParam(vectors: string[]): Buffer {
  // Array header: one dimension, no nulls, the element type, the length and lower bound 1.
  const parts = [u32(1), u32(0), u32(TSVECTOR_OID), u32(vectors.length), u32(1)];
  for (const value of vectors) parts.push(u32(value.length), value);
  return Buffer.from(parts.join(''), 'latin1');
}
