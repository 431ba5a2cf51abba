import { franc } from 'franc-min';

// franc answers ISO 639-3; the API serves two-letter codes.
const ISO3_TO_1: Record<string, string> = {
  eng: 'en', deu: 'de', fra: 'fr', spa: 'es', por: 'pt', ita: 'it', nld: 'nl', pol: 'pl', swe: 'sv', dan: 'da',
  nob: 'no', nno: 'no', fin: 'fi', ces: 'cs', slk: 'sk', hun: 'hu', ron: 'ro', bul: 'bg', hrv: 'hr', srp: 'sr',
  bos: 'bs', slv: 'sl', ell: 'el', tur: 'tr', rus: 'ru', ukr: 'uk', bel: 'be', arb: 'ar', heb: 'he', pes: 'fa',
  hin: 'hi', ben: 'bn', urd: 'ur', tam: 'ta', tel: 'te', mar: 'mr', guj: 'gu', kan: 'kn', mal: 'ml', pan: 'pa',
  cmn: 'zh', jpn: 'ja', kor: 'ko', vie: 'vi', tha: 'th', ind: 'id', zlm: 'ms', tgl: 'tl', swh: 'sw', amh: 'am',
  hau: 'ha', yor: 'yo', ibo: 'ig', zul: 'zu', xho: 'xh', afr: 'af', lit: 'lt', lav: 'lv', est: 'et', cat: 'ca',
  glg: 'gl', eus: 'eu', azj: 'az', uzn: 'uz', kaz: 'kk', kat: 'ka', hye: 'hy', mya: 'my', khm: 'km', nep: 'ne', sin: 'si',
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
const WORD_LANGS = new Map<string, string[]>();
for (const [lang, words] of Object.entries(FUNCTION_WORDS)) for (const w of words) WORD_LANGS.set(w, [...(WORD_LANGS.get(w) ?? []), lang]);

/** The language whose function words dominate, when they reach `minHits` (fractional for shared words). */
function byFunctionWords(sample: string, minHits = 5, minLetters = 40): string | null {
  const scores: Record<string, number> = {};
  let letters = 0;
  for (const word of sample.toLowerCase().split(/[^\p{L}]+/u)) {
    if (!word) continue;
    letters += word.length;
    const langs = WORD_LANGS.get(word);
    if (langs) for (const l of langs) scores[l] = (scores[l] ?? 0) + 1 / langs.length;
  }
  const ranked = Object.entries(scores).sort((a, b) => b[1] - a[1]);
  if (!ranked.length || letters < minLetters) return null;
  const [best, second] = [ranked[0], ranked[1]?.[1] ?? 0];
  return best[1] >= minHits && best[1] >= 1.6 * second ? best[0] : null;
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
  const code = franc(text.slice(0, 400), { minLength: 20 });
  return ISO3_TO_1[code] ?? 'en';
}
