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

export const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());
