// Salaries: structured source fields first; otherwise the pay a posting's text states, as postings
// write it in several languages: "$120,000 - $150,000", "€60.000 – 75.000 brutto/Jahr",
// "45 000 € à 55 000 € par an", "CHF 100'000", "₹12,00,000", "15 LPA", "年収600万円〜800万円",
// "$25/hr", "Up to £60,000", "ab 55.000 €". Money that is not pay (a budget, a bonus, a stipend,
// a funding round) is never read as a salary.
export interface Salary {
  min: number | null;
  max: number | null;
  currency: string | null;
  /** The period the text states the amounts for, when it states one (amounts are never converted). */
  period?: SalaryPeriod;
}

export type SalaryPeriod = 'hour' | 'day' | 'week' | 'month' | 'year';

const SYMBOLS: Record<string, string> = {
  $: 'USD',
  US$: 'USD',
  USD$: 'USD',
  C$: 'CAD',
  CA$: 'CAD',
  CAD$: 'CAD',
  A$: 'AUD',
  AU$: 'AUD',
  AUD$: 'AUD',
  NZ$: 'NZD',
  S$: 'SGD',
  HK$: 'HKD',
  R$: 'BRL',
  MX$: 'MXN',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  円: 'JPY',
  '₹': 'INR',
  RS: 'INR',
  'RS.': 'INR',
  '₩': 'KRW',
  '₪': 'ILS',
  ZŁ: 'PLN',
  ZL: 'PLN',
  KČ: 'CZK',
  FR: 'CHF',
  'FR.': 'CHF',
  EURO: 'EUR',
  EUROS: 'EUR',
};
const CODES =
  'USD|EUR|GBP|CAD|AUD|NZD|CHF|SEK|NOK|DKK|ISK|PLN|CZK|HUF|RON|BGN|INR|JPY|CNY|RMB|SGD|HKD|KRW|BRL|MXN|ARS|CLP|COP|ZAR|ILS|AED|SAR|TRY|UAH|PHP|IDR|MYR|THB|VND';
const CODE_SET = new Set(CODES.split('|'));
/** Currencies whose salaries run into the millions (yen, rupees, won…): a higher ceiling. */
const LARGE_UNIT = new Set(['JPY', 'INR', 'KRW', 'IDR', 'VND', 'HUF', 'CLP', 'COP', 'ISK', 'ARS', 'PHP']);

/** A currency before or after an amount: symbols (with country prefixes), ISO codes, and local words. */
const CURRENCY = String.raw`(?:(?:\b(?:${CODES})\s?)?(?:(?:US|USD|C|CA|CAD|A|AU|AUD|NZ|S|HK|R|MX)\$|\$|€|£|¥|円|₹|₩|₪)|\b(?:${CODES})\b|\b(?:Rs\.?|zł|zl|Kč|Fr\.|kr\.?|[Ee]uros?|EUROS?)(?![\p{L}]))`;
/** 1,234,567 / 1.234.567 / 1 234 567 / 1'234'567 (with cents), Indian 12,00,000, or plain digits. */
const NUMBER = String.raw`(?:\d{1,2}(?:,\d{2})+,\d{3}|\d{1,3}(?:[.,'’\u00a0\u202f ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)`;
/** Thousands (k, K, Tsd, mil), Indian lakhs (L, lakh, LPA) and Japanese man (万). */
const SCALE = String.raw`(?:[kK](?![\p{L}])|Tsd\.?|tsd\.?|mil(?![\p{L}])|[Ll]akhs?|[Ll]acs?|L(?:PA)?(?![\p{L}])|LPA|万)`;
/** An amount with its currency on either side; Swiss ".–" (no cents) after it is part of it. */
const AMOUNT = String.raw`(${CURRENCY})?\s?(${NUMBER})(?:[.,][–-](?=\s|$))?\s?(${SCALE})?(?:\s?(${CURRENCY}))?`;
const BETWEEN = String.raw`\s*(?:-|–|—|~|〜|～|(?<![\p{L}])(?:to|To|TO|bis|à|a|y|and|und|et|en|til|till|tot|do|e|ate|até)(?![\p{L}]))\s*`;
const RANGE = new RegExp(`${AMOUNT}${BETWEEN}${AMOUNT}`, 'gu');
const SINGLE = new RegExp(AMOUNT, 'gu');

/** "kr" is money in Sweden, Norway, Denmark and Iceland alike: a salary, currency not known. */
const isKrona = (token: string | undefined) => !!token && /^kr\.?$/i.test(token);
const isLakhs = (scale: string | undefined) => !!scale && /^(?:L|lakh|lac)/i.test(scale);

