#!/usr/bin/env node
// The `leadbase` command. It runs the compiled build (dist/, made by `npm install` through the
// "prepare" script) when that build is as new as every source file, which starts in a fraction of
// the time; otherwise (a source edited since, or no build) it runs the TypeScript sources via tsx.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIsFresh } from '../scripts/build-state.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

let main;
if (process.env.LEADBASE_FROM_SOURCE !== '1' && buildIsFresh(root)) {
  ({ main } = await import(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
await main(process.argv);
