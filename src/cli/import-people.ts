import type { Command } from 'commander';

/** Registers `leadbase import people …` (owned by the people domain). */
export function registerImportPeople(_importCommand: Command): void {}
