// The docs stay findable: docs/README.md links every page under docs/, and data.md's
// endpoint-to-source table names every endpoint a customer can call.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { OPERATIONS } from '../../src/operations/catalogue.ts';

const DOCS = join(process.cwd(), 'docs');

function pagesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return pagesUnder(path);
    return entry.name.endsWith('.md') ? [relative(DOCS, path)] : [];
  });
}

describe('docs', () => {
  it('docs/README.md links every page of docs/', () => {
    const index = readFileSync(join(DOCS, 'README.md'), 'utf8');
    const linked = new Set([...index.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)].map((m) => m[1]));
    const unlinked = pagesUnder(DOCS).filter((page) => page !== 'README.md' && !linked.has(page));
    assert.deepEqual(unlinked, [], 'pages docs/README.md does not link');
    const broken = [...linked].filter((target) => !target.startsWith('..') && !target.endsWith('/') && !pagesUnder(DOCS).includes(target));
    assert.deepEqual(broken, [], 'links of docs/README.md to pages that do not exist');
  });

  it("data.md's endpoint table names every customer endpoint", () => {
    const data = readFileSync(join(DOCS, 'data.md'), 'utf8');
    const section = data.slice(data.indexOf('## Which endpoint answers from which source'), data.indexOf('## Running it'));
    const named = new Set([...section.matchAll(/`(\/[a-z0-9-]+)/g)].map((m) => m[1]));
    const endpoints = new Set(Object.values(OPERATIONS).map((op) => `/${op.path.split('/')[1]}`));
    const missing = [...endpoints].filter((endpoint) => !named.has(endpoint));
    assert.deepEqual(missing, [], 'endpoints the table does not name');
  });
});
