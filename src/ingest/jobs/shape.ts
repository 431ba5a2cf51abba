// A connector reads only its own source's payload: anything else (another ATS's response, a single
// posting's detail, an error body, an HTML page) is refused with a clear error, never read as a
// board with no postings, which would expire every listing of the board.
import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';

/** A payload that is not the shape the source's board API returns. */
export class PayloadShapeError extends Error {}

const checks = new WeakMap<TSchema, TypeCheck<TSchema>>();

/** What a refused payload looks like, in a few words. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length} ${value.length === 1 ? 'item' : 'items'}`;
  if (value === null || typeof value !== 'object') return `a ${value === null ? 'null' : typeof value} value`;
  const record = value as Record<string, unknown>;
  for (const key of ['error', 'errors', 'message']) {
    if (key in record) {
      const said = typeof record[key] === 'string' ? record[key] : JSON.stringify(record[key]);
      return `an error response (${key}: ${String(said).slice(0, 200)})`;
    }
  }
  const keys = Object.keys(record);
  return keys.length ? `an object with ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}` : 'an empty object';
}

/**
 * The payload parsed as JSON and checked against `schema` (the fields the connector needs; others
 * may be there). `expected` says in words what the source returns, for the error.
 */
export function readJsonPayload<T extends TSchema>(source: string, text: string, schema: T, expected: string): Static<T> {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const start = text.trimStart().slice(0, 1);
    const what = start === '<' ? 'an HTML or XML document' : `not JSON (${(error as Error).message})`;
    throw new PayloadShapeError(`not a ${source} board response: expected ${expected}; the payload is ${what}`);
  }
  let check = checks.get(schema);
  if (!check) checks.set(schema, (check = TypeCompiler.Compile(schema)));
  if (!check.Check(value)) {
    const first = check.Errors(value).First();
    const where = first ? ` (at ${first.path || '/'}: ${first.message})` : '';
    throw new PayloadShapeError(`not a ${source} board response: expected ${expected}; found ${describe(value)}${where}`);
  }
  return value;
}
