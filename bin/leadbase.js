#!/usr/bin/env node
// The `leadbase` command. It runs the compiled build (dist/, made by `npm install` through the
// "prepare" script) when that build is as new as every source file, which starts in a fraction of
// the time; otherwise (a source edited since, or no build) it runs the TypeScript sources via tsx.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function freshBuild() {
  if (process.env.LEADBASE_FROM_SOURCE === '1') return false;
  try {
    const { newestSource } = JSON.parse(readFileSync(join(root, 'dist', 'build.json'), 'utf8'));
    return newestUnder(join(root, 'src')) <= newestSource;
  } catch {
    return false;
  }
}

let main;
if (freshBuild()) {
  ({ main } = await import(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
await main(process.argv);
