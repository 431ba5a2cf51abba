import type { Command } from 'commander';

/** Registers `leadbase import jobs …` (owned by the jobs domain). */
export function registerImportJobs(_importCommand: Command): void {}
