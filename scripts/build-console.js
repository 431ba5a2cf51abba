#!/usr/bin/env node
// Bundles the console (console/) into dist/console with esbuild: one minified script, one style
// sheet and the page, served by the API server at /console. Run by scripts/build.js (the `prepare`
// step) and by the console's tests. Usage: node scripts/build-console.js [output folder]
import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'dist', 'console'));

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.log('leadbase build: esbuild is not installed; the console is not built (/console answers 503)');
  process.exit(0);
}

mkdirSync(out, { recursive: true });
await esbuild.build({
  entryPoints: [join(root, 'console', 'main.js')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  outfile: join(out, 'app.js'),
  legalComments: 'linked',
  logLevel: 'warning',
});
await esbuild.build({
  entryPoints: [join(root, 'console', 'app.css')],
  bundle: true,
  minify: true,
  outfile: join(out, 'app.css'),
  logLevel: 'warning',
});
copyFileSync(join(root, 'console', 'index.html'), join(out, 'index.html'));
const gzipped = gzipSync(readFileSync(join(out, 'app.js'))).length;
console.log(`leadbase build: console bundled to ${out} (app.js ${statSync(join(out, 'app.js')).size} bytes, ${gzipped} gzipped)`);
