// PostgreSQL's search terms of a listing's description (table job_terms): every word, every pair
// and every triple of neighbouring words, without positions. GIN keeps no word positions, so a
// phrase tested against a positional tsvector re-reads every candidate's text; a pair or triple of
// words is one term, so a phrase of up to three words is one index lookup with no re-read, and a
// longer one the AND of its triples, confirmed on the text of the few listings that hold them all.
// Words are cut as the SQLite index and the query parser cut them (textKey): accents stripped,
// lower case, split at anything that is not a letter or a digit.
import { textKey } from '../text-key.ts';
import type { ParsedTextQuery } from './fts-query.ts';

/** Longest term kept: longer runs are not words anyone searches for (and tsvector caps a term's size). */
const MAX_TERM_LENGTH = 100;

/** Descriptions are indexed up to this many characters, as the full-text column is. */
const MAX_INDEXED_CHARS = 100_000;

/** The terms of `description`, one per line: `string_to_array(…, E'\n')` reads them in SQL. */
export function descriptionTerms(description: string): string {
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
  return [...terms].join('\n');
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

/** Positions given to a padded lexeme: tsvector's most per lexeme, 2 bytes each. */
const PAD_POSITIONS = Array.from({ length: 256 }, (_, i) => i + 1).join(',');

/** Bytes of one lexeme's positions when padded (count, positions, alignment). */
const PAD_BYTES_PER_LEXEME = 2 + 2 * 256 + 1;

/**
 * The tsvector input text of a listing's terms (descriptionTerms' lines), for job_terms.terms.
 * Each match of a search reads its job_terms row (GIN keeps no columns): a row of 1–2 kB kept in
 * line makes that one random page read per match, so a vector between 512 bytes and the
 * out-of-line size gets positions on its first lexemes, enough to pass it and have PostgreSQL
 * move it out of the row. Positions are no GIN key and no query here reads them (no phrase
 * operators), so the terms found are the same; the row left behind is about 60 bytes.
 */
export function termsVector(terms: string): string {
  const lexemes = terms ? terms.split('\n') : [];
  const bytes = 8 + lexemes.reduce((n, t) => n + 4 + Buffer.byteLength(t), 0);
  const pad = bytes >= PAD_FROM_BYTES && bytes < OUT_OF_LINE_BYTES ? Math.ceil((OUT_OF_LINE_BYTES - bytes) / PAD_BYTES_PER_LEXEME) : 0;
  return lexemes.map((t, i) => (i < pad ? `${quote(t)}:${PAD_POSITIONS}` : quote(t))).join(' ');
}

/** Longest phrase that is one term (a word, pair or triple); longer ones are the AND of their triples. */
const MAX_PHRASE_TERM_WORDS = 3;

/** A phrase as terms: itself when it has at most three words, else the AND of its neighbouring triples. */
function phraseQuery(words: string[]): string {
  if (words.length <= MAX_PHRASE_TERM_WORDS) return quote(words.join(' '));
  const triples: string[] = [];
  for (let i = MAX_PHRASE_TERM_WORDS; i <= words.length; i++) triples.push(quote(words.slice(i - MAX_PHRASE_TERM_WORDS, i).join(' ')));
  return `(${triples.join(' & ')})`;
}

export interface TermsQuery {
  /** tsquery text over job_terms.terms, or null when the input has no positive term. */
  tsquery: string | null;
  /**
   * True when a phrase has four words or more: the triples of "a b c d" also match a text holding
   * "a b c" and "b c d" apart, so the listing's own text must confirm the phrase.
   */
  needsRecheck: boolean;
}

/**
 * The job_terms query of a parsed `job_description`. An excluded phrase of four words or more is
 * left to the recheck: excluding its triples would drop listings that hold them apart.
 */
export function termsQuery({ groups, excluded }: ParsedTextQuery): TermsQuery {
  const long = (words: string[]) => words.length > MAX_PHRASE_TERM_WORDS;
  const needsRecheck = groups.some((g) => g.some(long)) || excluded.some(long);
  if (!groups.length) return { tsquery: null, needsRecheck };
  const positive = groups.map((g) => (g.length > 1 ? `(${g.map(phraseQuery).join(' | ')})` : phraseQuery(g[0]))).join(' & ');
  const exact = excluded.filter((words) => !long(words));
  const tsquery = exact.length ? `(${positive}) & !(${exact.map(phraseQuery).join(' | ')})` : positive;
  return { tsquery, needsRecheck };
}
