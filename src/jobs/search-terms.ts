// PostgreSQL's search terms of a listing's description (table job_terms): every word, every pair
// and every triple of neighbouring words, without positions, each keyed with the listing's remote
// flag and publication week (termsBucket). GIN keeps no word positions, so a phrase tested against
// a positional tsvector re-reads every candidate's text; a pair or triple of words is one term, so
// a phrase of up to three words is one index lookup with no re-read, and a longer one the AND of
// its triples, confirmed on the text of the few listings that hold them all.
// Words are cut as the SQLite index and the query parser cut them (textKey): accents stripped,
// lower case, split at anything that is not a letter or a digit.
import { textKey } from '../platform/text-key.ts';
import type { ParsedTextQuery } from './fts-query.ts';

/** Longest term kept: longer runs are not words anyone searches for (and tsvector caps a term's size). */
const MAX_TERM_LENGTH = 100;

/** Descriptions are indexed up to this many characters, as the full-text column is. */
const MAX_INDEXED_CHARS = 100_000;

/** The terms of `description`, each once, in the order they first occur. */
export function descriptionTerms(description: string): string[] {
  const words = textKey(description.slice(0, MAX_INDEXED_CHARS)).split(' ');
  const terms = new Set<string>();
  // The one or two words before this one, reset by a run that is not a word (so are FTS5's phrases:
  // such a run is a token between them).
  let previous = '';
  let pair = '';
  for (const word of words) {
    if (!word || word.length > MAX_TERM_LENGTH) {
      previous = pair = '';
      continue;
    }
    terms.add(word);
    if (pair) terms.add(`${pair} ${word}`);
    if (previous) terms.add(`${previous} ${word}`);
    pair = previous ? `${previous} ${word}` : '';
    previous = word;
  }
  return [...terms];
}

/**
 * Which of `wanted` (terms as descriptionTerms cuts them) `description` holds: the same cut as
 * descriptionTerms, without building every term. `prefixes` are the wanted terms' first word and
 * first two words (of pairs and triples): a pair or triple is only put together after one of them.
 * About a third of descriptionTerms' time on 500-character texts (most of it textKey's).
 */
export function heldTerms(description: string, wanted: ReadonlySet<string>, prefixes: ReadonlySet<string>): string[] {
  const held = new Set<string>();
  // As in descriptionTerms: the word before (when it begins a wanted term) and the two before.
  let previous = '';
  let pair = '';
  for (const word of textKey(description.slice(0, MAX_INDEXED_CHARS)).split(' ')) {
    if (!word || word.length > MAX_TERM_LENGTH) {
      previous = pair = '';
      continue;
    }
    if (wanted.has(word)) held.add(word);
    let next = '';
    if (previous) {
      const two = `${previous} ${word}`;
      if (wanted.has(two)) held.add(two);
      if (prefixes.has(two)) next = two;
    }
    if (pair) {
      const three = `${pair} ${word}`;
      if (wanted.has(three)) held.add(three);
    }
    pair = next;
    previous = prefixes.has(word) ? word : '';
  }
  return [...held];
}

/** A term quoted for tsquery and tsvector input (terms hold only letters, digits and spaces). */
const quote = (term: string) => `'${term}'`;

/**
 * A row of job_terms whose tsvector is at least this many bytes has it moved out of the row
 * (TOAST): PostgreSQL only tries once a row passes about 2 kB (TOAST_TUPLE_THRESHOLD of 8 kB pages;
 * the table's toast_tuple_target only sets how small it then makes the row). A little above it.
 */
const OUT_OF_LINE_BYTES = 2_100;

/** Rows smaller than this stay in line unpadded: at 500 bytes, 16 of them share a page already. */
const PAD_FROM_BYTES = 512;

/** Positions a padded lexeme gets, 1 to this: tsvector's most per lexeme, 2 bytes each. */
export const PAD_POSITION_COUNT = 256;

const PAD_POSITIONS = Array.from({ length: PAD_POSITION_COUNT }, (_, i) => i + 1).join(',');

/** Bytes of one lexeme's positions when padded (count, positions, alignment). */
const PAD_BYTES_PER_LEXEME = 2 + 2 * PAD_POSITION_COUNT + 1;

/**
 * Each key of job_terms is a term and the listing's bucket: its remote flag and publication week
 * (modulo WEEK_CODES). A query asks for its terms in the buckets of its remote flag and window
 * only, so GIN gives the matches of that window (and the edge weeks' few others, which the
 * statement's exact test of the time drops) instead of every listing holding the term: each match
 * costs a visit of its row, and the window is what is counted. Codes repeat after WEEK_CODES
 * weeks (almost two years); the exact test of the time keeps answers right when they do.
 */
const WEEK_MS = 7 * 86_400_000;

/** Distinct week codes: two decimal digits. */
const WEEK_CODES = 100;

/** Joins a term to its bucket; the mark is no letter or digit, so it never occurs in a term. */
const BUCKET_MARK = '~';

/** The bucket of a listing's keys: its remote flag (0 or 1) and its publication week's code. */
export function termsBucket(hasRemote: number, publishedAt: number): string {
  const week = (((Math.floor(publishedAt / WEEK_MS) % WEEK_CODES) + WEEK_CODES) % WEEK_CODES).toString().padStart(2, '0');
  return `${hasRemote ? 1 : 0}${week}`;
}

/** Whether the weeks between two times have a code each, so windowBuckets lists them oldest first (codes repeat after WEEK_CODES weeks). */
export function bucketsInTimeOrder(lo: number, hi: number): boolean {
  return Math.floor(hi / WEEK_MS) - Math.floor(lo / WEEK_MS) + 1 <= WEEK_CODES;
}

