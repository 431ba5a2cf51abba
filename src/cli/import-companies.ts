import type { Command } from 'commander';

/** Registers `leadbase import companies …` (owned by the companies domain). */
export function registerImportCompanies(_importCommand: Command): void {}
