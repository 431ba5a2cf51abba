// Money as the funding endpoint writes it, and money text as sources write it.

const SCALES: [number, string][] = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/**
 * An abbreviated US-dollar amount: 2_200_000_000 → "$2.2B", 15_000_000 → "$15M", 950 → "$950".
 * One decimal at most, trailing ".0" dropped; a value that would round to 1000 of a unit moves up.
 */
export function formatMoneyShort(amount: number | null | undefined): string | null {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return null;
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  for (let i = 0; i < SCALES.length; i++) {
    const [scale, suffix] = SCALES[i];
    if (abs >= scale) {
      const value = Math.round((abs / scale) * 10) / 10;
      if (value >= 1000 && i > 0) {
        const [upScale, upSuffix] = SCALES[i - 1];
        return `${sign}$${trim(Math.round((abs / upScale) * 10) / 10)}${upSuffix}`;
      }
      return `${sign}$${trim(value)}${suffix}`;
    }
  }
  return `${sign}$${trim(Math.round(abs))}`;
}

const trim = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

const CURRENCY = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** A full currency amount: 25000000 → "$25,000,000". */
export function formatCurrency(amount: number | null | undefined, currency = 'USD'): string | null {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return null;
  if (currency && currency !== 'USD') {
    try {
      return new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 0 }).format(amount);
    } catch {
      return `${CURRENCY.format(amount).replace('$', '')} ${currency}`;
    }
  }
  return CURRENCY.format(amount);
}

const WORD_SCALES: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mm: 1e6,
  mn: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  t: 1e12,
  trillion: 1e12,
};

/** Parses "$2.2B", "2,500,000", "USD 15 million", "1.5bn" into a number; null when it is not an amount. */
export function parseMoney(text: string): number | null {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/^(usd|us\$|\$)\s*/, '')
    .replace(/\s*(usd|dollars)$/, '')
    .replace(/,/g, '');
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/.exec(t);
  if (!m) return null;
  const value = Number(m[1]);
  if (!m[2]) return value;
  const scale = WORD_SCALES[m[2]];
  return scale === undefined ? null : value * scale;
}
