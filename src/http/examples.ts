// The request and response examples of the OpenAPI document, recorded from real answers: the test
// suite's sample world answering each operation (`npm run openapi:examples` records them;
// test/http/openapi-examples.test.ts fails when an answer no longer matches its example).
import { readFileSync } from 'node:fs';

export interface OperationExample {
  request?: Record<string, unknown>;
  response: unknown;
}

/** By "METHOD /path" (our paths and the v1 paths). */
export const EXAMPLES = JSON.parse(readFileSync(new URL('./openapi-examples.json', import.meta.url), 'utf8')) as Record<
  string,
  OperationExample | undefined
>;
