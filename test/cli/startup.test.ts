// What `leadbase --help`, `leadbase status` and `leadbase keys list` load: only the command line,
// the database and what the command reads, never the server, the services or the importers. Their
// speed is this (bench/cli.bench.ts measures the CPU); asserting on time would be flaky on a busy
// machine, asserting on what is loaded is not. A loader hook records every module the command loads.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LEADBASE_BIN } from '../support/cli.ts';

/** Modules none of the three commands needs: each is a large part of a start-up, or pulls one in. */
const HEAVY = [
  /\/node_modules\/fastify\//,
  /\/node_modules\/@sinclair\/typebox\//,
  /\/node_modules\/pg-boss\//,
  /\/node_modules\/socks\//,
  /\/node_modules\/csv-parse\//,
  /\/node_modules\/fast-xml-parser\//,
  /\/(src|dist)\/services\.(ts|js)$/,
  /\/(src|dist)\/server\.(ts|js)$/,
  /\/(src|dist)\/http\//,
  /\/(src|dist)\/ingest\//,
  /\/(src|dist)\/sources\//,
  /\/(src|dist)\/(companies|jobs|people)\//,
  /\/(src|dist)\/email\/service\.(ts|js)$/,
  /\/(src|dist)\/db\/migrate\.(ts|js)$/,
  /\/(src|dist)\/db\/migrations\//,
];

describe('leadbase starts light', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let register: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'leadbase-startup-'));
    env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, LOG_LEVEL: 'silent', REDIS_URL: '' };
    // The hook sees every module loaded through import (ours, and each package's entry).
    writeFileSync(
      join(dir, 'hook.mjs'),
      `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_MODULES_FILE, url + '\\n');
  return next(url, context);
}
`,
    );
    register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hook.mjs')).href)});\n`,
    );
    const migrated = spawnSync(process.execPath, [LEADBASE_BIN, 'migrate'], { env, encoding: 'utf8' });
    assert.equal(migrated.status, 0, migrated.stderr);
    const created = spawnSync(process.execPath, [LEADBASE_BIN, 'keys', 'create', '--name', 'a'], { env, encoding: 'utf8' });
    assert.equal(created.status, 0, created.stderr);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const loadedBy = (...args: string[]) => {
    const file = join(dir, `loaded-${args.join('-')}.txt`);
    writeFileSync(file, '');
    const res = spawnSync(process.execPath, ['--import', register, LEADBASE_BIN, ...args], {
      env: { ...env, LOADED_MODULES_FILE: file },
      encoding: 'utf8',
    });
    assert.equal(res.status, 0, `${args.join(' ')}: ${res.stderr}`);
    return { stdout: res.stdout, modules: readFileSync(file, 'utf8').split('\n').filter(Boolean) };
  };

  for (const args of [['--help'], ['status'], ['keys', 'list']]) {
    it(`leadbase ${args.join(' ')} loads neither the server, nor the services, nor the importers`, () => {
      const { stdout, modules } = loadedBy(...args);
      assert.ok(stdout.length > 0);
      assert.ok(
        modules.some((url) => /\/(src|dist)\/cli\/main\.(ts|js)$/.test(url)),
        'the hook saw the command load',
      );
      const heavy = modules.filter((url) => HEAVY.some((pattern) => pattern.test(url)));
      assert.deepEqual(heavy, [], `leadbase ${args.join(' ')} loaded heavy modules`);
    });
  }

  it('--help lists every command without loading any command module', () => {
    const { stdout, modules } = loadedBy('--help');
    for (const name of ['serve', 'keys', 'sources', 'bootstrap', 'status', 'import', 'validate', 'mcp'])
      assert.match(stdout, new RegExp(`^  ${name}\\b`, 'm'));
    assert.deepEqual(
      modules.filter((url) => /\/cli\/(?!main\.)/.test(url)),
      [],
    );
  });
});
