#!/usr/bin/env node
// Writes the typed client's types (src/client/openapi-types.ts) from the API's OpenAPI document.
// `npm run client:generate` after a contract change; test/client/types.test.ts fails until then.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientTypesSource, CLIENT_TYPES_FILE } from './client-types.mjs';

const path = join(process.cwd(), CLIENT_TYPES_FILE);
writeFileSync(path, await clientTypesSource());
console.log(`wrote ${CLIENT_TYPES_FILE}`);
