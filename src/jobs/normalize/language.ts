import { guessLanguageByTrigrams } from './trigram-language.ts';

// franc answers ISO 639-3; the API serves two-letter codes.
const ISO3_TO_1: Record<string, string> = {
  eng: 'en',
  deu: 'de',
  fra: 'fr',
  spa: 'es',
  por: 'pt',
  ita: 'it',
  nld: 'nl',
  pol: 'pl',
  swe: 'sv',
  dan: 'da',
  nob: 'no',
  nno: 'no',
  fin: 'fi',
  ces: 'cs',
  slk: 'sk',
  hun: 'hu',
  ron: 'ro',
  bul: 'bg',
  hrv: 'hr',
  srp: 'sr',
  bos: 'bs',
  slv: 'sl',
  ell: 'el',
  tur: 'tr',
  rus: 'ru',
  ukr: 'uk',
  bel: 'be',
  arb: 'ar',
  heb: 'he',
  pes: 'fa',
  hin: 'hi',
  ben: 'bn',
  urd: 'ur',
  tam: 'ta',
  tel: 'te',
  mar: 'mr',
  guj: 'gu',
  kan: 'kn',
  mal: 'ml',
  pan: 'pa',
  cmn: 'zh',
  jpn: 'ja',
  kor: 'ko',
  vie: 'vi',
  tha: 'th',
  ind: 'id',
  zlm: 'ms',
  tgl: 'tl',
  swh: 'sw',
  amh: 'am',
  hau: 'ha',
  yor: 'yo',
  ibo: 'ig',
  zul: 'zu',
  xho: 'xh',
  afr: 'af',
  lit: 'lt',
  lav: 'lv',
  est: 'et',
  cat: 'ca',
  glg: 'gl',
  eus: 'eu',
  azj: 'az',
  uzn: 'uz',
  kaz: 'kk',
  kat: 'ka',
  hye: 'hy',
  mya: 'my',
  khm: 'km',
  nep: 'ne',
  sin: 'si',
};

// Function words that dominate running text in each language. Counting them settles most job ads
// in microseconds; franc's trigram model (about 1 ms an ad) decides only the unclear ones.
const FUNCTION_WORDS: Record<string, string[]> = {
  en: ['the', 'and', 'of', 'to', 'in', 'with', 'for', 'you', 'our', 'we', 'will', 'are', 'is', 'your', 'on'],
  de: ['und', 'der', 'die', 'das', 'mit', 'für', 'du', 'wir', 'sie', 'ist', 'unsere', 'unser', 'bei', 'von', 'eine', 'ein', 'zu', 'auf'],
  fr: ['et', 'le', 'la', 'les', 'des', 'de', 'du', 'vous', 'nous', 'pour', 'avec', 'une', 'est', 'dans', 'sur', 'au'],
  es: ['y', 'el', 'la', 'los', 'las', 'de', 'del', 'para', 'con', 'una', 'en', 'que', 'por', 'nuestro', 'nuestra', 'es'],
  pt: ['e', 'o', 'os', 'as', 'do', 'da', 'dos', 'das', 'para', 'com', 'uma', 'em', 'que', 'não', 'você', 'nossa'],
  it: ['e', 'il', 'di', 'della', 'dei', 'per', 'con', 'una', 'che', 'sono', 'nel', 'gli', 'alla', 'nostro', 'nostra'],
  nl: ['en', 'de', 'het', 'een', 'van', 'voor', 'met', 'je', 'jij', 'wij', 'ons', 'onze', 'is', 'bij', 'op', 'naar'],
};
const LANGUAGES = Object.keys(FUNCTION_WORDS);

/** A letter trie of the function words: a word is looked up while it is read, without a substring. */
interface WordNode {
  /** Children by UTF-16 code unit (a sparse array: function words use few letters). */
  next: WordNode[];
  /** Indexes of the languages whose function word ends here, and the share of a hit each gets. */
  langs?: number[];
  share: number;
}
const WORDS: WordNode = { next: [], share: 0 };
LANGUAGES.forEach((lang, index) => {
  for (const w of FUNCTION_WORDS[lang]) {
    let node = WORDS;
    for (let i = 0; i < w.length; i++) {
      const code = w.charCodeAt(i);
      let child = node.next[code];
      if (!child) child = node.next[code] = { next: [], share: 0 };
      node = child;
    }
    (node.langs ??= []).push(index);
    node.share = 1 / node.langs.length;
  }
});

// Letters beyond ASCII are rare in most ads; each code unit's answer is looked up once.
const LETTER = /\p{L}/u;
const letterCache = new Int8Array(0x10000);
function isLetterUnit(code: number): boolean {
  let known = letterCache[code];
  if (known === 0) letterCache[code] = known = LETTER.test(String.fromCharCode(code)) ? 1 : -1;
  return known === 1;
}

/**
 * The language whose function words dominate, when they reach `minHits` (fractional for shared words).
 * Words are the runs of letters (\p{L}) of the lower-cased text, read in one pass without splitting.
 */
function byFunctionWords(sample: string, minHits = 5, minLetters = 40): string | null {
  const text = sample.toLowerCase();
  const scores = new Float64Array(LANGUAGES.length);
  const firstScored: number[] = [];
  let letters = 0;
  let start = -1;
  let node: WordNode | undefined;
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 0x20;
    let width: number;
    if (c < 0x80) width = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) ? 1 : 0;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      width = d >= 0xdc00 && d <= 0xdfff ? (LETTER.test(text.slice(i, i + 2)) ? 2 : 0) : isLetterUnit(c) ? 1 : 0;
    } else width = isLetterUnit(c) ? 1 : 0;
    if (width) {
      if (start < 0) {
        start = i;
        node = WORDS;
      }
      node = width === 1 && node ? node.next[c] : undefined;
      i += width - 1;
      continue;
    }
    if (start < 0) continue;
    letters += i - start;
    if (node?.langs) {
      for (const l of node.langs) {
        if (scores[l] === 0) firstScored.push(l);
        scores[l] += node.share;
      }
    }
    start = -1;
  }
  if (!firstScored.length || letters < minLetters) return null;
  // The highest score wins (the first scored among equals), by a margin over the runner-up.
  let best = firstScored[0];
  for (const l of firstScored) if (scores[l] > scores[best]) best = l;
  let second = 0;
  for (const l of firstScored) if (l !== best && scores[l] > second) second = scores[l];
  return scores[best] >= minHits && scores[best] >= 1.6 * second ? LANGUAGES[best] : null;
}

const SHORT_TEXT = 200;

/** Two-letter language code of a listing; the source's own code wins; "en" when the text is too short to tell. */
export function detectLanguage(text: string, sourceCode?: string | null): string {
  const given = sourceCode?.trim().toLowerCase().slice(0, 2);
  if (given && /^[a-z]{2}$/.test(given)) return given;
  // The first paragraphs decide; the rest only costs time.
  const quick = byFunctionWords(text.slice(0, 1500));
  if (quick) return quick;
  // Trigram statistics mislead on a sentence or two ("Lead our marketing team across EMEA." reads
  // as French), so short texts go by even a small function-word lead, else the default.
  if (text.length < SHORT_TEXT) return byFunctionWords(text, 2, 0) ?? 'en';
  const code = guessLanguageByTrigrams(text.slice(0, 400));
  return ISO3_TO_1[code] ?? 'en';
}
