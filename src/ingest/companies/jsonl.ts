// Our own company format: one JSON object per line, the CompanyInput shape (docs/companies.md).
import { COMPANY_INPUT_FIELDS } from '../../companies/input.ts';
import type { Line } from './lines.ts';
import type { SourceRecord } from './runner.ts';

const KNOWN = new Set<string>(COMPANY_INPUT_FIELDS);

/**
 * Parses JSONL lines into company records; blank lines and lines starting with "#" are skipped.
 * Keys no field of ours reads are added to `unread` (for the summary).
 */
export async function* parseCompanyJsonl(lines: AsyncIterable<Line>, unread?: Set<string>): AsyncIterable<SourceRecord> {
  for await (const { number, text } of lines) {
    const trimmed = text.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      yield { line: number, error: `not valid JSON: ${(error as Error).message}` };
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield { line: number, error: 'each line must be a JSON object' };
      continue;
    }
    if (unread) for (const key in value) if (!KNOWN.has(key)) unread.add(key);
    yield { line: number, input: value };
  }
}
