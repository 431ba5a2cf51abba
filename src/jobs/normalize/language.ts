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

/** Two-letter language code of a listing; the source's own code wins; "en" when the text is too short to tell. */
export function detectLanguage(text: string, sourceCode?: string | null): string {
  const given = sourceCode?.trim().toLowerCase().slice(0, 2);
  if (given && /^[a-z]{2}$/.test(given)) return given;
  // The first paragraphs decide; the rest only costs time.
  const sample = text.slice(0, 1200);
  const code = franc(sample, { minLength: 20 });
  return ISO3_TO_1[code] ?? 'en';
}
