// The layering docs/architecture.md describes, checked on the imports themselves: a change that
// breaks it fails here rather than in review.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const SRC = join(process.cwd(), 'src');
const DOMAINS = ['audit', 'billing', 'bulk', 'companies', 'email', 'jobs', 'keys', 'lookups', 'people'];
/** Every folder of src/ by its layer, so that a new folder is placed (and checked) before it lands. */
const LAYERS: Record<string, string[]> = {
  domains: DOMAINS,
  surfaces: ['http', 'mcp', 'cli', 'client'],
  catalogue: ['operations', 'contract'],
  data: ['ingest', 'sources'],
  infrastructure: ['db', 'queue', 'net', 'csv', 'platform'],
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a file imports (static, dynamic and type-only), as a path under src/ or a package name. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]);
  return specs.map((spec) => (spec.startsWith('.') ? relative(SRC, normalize(join(dirname(file), spec))) : spec));
}

const files = filesUnder(SRC).map((file) => ({ file: relative(SRC, file), imports: importsOf(file) }));
const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

describe('layering', () => {
  it('domains never import the HTTP layer, the importers or the CLI', () => {
    const offences = files
      .filter((f) => DOMAINS.some((d) => under(f.file, d)))
      .flatMap((f) => f.imports.filter((i) => ['http', 'ingest', 'cli'].some((layer) => under(i, layer))).map((i) => `${f.file} -> ${i}`));
    assert.deepEqual(offences, []);
  });

  it('the HTTP layer never imports the importers or the CLI, and domains never import fastify', () => {
    const offences = files.flatMap((f) => {
      if (under(f.file, 'http')) return f.imports.filter((i) => under(i, 'ingest') || under(i, 'cli')).map((i) => `${f.file} -> ${i}`);
      if (DOMAINS.some((d) => under(f.file, d)))
        return f.imports.filter((i) => i === 'fastify' || i.startsWith('@fastify/')).map((i) => `${f.file} -> ${i}`);
      return [];
    });
    assert.deepEqual(offences, []);
  });

  it('the importers never import the HTTP layer or the CLI', () => {
    const offences = files
      .filter((f) => under(f.file, 'ingest'))
      .flatMap((f) => f.imports.filter((i) => under(i, 'http') || under(i, 'cli')).map((i) => `${f.file} -> ${i}`));
    assert.deepEqual(offences, []);
  });

  it('the sources registry and crawls never import the HTTP layer or the CLI; outbound safety (net) imports no domain', () => {
    const offences = files.flatMap((f) => {
      if (under(f.file, 'sources')) return f.imports.filter((i) => under(i, 'http') || under(i, 'cli')).map((i) => `${f.file} -> ${i}`);
      if (under(f.file, 'net'))
        return f.imports
          .filter((i) => [...DOMAINS, 'http', 'cli', 'ingest', 'sources'].some((d) => under(i, d)))
          .map((i) => `${f.file} -> ${i}`);
      return [];
    });
    assert.deepEqual(offences, []);
  });

  it('the MCP server reaches the data only through the API (its operations), never a domain, the database or the CLI', () => {
    const offences = files
      .filter((f) => under(f.file, 'mcp'))
      .flatMap((f) =>
        f.imports.filter((i) => [...DOMAINS, 'db', 'ingest', 'cli', 'sources'].some((d) => under(i, d))).map((i) => `${f.file} -> ${i}`),
      );
    assert.deepEqual(offences, []);
  });

  it('the operations (src/operations) import no surface: never src/http, src/mcp, the CLI, fastify or the composition root', () => {
    const offences = files
      .filter((f) => under(f.file, 'operations'))
      .flatMap((f) =>
        f.imports
          .filter(
            (i) =>
              ['http', 'mcp', 'cli'].some((layer) => under(i, layer)) ||
              i === 'services.ts' ||
              i === 'fastify' ||
              i.startsWith('@fastify/'),
          )
          .map((i) => `${f.file} -> ${i}`),
      );
    assert.deepEqual(offences, []);
  });

  it('the composition root (src/services.ts) imports no module of src/http', () => {
    const offences = files
      .filter((f) => f.file === 'services.ts')
      .flatMap((f) => f.imports.filter((i) => under(i, 'http')).map((i) => `${f.file} -> ${i}`));
    assert.deepEqual(offences, []);
  });

  it('the surfaces (src/http, src/mcp) read the operations from src/operations, and never each other', () => {
    // The one exception today: /mcp is MCP's Streamable HTTP transport, a route that hands each
    // request to the MCP server. Any other import between the two surfaces is an offence.
    const allowed = ['http/routes/mcp.ts -> mcp/server.ts', 'http/routes/mcp.ts -> mcp/tools.ts'];
    const offences = files.flatMap((f) => {
      if (under(f.file, 'http')) return f.imports.filter((i) => under(i, 'mcp')).map((i) => `${f.file} -> ${i}`);
      if (under(f.file, 'mcp')) return f.imports.filter((i) => under(i, 'http')).map((i) => `${f.file} -> ${i}`);
      return [];
    });
    assert.deepEqual(
      offences.filter((o) => !allowed.includes(o)),
      [],
    );
    // An exception no longer needed is removed from the list rather than left to hide a new one.
    assert.deepEqual(
      allowed.filter((o) => !offences.includes(o)),
      [],
    );
    for (const surface of ['http', 'mcp'])
      assert.ok(
        files.some((f) => under(f.file, surface) && f.imports.some((i) => under(i, 'operations'))),
        `${surface} reads the operations from src/operations`,
      );
  });

  it('every folder of src/ belongs to a layer, and the src/ root holds entry points only', () => {
    const placed = Object.values(LAYERS).flat();
    const entries = readdirSync(SRC, { withFileTypes: true });
    const unplaced = entries.filter((e) => e.isDirectory() && !placed.includes(e.name)).map((e) => e.name);
    assert.deepEqual(unplaced, [], 'folders of src/ no layer names: add them to LAYERS and to docs/architecture.md');
    const rootFiles = entries.filter((e) => e.isFile()).map((e) => e.name);
    assert.deepEqual(rootFiles.sort(), ['server.ts', 'services.ts'], 'cross-cutting helpers go to src/platform/');
  });

  it('the platform helpers import no surface, importer, source or operation', () => {
    const offences = files
      .filter((f) => under(f.file, 'platform'))
      .flatMap((f) =>
        f.imports
          .filter((i) => ['http', 'mcp', 'cli', 'ingest', 'sources', 'operations'].some((layer) => under(i, layer)) || i === 'services.ts')
          .map((i) => `${f.file} -> ${i}`),
      );
    assert.deepEqual(offences, []);
  });

  it('no import cycles: no module reaches itself through its imports (type-only imports count)', () => {
    const graph = new Map(files.map((f) => [f.file, f.imports.filter((i) => i.endsWith('.ts'))]));
    // Tarjan's strongly connected components: every component of more than one module is a cycle.
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    const visit = (module: string): void => {
      index.set(module, next);
      low.set(module, next);
      next += 1;
      stack.push(module);
      onStack.add(module);
      for (const target of graph.get(module) ?? []) {
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          visit(target);
          low.set(module, Math.min(low.get(module)!, low.get(target)!));
        } else if (onStack.has(target)) low.set(module, Math.min(low.get(module)!, index.get(target)!));
      }
      if (low.get(module) !== index.get(module)) return;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== module);
      if (component.length > 1) cycles.push(component.sort());
    };
    for (const module of graph.keys()) if (!index.has(module)) visit(module);
    assert.deepEqual(cycles, []);
  });
});