/** The buckets of a remote flag between two times (inclusive): every week's code, or all codes. */
export function windowBuckets(hasRemote: number, lo: number, hi: number): string[] {
  const first = Math.floor(lo / WEEK_MS);
  const last = Math.floor(hi / WEEK_MS);
  if (last < first) return [];
  const weeks = Math.min(last - first + 1, WEEK_CODES);
  return Array.from({ length: weeks }, (_, i) => termsBucket(hasRemote, (first + i) * WEEK_MS));
}

/**
 * The tsvector input text of a listing's terms (descriptionTerms) in its bucket (termsBucket):
 * the value of job_terms.terms, which the import sends in binary form (listingTermsBinary). Each
 * match of a search reads its job_terms row (GIN keeps no columns): a row of 1–2 kB kept in line
 * makes that one random page read per match, so a vector between 512 bytes and the out-of-line
 * size gets positions on its first lexemes, enough to pass it and have PostgreSQL move it out of
 * the row. Positions are no GIN key and no query here reads them (no phrase operators), so the
 * terms found are the same; the row left behind is about 60 bytes.
 */
export function termsVector(terms: readonly string[], bucket: string): string {
  const lexemes = terms.map((t) => bucketTerm(t, bucket));
  const pad = lexemesToPad(
    lexemes.length,
    lexemes.reduce((n, t) => n + Buffer.byteLength(t), 0),
  );
  return lexemes.map((t, i) => (i < pad ? `${quote(t)}:${PAD_POSITIONS}` : quote(t))).join(' ');
}

/** A term joined to its bucket: one lexeme of job_terms. */
export const bucketTerm = (term: string, bucket: string) => `${term}${BUCKET_MARK}${bucket}`;

/**
 * How many of a vector's first lexemes get the padding positions (PAD_POSITION_COUNT each), from
 * how many lexemes it has and their UTF-8 bytes: enough to take a vector of PAD_FROM_BYTES or more
 * out of its row, none for a smaller one or one already out.
 */
export function lexemesToPad(count: number, lexemeBytes: number): number {
  const bytes = 8 + 4 * count + lexemeBytes;
  return bytes >= PAD_FROM_BYTES && bytes < OUT_OF_LINE_BYTES ? Math.ceil((OUT_OF_LINE_BYTES - bytes) / PAD_BYTES_PER_LEXEME) : 0;
}

/** A term's key in every bucket, one tsquery each: both remote flags, every week code. */
export function termEveryBucket(term: string): string[] {
  return [0, 1].flatMap((remote) => windowBuckets(remote, 0, (WEEK_CODES - 1) * WEEK_MS)).map((bucket) => key(term, bucket));
}

/** Longest phrase that is one term (a word, pair or triple); longer ones are the AND of their triples. */
const MAX_PHRASE_TERM_WORDS = 3;

/** A term's key in a bucket. */
const key = (term: string, bucket: string) => quote(bucketTerm(term, bucket));

/** A phrase as keys: itself when it has at most three words, else the AND of its neighbouring triples. */
function phraseQuery(words: string[], bucket: string): string {
  if (words.length <= MAX_PHRASE_TERM_WORDS) return key(words.join(' '), bucket);
  const triples: string[] = [];
  for (let i = MAX_PHRASE_TERM_WORDS; i <= words.length; i++)
    triples.push(key(words.slice(i - MAX_PHRASE_TERM_WORDS, i).join(' '), bucket));
  return `(${triples.join(' & ')})`;
}

/**
 * The one term a query is, when it is one: a single word or phrase of up to three words, with no
 * alternative and nothing excluded. Only such a query can be counted from a counted term's days.
 */
export function singleTerm({ groups, excluded }: ParsedTextQuery): string | null {
  if (groups.length !== 1 || groups[0].length !== 1 || excluded.length) return null;
  const words = groups[0][0];
  return isLong(words) ? null : words.join(' ');
}

/** A long phrase's terms also match a text holding them apart: the listing's own text must confirm it. */
const isLong = (words: string[]) => words.length > MAX_PHRASE_TERM_WORDS;

/**
 * True when a phrase has four words or more, included or excluded: the triples of "a b c d" also
 * match a text holding "a b c" and "b c d" apart, so the listing's own text must confirm the phrase.
 */
export function needsTextRecheck({ groups, excluded }: ParsedTextQuery): boolean {
  return groups.some((g) => g.some(isLong)) || excluded.some(isLong);
}

/** The job_terms tsqueries of a parsed `job_description` over a remote flag and span of time: one per bucket (windowBuckets). */
export function spanQueries(query: ParsedTextQuery, hasRemote: number, lo: number, hi: number): string[] {
  return windowBuckets(hasRemote, lo, hi).flatMap((bucket) => termsQuery(query, bucket) ?? []);
}

/**
 * The job_terms tsquery of a parsed `job_description` in one bucket, or null when it has no
 * positive term. A search ORs one per bucket of its window (windowBuckets): PostgreSQL makes that
 * a union of GIN scans (BitmapOr), each reading only its bucket's keys, where one tsquery ORing
 * every bucket's key of every term is tested in full on each candidate (at 53 weeks, 60–80 ms of
 * GIN scan for a common phrase at a million listings). An excluded phrase of four words or more
 * is left to the recheck: excluding its triples would drop listings that hold them apart.
 */
export function termsQuery({ groups, excluded }: ParsedTextQuery, bucket: string): string | null {
  if (!groups.length) return null;
  const phrase = (words: string[]) => phraseQuery(words, bucket);
  const positive = groups.map((g) => (g.length > 1 ? `(${g.map(phrase).join(' | ')})` : phrase(g[0]))).join(' & ');
  const exact = excluded.filter((words) => !isLong(words));
  return exact.length ? `(${positive}) & !(${exact.map(phrase).join(' | ')})` : positive;
}
