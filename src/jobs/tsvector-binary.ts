// tsvector values in PostgreSQL's binary form (the format of tsvectorsend/tsvectorrecv), for
// job_terms. Sent as text, the server parses every lexeme and every position of termsVector's
// padding (up to 256 positions on a few lexemes per listing) and sorts them: measured at about
// 180 µs of server CPU per listing, more than the row's insert and index entries together. The
// binary form is what the server stores, minus the parse: lexemes sorted and unique, each with its
// positions. It is built from the terms themselves, not by writing termsVector's text and reading
// it back (that round trip was a third of the import worker's time); the value is the same
// (test/jobs/tsvector-binary.test.ts has the server compare them).

import { bucketTerm, descriptionTerms, lexemesToPad, PAD_POSITION_COUNT, termsBucket } from './search-terms.ts';
import type { NormalizeOutcome } from './listing.ts';

/** Oid of PostgreSQL's tsvector type (pg_type), named in a binary array's header. */
const TSVECTOR_OID = 3614;

/** Big-endian 16 and 32 bits as latin1 characters (one a byte). */
const u16 = (n: number) => String.fromCharCode(n >>> 8, n & 255);
const u32 = (n: number) => String.fromCharCode(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);

/** A lexeme with no positions: its count, 0. */
const NO_POSITIONS = u16(0);

/** A padded lexeme's positions (termsVector's padding): their count, then 1 to PAD_POSITION_COUNT. */
const PAD_POSITIONS = u16(PAD_POSITION_COUNT) + Array.from({ length: PAD_POSITION_COUNT }, (_, i) => u16(i + 1)).join('');

const NON_ASCII = /[^\u0000-\u007f]/;

/**
 * The job_terms vector of `terms` (descriptionTerms: unique) in `bucket`, in binary form as a latin1
 * string: the lexeme count, then each lexeme's UTF-8 bytes, a NUL and its positions, lexemes in
 * byte order (tsCompareString's: a prefix first) and the first ones in `terms`' order padded as
 * termsVector pads them.
 */
export function termsBinary(terms: readonly string[], bucket: string): string {
  // Lexemes as their UTF-8 bytes read as latin1, so that string order is byte order.
  const lexemes = terms.map((t) => {
    const lexeme = bucketTerm(t, bucket);
    return NON_ASCII.test(lexeme) ? Buffer.from(lexeme, 'utf8').toString('latin1') : lexeme;
  });
  const pad = lexemesToPad(
    lexemes.length,
    lexemes.reduce((n, t) => n + t.length, 0),
  );
  const padded = pad ? new Set(lexemes.slice(0, pad)) : undefined;
  // Default sort compares UTF-16 units, here bytes.
  lexemes.sort();
  const parts = [u32(lexemes.length)];
  for (const lexeme of lexemes) parts.push(lexeme, '\0', padded?.has(lexeme) ? PAD_POSITIONS : NO_POSITIONS);
  return parts.join('');
}

/** A listing's job_terms vector in binary form: its description's terms in the bucket of its remote flag (0 or 1) and publication time. */
export function listingTermsBinary(description: string, hasRemote: number, publishedAt: number): string {
  return termsBinary(descriptionTerms(description), termsBucket(hasRemote, publishedAt));
}

/** The outcome with its listing's job_terms vector in binary form (a refusal as it is). */
export function withTermsBinary(outcome: NormalizeOutcome): NormalizeOutcome {
  if (typeof outcome !== 'string')
    outcome.termsBinary = listingTermsBinary(outcome.description, outcome.hasRemote ? 1 : 0, outcome.publishedAt);
  return outcome;
}

/**
 * A tsvector[] query parameter in binary form, from tsvectors in binary form (termsBinary).
 * node-pg sends a Buffer parameter as binary; the statement must type it (`$1::tsvector[]`).
 */
export function tsvectorArrayParam(vectors: string[]): Buffer {
  // Array header: one dimension, no nulls, the element type, the length and lower bound 1.
  const parts = [u32(1), u32(0), u32(TSVECTOR_OID), u32(vectors.length), u32(1)];
  for (const value of vectors) parts.push(u32(value.length), value);
  return Buffer.from(parts.join(''), 'latin1');
}
