// The starter registry of public job boards: starter/job-boards.csv at the package root, compiled
// from lists other projects published (docs/data/boards.md). `leadbase bootstrap` registers them.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { SourceInput } from './registry.ts';

/** The list's place: two levels above this module, from src/sources/ and from dist/sources/ alike. */
export const STARTER_BOARDS_FILE = new URL('../../starter/job-boards.csv', import.meta.url);

/** Every board of the starter list as a source to register (type, token, and the company's name when the list gave one). */
export function starterBoards(file: URL | string = STARTER_BOARDS_FILE): SourceInput[] {
  const rows = parse<Record<string, string>>(readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true });
  return rows.map((row) => ({
    type: row.type,
    locator: row.locator,
    company_name: row.company_name || null,
    company_website: row.company_website || null,
  }));
}
