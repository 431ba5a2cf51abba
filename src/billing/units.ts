// Credits are held as integer millicredits so that 0.05 credit is exactly 50 units.
export const UNITS_PER_CREDIT = 1000;

/** Whole or fractional credits (as an operator types them) to integer units; rejects sub-unit precision. */
export function creditsToUnits(credits: number | string): number {
  const text = String(credits).trim();
  if (!/^\d+(\.\d{1,3})?$/.test(text)) {
    throw new Error(`credits must be a non-negative number with at most 3 decimals, got "${text}"`);
  }
  const [whole, fraction = ''] = text.split('.');
  const units = Number(whole) * UNITS_PER_CREDIT + Number(fraction.padEnd(3, '0'));
  if (!Number.isSafeInteger(units)) throw new Error(`credits amount too large: ${text}`);
  return units;
}

/** Integer units to the JSON number clients see (50 → 0.05). */
export function unitsToCredits(units: number): number {
  return units / UNITS_PER_CREDIT;
}
