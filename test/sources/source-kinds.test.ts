// One source-kind interface (src/sources/kind.ts) and one list of kinds (src/sources/kinds/index.ts):
// every type the registry accepts is exactly one kind, and the code that runs, schedules, checks and
// bootstraps sources asks the kind instead of branching on a type, so a new kind is one folder.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SOURCE_KINDS } from '../../src/sources/kinds/index.ts';
import { normalizeLocator, SOURCE_TYPES, SourceInputError } from '../../src/sources/registry.ts';

const SOURCES = join(process.cwd(), 'src', 'sources');

describe('source kinds', () => {
  it('every type the registry accepts is exactly one kind, listed under its own type', () => {
    assert.deepEqual([...SOURCE_TYPES].sort(), Object.keys(SOURCE_KINDS).sort());
    assert.equal(new Set(SOURCE_TYPES).size, SOURCE_TYPES.length);
    for (const [type, kind] of Object.entries(SOURCE_KINDS)) {
      assert.equal(kind.type, type, `${type} is listed under its own type`);
      assert.ok(['board', 'feed', 'data-set'].includes(kind.family), `${type} has a family`);
      assert.ok(kind.defaultIntervalMs >= 60_000, `${type} runs at most once a minute by default`);
    }
    assert.throws(() => normalizeLocator('no_such_kind', 'x'), SourceInputError);
  });

  it('the runner has no per-type branch; the scheduler, the registry, bootstrap and status name no type', () => {
    const linesOf = (file: string) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${file}:${i + 1}` }));
    const runner = linesOf(join(SOURCES, 'runner.ts')).filter(({ line }) =>
      /\btype\s*[!=]==|[!=]==\s*[\w.]*\btype\b|\bin\s+[A-Z_]+KINDS/.test(line),
    );
    const types = Object.keys(SOURCE_KINDS).join('|');
    const literal = new RegExp(`\\btype\\s*[!=]==\\s*'|'(${types})'`);
    const others = ['scheduler.ts', 'registry.ts', 'bootstrap.ts', 'bootstrap-runs.ts']
      .map((f) => join(SOURCES, f))
      .concat(join(process.cwd(), 'src', 'platform', 'status.ts'))
      .flatMap(linesOf)
      .filter(({ line }) => literal.test(line));
    assert.deepEqual(
      [...runner, ...others].map(({ at, line }) => `${at}: ${line.trim()}`),
      [],
    );
  });

  it('each kind is a folder of src/sources/kinds, beside the list and what the data sets share', () => {
    const kinds = join(SOURCES, 'kinds');
    const loose = readdirSync(kinds, { withFileTypes: true })
      .filter((e) => !e.isDirectory())
      .map((e) => e.name)
      .filter((name) => name !== 'index.ts' && name !== 'upstream.ts');
    assert.deepEqual(loose, []);
  });

  it('only the kinds read sources with the job connectors or the feed importer', () => {
    const offences = readdirSync(SOURCES, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => join(e.parentPath, e.name))
      .filter((file) => !file.startsWith(join(SOURCES, 'kinds')))
      .filter((file) => /ingest\/(jobs\/index|companies\/feed-import)\.ts'/.test(readFileSync(file, 'utf8')));
    assert.deepEqual(offences, []);
  });
});