/**
 * Where money is named: a currency mark, lakhs or man. The patterns below run only on the text
 * around these (most of a description names none), which keeps reading a description cheap. It is
 * looser and cheaper than CURRENCY (no Unicode mode): a window too many costs little.
 */
const ANCHOR = new RegExp(
  String.raw`[$€£¥円₹₩₪万]|\b(?:${CODES}|LPA)\b|\b(?:Rs|zł|zl|Kč|Fr|kr|[Ee]uros?|EUROS?|[Ll]akhs?|[Ll]acs?)(?![a-z])`,
  'g',
);
const MARGIN = 64;

/** The stretches of text around money marks, merged where they overlap, in order. */
function windowsOf(text: string): [number, number][] {
  const windows: [number, number][] = [];
  for (const mark of text.matchAll(ANCHOR)) {
    const start = Math.max(0, mark.index - MARGIN);
    const end = Math.min(text.length, mark.index + mark[0].length + MARGIN);
    const last = windows[windows.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else windows.push([start, end]);
  }
  return windows;
}

/** Words that may stand between an amount and its period: "per", "a", "brutto/Jahr", "par an", "/". */
const PERIOD_LEAD = String.raw`^[\s/]*(?:(?:per|pr|a|á|an|pro|par|por|al|all'|na|i|w|im|in|the|de|de l'|l'|brutto|bruto|brutos|brutas|bruttó|gross|net|netto|neto|netos|netti|brut|bruts|lordi|lordo|base|annual|annuel|anuales|base salary)[\s/.]+){0,3}`;
const PERIODS: [RegExp, SalaryPeriod][] = [
  [
    new RegExp(`${PERIOD_LEAD}(?:hours?|hrs?|h|hourly|stunde|std|heure|hora|ora|uur|godz\\w*|timme|time|l'heure)(?![\\p{L}])`, 'iu'),
    'hour',
  ],
  [new RegExp(`${PERIOD_LEAD}(?:day|days|daily|day rate|tag|tagessatz|jour|d[ií]a|giorno|dag)(?![\\p{L}])`, 'iu'), 'day'],
  [new RegExp(`${PERIOD_LEAD}(?:week|weekly|wk|woche|semaine|semana|settimana)(?![\\p{L}])`, 'iu'), 'week'],
  [
    new RegExp(
      `${PERIOD_LEAD}(?:month|months|monthly|mo|monat|monatlich|mtl\\.?|mois|mensuel\\w*|mes|m[eê]s|mensual\\w*|mensa\\w*|mese|mensil\\w*|maand|per maand|miesi[eę]c\\w*|månad|måned|mánuði|kuukausi|p\\.?m\\.?)(?![\\p{L}])`,
      'iu',
    ),
    'month',
  ],
  [
    new RegExp(
      `${PERIOD_LEAD}(?:year|years|yr|yearly|annum|annually|annual|jahr|j[aä]hrlich|jahresgehalt|an|année|annuel\\w*|anual\\w*|año|anno|annu[oi]|jaar|jaarlijks|rok|rocznie|år|vuosi|p\\.?\\s?a\\.?|pa|lpa|ral)(?![\\p{L}])`,
      'iu',
    ),
    'year',
  ],
];
/** Words before an amount that make it the top of the range ("up to £60,000") or its bottom ("from $80,000"). */
const UP_TO = /(?:up to|upto|max(?:imum)?\.?|bis zu|bis|jusqu'?[aà]|hasta|fino a|tot|maximaal|do|till|up till)\s*$/i;
const FROM =
  /(?:from|starting at|starting from|starts at|min(?:imum)?\.?|ab|à partir de|des de|desde|a partir de|da|vanaf|von|od|fra|fr[aå]n|at least)\s*$/i;
/** Words right before a single amount that say it is pay (a single amount with no period needs one). */
const PAY_WORD =
  /(?:salary|salaries|pay|paid|compensation|wage|wages|rate|base|ote|circa|ca\.|approx\w*|around|taux|horaire|gehalt|jahresgehalt|vergütung|verg[uü]tung|lohn|salaire|rémunération|r[ée]mun[ée]ration|sueldo|salario|retribuci[oó]n|stipendio|retribuzione|ral|salaris|loon|wynagrodzenie|pensja|lön|løn|lønn|palkka|年収|月給|給与|income|earn|earning|earnings)[^.\n;]{0,25}$/i;

/**
 * Money a posting names that is not pay: a budget, a stipend or allowance, a bonus, equity, a
 * relocation or sign-on amount, a referral reward, a funding round. Looked for in the words just
 * around an amount.
 */
const NOT_PAY =
  /\b(budget|stipend|allowance|bonus|bonuses|equity|stock|shares|rsus?|options|relocation|relocate|sign[- ]?on|signing|referral|reimburse\w*|learning|training|education|conference|wellness|wellbeing|gym|fitness|home[- ]office|equipment|voucher|vouchers|per diem|expenses?|contribution|pension|401k|insurance|meal|meals|lunch|commute|transport|weiterbildung\w*|zuschuss|pr[aä]mie|prime|primes|indemnit[ée]|ticket|tickets|presupuesto|ayuda|buono|budget formation|raised|raise|funding|funded|series|seed|valuation|revenue|arr|investment|investors?|customers|users|grant|prize|award|donation|fee|fees|deposit|cost|costs|price|discount|gift|phone|internet|mobile|coworking|childcare|travel|bike|car|parking|membership)\b/iu;

/**
 * Whether the words around `[start, end)` say the amount is something other than pay: up to six
 * words right after it, up to the first word that adds something to it ("£400 learning budget",
 * "$100/month for your phone"; "£50k plus bonus" is pay), or the four words right before it
 * ("learning budget of £400"), or a scale that makes it company money ("$50M").
 */
function isNotPay(text: string, start: number, end: number): boolean {
  const after = text.slice(end, end + 60).split(/[.;,\n(]/)[0];
  const before =
    text
      .slice(Math.max(0, start - 60), start)
      .split(/[.;,\n)]/)
      .pop() ?? '';
  // The words that qualify the amount end where something is added to it ("£50k plus bonus").
  const nextWords = after
    .trim()
    .split(/\s+/)
    .slice(0, 6)
    .join(' ')
    .split(/(?:^|\s)(?:\+|plus|and|with|&|incl\.?|including|zzgl\.?|inkl\.?|und|et|y|e|mais|plus)(?:\s|$)/i)[0];
  const adds = /^(\+|plus|and|with|&|incl|including|zzgl|inkl|excl|exkl|dependent|depending|doe|based|gross|brutto)/i.test(nextWords);
  const previousWords = before.trim().split(/\s+/).slice(-4).join(' ');
  // "$50M", "$1.2 billion": company money, not a salary.
  if (/^\s*(?:m|mm|mn|bn|b|million|millions|billion|billions|mio\.?|mrd\.?|milliard\w*|crore)(?![\p{L}])/iu.test(after)) return true;
  return (!adds && NOT_PAY.test(nextWords)) || NOT_PAY.test(previousWords.replace(/\b(?:base|salary|pay)\b.*$/i, ''));
}

function currencyOf(token: string | undefined): string | null {
  if (!token) return null;
  // "AUD $150,000", "GBP £55,000": the code says which dollar or pound.
  const code = /^([A-Z]{3})\s?\S/.exec(token);
  if (code && CODE_SET.has(code[1])) return code[1];
  const upper = token.toUpperCase();
  if (SYMBOLS[token] ?? SYMBOLS[upper]) return SYMBOLS[token] ?? SYMBOLS[upper];
  if (upper === 'RMB') return 'CNY';
  return CODE_SET.has(upper) ? upper : null;
}

/**
 * A written amount as a number: "85,000.00", "60.000", "1 234,50", "75'000", "12,00,000", "120k".
 * A separator followed by exactly three digits groups thousands ("€60.000" is sixty thousand); one
 * followed by one or two digits at the end marks the decimals.
 */
function amount(text: string, scale: string | undefined): number | null {
  const decimals = /[.,](\d{1,2})$/.exec(text);
  const whole = (decimals ? text.slice(0, decimals.index) : text).replace(/[.,\s'’\u00a0\u202f]/g, '');
  const n = Number(decimals ? `${whole}.${decimals[1]}` : whole);
  if (!Number.isFinite(n)) return null;
  if (!scale) return n;
  if (/^[kK]$|^tsd|^mil/i.test(scale)) return n * 1000;
  if (/^l|^lakh|^lac/i.test(scale)) return n * 100_000;
  if (scale === '万') return n * 10_000;
  return n;
}

/** Words just before an amount that give its period: "Hourly rate: $60", "Jahresgehalt 58.000 €", "年収600万円". */
const PERIOD_BEFORE: [RegExp, SalaryPeriod][] = [
  [/(?:hourly|per hour|stundenlohn|stundensatz|taux horaire|por hora|tarifa horaria|uurloon|timlön)[^.\n;]{0,20}$/i, 'hour'],
  [/(?:day rate|daily rate|per day|tagessatz|taux journalier|tarif journalier|tjm|dagtarief)[^.\n;]{0,20}$/i, 'day'],
  [
    /(?:monthly|per month|monatsgehalt|monatlich|salaire mensuel|mensual|mensile|maandsalaris|månadslön|miesięczne|月給|月収)[^.\n;]{0,25}$/i,
    'month',
  ],
  [
    /(?:annual|yearly|per year|per annum|jahresgehalt|jährlich|salaire annuel|brut annuel|anual|annuo|annua|\bral\b|jaarsalaris|årslön|roczne|年収|年俸)[^.\n;]{0,25}$/i,
    'year',
  ],
];

function periodAround(text: string, start: number, end: number): SalaryPeriod | undefined {
  const after = text.slice(end, end + 40);
  for (const [pattern, period] of PERIODS) if (pattern.test(after)) return period;
  const before = text.slice(Math.max(0, start - 40), start);
  for (const [pattern, period] of PERIOD_BEFORE) if (pattern.test(before)) return period;
  return undefined;
}

/** Amounts that can be pay for the period: an hourly rate from 5, anything else from 100 (10 with a "k"). */
function plausible(n: number | null, currency: string | null, period: SalaryPeriod | undefined, scaled: boolean): boolean {
  if (n === null) return false;
  const floor = period === 'hour' ? 5 : period === 'day' || period === 'week' ? 20 : scaled ? 10 : 100;
  const ceiling = currency && LARGE_UNIT.has(currency) ? 5_000_000_000 : 10_000_000;
  return n >= floor && n <= ceiling;
}

type Match = RegExpMatchArray & { index: number };

/** Every match of `pattern` in the windows, with its index in the whole text. */
function* matchesIn(text: string, windows: [number, number][], pattern: RegExp): Generator<Match> {
  for (const [start, end] of windows)
    for (const m of text.slice(start, end).matchAll(pattern) as IterableIterator<Match>) {
      m.index += start;
      yield m;
    }
}

/** The first pay range (else single amount said to be pay) the text states; amounts named as something else are passed over. */
export function parseSalaryText(text: string | null | undefined): Salary | null {
  if (!text) return null;
  const windows = windowsOf(text);
  if (!windows.length) return null;
  for (const range of matchesIn(text, windows, RANGE)) {
    const [whole, curA1, n1, s1, curA2, curB1, n2, s2, curB2] = range;
    const marks = [curA1, curA2, curB1, curB2];
    // An ISO code anywhere ("$100K - $120K CAD") says more than a bare dollar sign.
    const currencies = marks.map(currencyOf).filter((c): c is string => !!c);
    const currency =
      currencies.find((c, i) => c !== 'USD' || /USD|US\$/i.test(marks.filter(Boolean)[i] ?? '')) ??
      currencies[0] ??
      (isLakhs(s2) ? 'INR' : null);
    if (!currency && !marks.some(isKrona)) continue;
    const end = range.index + whole.length;
    if (isNotPay(text, range.index, end)) continue;
    // "€60–75k": the scale of the second amount applies to the first when the first has none.
    let min = amount(n1, s1);
    const max = amount(n2, s2);
    if (min !== null && max !== null && !s1 && s2 && min * 100 < max) min = amount(n1, s2);
    const period = periodAround(text, range.index, end) ?? (isLakhs(s2) ? 'year' : undefined);
    const scaled = !!(s1 || s2);
    if (plausible(min, currency, period, scaled) && plausible(max, currency, period, scaled) && min! <= max!)
      return { min, max, currency, ...(period ? { period } : {}) };
  }
  for (const single of matchesIn(text, windows, SINGLE)) {
    const [whole, cur1, n, scale, cur2] = single;
    const currency = currencyOf(cur1) ?? currencyOf(cur2) ?? (isLakhs(scale) ? 'INR' : null);
    if (!currency && !isKrona(cur1) && !isKrona(cur2)) continue;
    const end = single.index + whole.length;
    if (isNotPay(text, single.index, end)) continue;
    const before = text.slice(Math.max(0, single.index - 40), single.index);
    // "$100k+" is a floor; "+ super", "+ bonus", "+ VAT" add something else to the amount.
    const plus = /^\s*\+(?!\s*(?:bonus|equity|benefits|commission|super|vat|mwst|ust|tva|iva|stock|shares|\d))/i.test(
      text.slice(end, end + 16),
    );
    const period = periodAround(text, single.index, end) ?? (isLakhs(scale) ? 'year' : undefined);
    const upTo = UP_TO.test(before);
    const from = FROM.test(before) || plus;
    if (!period && !upTo && !from && !PAY_WORD.test(before)) continue;
    const value = amount(n, scale);
    if (!plausible(value, currency, period, !!scale)) continue;
    return {
      min: upTo ? null : value,
      max: from && !upTo ? null : value,
      currency,
      ...(period ? { period } : {}),
    };
  }
  return null;
}
