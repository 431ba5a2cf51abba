// A request's schema errors as the contract says them (docs/contract.md, Errors): the same words
// for a body Fastify refused and for a bulk row the bulk products refused, so a row's reason reads
// as the single call's 400 would.
import type { ErrorDetail } from './errors.ts';
import { NO_CONTROL_CHARACTERS } from '../contract/common.ts';

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

function validationDetails(errors: AjvError[]): ErrorDetail[] {
  return errors.map((e) => {
    let field = e.instancePath || '/';
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required' && typeof e.params.missingProperty === 'string') {
      // Ajv says "must have required property 'x'" of the object holding x; the field named is x
      // itself, so the sentence reads "job_title is required", not "job_title must have required property 'job_title'".
      field = `${e.instancePath}/${e.params.missingProperty}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties' && typeof e.params.additionalProperty === 'string') {
      field = `${e.instancePath}/${e.params.additionalProperty}`;
      message = 'is not a field of this request';
    } else if (e.keyword === 'pattern' && e.params.pattern === NO_CONTROL_CHARACTERS) {
      message = 'must not contain control characters';
    } else if (e.keyword === 'enum' || (e.keyword === 'const' && e.params.allowedValue !== undefined)) {
      const allowed = (e.params.allowedValues as unknown[]) ?? [e.params.allowedValue];
      message = `must be one of: ${allowed.join(', ')}`;
    }
    return { field, message };
  });
}

/** anyOf of literals reports one error per literal; fold them into one "must be one of" line. */
function foldLiteralUnions(errors: AjvError[]): AjvError[] {
  const byPath = new Map<string, AjvError[]>();
  for (const e of errors) byPath.set(e.instancePath, [...(byPath.get(e.instancePath) ?? []), e]);
  const out: AjvError[] = [];
  for (const [path, list] of byPath) {
    const consts = list.filter((e) => e.keyword === 'const');
    if (consts.length > 1 && list.some((e) => e.keyword === 'anyOf')) {
      out.push({ instancePath: path, keyword: 'enum', params: { allowedValues: consts.map((e) => e.params.allowedValue) } });
    } else {
      out.push(...list.filter((e) => e.keyword !== 'anyOf' || list.length === 1));
    }
  }
  return out;
}

/** A field's JSON path as a sentence names it: `/filters/0/title` is `filters[0].title`, the root is "body". */
function fieldName(path: string): string {
  if (path === '/' || path === '') return 'body';
  return path
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

/** A body's schema errors as our envelope says them: a message naming the first field, and every field's detail. */
export function schemaErrors(errors: AjvError[]): { message: string; details: ErrorDetail[] } {
  const details = validationDetails(foldLiteralUnions(errors));
  const first = details[0];
  const message = first ? `Invalid request: ${fieldName(first.field)} ${first.message}.` : 'Invalid request.';
  return { message, details };
}
