// Our own company format: one JSON object per line, the CompanyInput shape (docs/companies.md).
import type { Line } from './lines.ts';
import type { SourceRecord } from './runner.ts';

/** Parses JSONL lines into company records; blank lines and lines starting with "#" are skipped. */
export async function* parseCompanyJsonl(lines: AsyncIterable<Line>): AsyncIterable<SourceRecord> {
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
    yield { line: number, input: value };
  }
}
