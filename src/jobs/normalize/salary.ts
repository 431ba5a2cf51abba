// Salary ranges: structured source fields first; otherwise a range stated in the text
// ("$120,000 - $150,000", "€60k–€75k", "USD 90000 to 110000 per year", "£45,000").
export interface Salary {
  min: number | null;
  max: number | null;
  currency: string | null;
}

const SYMBOLS: Record<string, string> = {
  $: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  C$: 'CAD',
  A$: 'AUD',
  CA$: 'CAD',
  AU$: 'AUD',
  US$: 'USD',
  R$: 'BRL',
  CHF: 'CHF',
};
const CODES = new Set([
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'AUD',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'INR',
  'JPY',
  'BRL',
  'MXN',
  'SGD',
  'NZD',
  'ZAR',
  'ILS',
  'AED',
  'CZK',
  'HUF',
  'RON',
]);

/**
 * A written amount as a number: "85,000.00", "60.000", "1 234,50", "75'000", "120k". A separator
 * followed by exactly three digits groups thousands ("€60.000" is sixty thousand); one followed by
 * one or two digits at the end marks the decimals.
 */
function amount(text: string, suffix: string | undefined): number | null {
  const decimals = /[.,](\d{1,2})$/.exec(text);
  const whole = (decimals ? text.slice(0, decimals.index) : text).replace(/[.,\s']/g, '');
  const n = Number(decimals ? `${whole}.${decimals[1]}` : whole);
  if (!Number.isFinite(n)) return null;
  return suffix && /k/i.test(suffix) ? n * 1000 : n;
}

/**
 * Money a posting names that is not pay: a budget, a stipend or allowance, a bonus, equity, a
 * relocation or sign-on amount, a referral reward. Looked for in the words just around an amount.
 */
const NOT_PAY =
  /\b(budget|stipend|allowance|bonus|equity|stock|shares|relocation|relocate|sign[- ]?on|signing|referral|reimburse\w*|learning|training|education|conference|wellness|wellbeing|gym|fitness|home[- ]office|equipment|voucher|per diem|expenses?|contribution|pension|401k|insurance|weiterbildung|zuschuss|pr[aä]mie|budget formation)\b/i;

/**
 * Whether the words around `[start, end)` say the amount is something other than pay: the three
 * words right after it ("£400 learning budget", "$1,000 relocation bonus") unless they add to it
 * ("£50k plus bonus" is pay), or the four words right before it ("learning budget of £400").
 */
function isNotPay(text: string, start: number, end: number): boolean {
  const after = text.slice(end, end + 60).split(/[.;,\n(]/)[0];
  const before =
    text
      .slice(Math.max(0, start - 60), start)
      .split(/[.;,\n)]/)
      .pop() ?? '';
  const nextWords = after.trim().split(/\s+/).slice(0, 3).join(' ');
  const adds = /^(\+|plus|and|with|&|incl|including|zzgl|inkl|\/)/i.test(nextWords);
  const previousWords = before.trim().split(/\s+/).slice(-4).join(' ');
  return (!adds && NOT_PAY.test(nextWords)) || NOT_PAY.test(previousWords);
}

const CURRENCY = String.raw`(US\$|C\$|CA\$|A\$|AU\$|R\$|[$€£¥₹]|\b(?:USD|EUR|GBP|CAD|AUD|CHF|SEK|NOK|DKK|PLN|INR|JPY|BRL|MXN|SGD|NZD|ZAR|ILS|AED|CZK|HUF|RON)\b)`;
const NUMBER = String.raw`(\d{1,3}(?:[.,\s']\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)\s*([kK])?`;
const RANGE = new RegExp(
  `${CURRENCY}\\s?${NUMBER}\\s*(?:-|–|—|to|bis)\\s*${CURRENCY}?\\s?${NUMBER}(?:\\s*(USD|EUR|GBP|CAD|AUD|CHF))?`,
  'g',
);
const SINGLE = new RegExp(`${CURRENCY}\\s?${NUMBER}\\s*(?:per year|/\\s*year|annually|a year|p\\.?a\\.?|/yr)`, 'gi');

function currencyOf(token: string | undefined): string | null {
  if (!token) return null;
  const upper = token.toUpperCase();
  return SYMBOLS[token] ?? SYMBOLS[upper] ?? (CODES.has(upper) ? upper : null);
}

/** A plausible yearly or hourly range: tiny numbers without a "k" are not salaries. */
function plausible(n: number | null): boolean {
  return n !== null && n >= 10 && n <= 10_000_000;
}

// Both patterns need an amount right after a currency: a symbol, or a three-letter code (any case
// for SINGLE) at a word start, then at most one space. Text without that is settled by this scan.
const CURRENCY_THEN_DIGIT = /(?:[$€£¥₹]|\b[A-Za-z]{3})\s?\d/;

/** The first pay range (else single yearly amount) the text states; amounts named as something else are passed over. */
export function parseSalaryText(text: string | null | undefined): Salary | null {
  if (!text || !CURRENCY_THEN_DIGIT.test(text)) return null;
  for (const range of text.matchAll(RANGE)) {
    if (isNotPay(text, range.index, range.index + range[0].length)) continue;
    const [, cur1, n1, k1, cur2, n2, k2, cur3] = range;
    let min = amount(n1, k1 ?? k2);
    const max = amount(n2, k2);
    if (min !== null && max !== null && min < 1000 && max >= 1000 && !k1 && k2) min *= 1000;
    if (plausible(min) && plausible(max) && min! <= max!)
      return { min, max, currency: currencyOf(cur1) ?? currencyOf(cur2) ?? currencyOf(cur3) };
  }
  for (const single of text.matchAll(SINGLE)) {
    if (isNotPay(text, single.index, single.index + single[0].length)) continue;
    const value = amount(single[2], single[3]);
    if (plausible(value)) return { min: value, max: value, currency: currencyOf(single[1]) };
  }
  return null;
}
