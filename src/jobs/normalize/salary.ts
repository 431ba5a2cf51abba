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

function amount(text: string, suffix: string | undefined): number | null {
  const n = Number(text.replace(/[,\s']/g, ''));
  if (!Number.isFinite(n)) return null;
  return suffix && /k/i.test(suffix) ? n * 1000 : n;
}

const CURRENCY = String.raw`(US\$|C\$|CA\$|A\$|AU\$|R\$|[$€£¥₹]|\b(?:USD|EUR|GBP|CAD|AUD|CHF|SEK|NOK|DKK|PLN|INR|JPY|BRL|MXN|SGD|NZD|ZAR|ILS|AED|CZK|HUF|RON)\b)`;
const NUMBER = String.raw`(\d{1,3}(?:[,\s']\d{3})+|\d+(?:\.\d+)?)\s*([kK])?`;
const RANGE = new RegExp(`${CURRENCY}\\s?${NUMBER}\\s*(?:-|–|—|to|bis)\\s*${CURRENCY}?\\s?${NUMBER}(?:\\s*(USD|EUR|GBP|CAD|AUD|CHF))?`);
const SINGLE = new RegExp(`${CURRENCY}\\s?${NUMBER}\\s*(?:per year|/\\s*year|annually|a year|p\\.?a\\.?|/yr)`, 'i');

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

export function parseSalaryText(text: string | null | undefined): Salary | null {
  if (!text || !CURRENCY_THEN_DIGIT.test(text)) return null;
  const range = RANGE.exec(text);
  if (range) {
    const [, cur1, n1, k1, cur2, n2, k2, cur3] = range;
    let min = amount(n1, k1 ?? k2);
    const max = amount(n2, k2);
    if (min !== null && max !== null && min < 1000 && max >= 1000 && !k1 && k2) min *= 1000;
    if (plausible(min) && plausible(max) && min! <= max!)
      return { min, max, currency: currencyOf(cur1) ?? currencyOf(cur2) ?? currencyOf(cur3) };
  }
  const single = SINGLE.exec(text);
  if (single) {
    const value = amount(single[2], single[3]);
    if (plausible(value)) return { min: value, max: value, currency: currencyOf(single[1]) };
  }
  return null;
}
