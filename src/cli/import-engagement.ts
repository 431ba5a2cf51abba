import type { Command } from 'commander';

/** Registers `leadbase import engagement …` (owned by the engagement domain). */
export function registerImportEngagement(_importCommand: Command): void {}
