// Argument parsers shared by the commands (light: loaded for every command, including --help).
import { InvalidArgumentError } from 'commander';
import { creditsToUnits } from '../billing/units.ts';

export function positiveId(value: string): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw new InvalidArgumentError('must be a key id (a positive whole number)');
  return id;
}

export function credits(value: string): number {
  try {
    return creditsToUnits(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** A whole-number option from 0 to `max`; `fallback` when it is not given. */
export function positiveInt(value: string | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  // A plain error: thrown from an action, it is printed as one line (a commander error would not be).
  if (!Number.isSafeInteger(n) || n < 0 || n > max) throw new Error(`${name} must be a whole number from 0 to ${max}`);
  return n;
}

export const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());
