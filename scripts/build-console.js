#!/usr/bin/env node
// Bundles the console (console/) into dist/console with esbuild: one minified script, one style
// sheet and the page, served by the API server at /console. Run by scripts/build.js (the `prepare`
// step) and by the console's tests. Usage: node scripts/build-console.js [output folder]
//
// Each file is written beside its place and renamed into it: the server reads them on every request,
// and a build running while it serves (another test suite's, or `npm run build` on a live install)
// must never hand a browser half a script.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
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

/** Writes `contents` to `path` whole: a reader sees the old file or the new one, never a part. */
function replaceFile(path, contents) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

const bundles = [
  {
    entryPoints: [join(root, 'console', 'main.js')],
    format: 'esm',
    target: ['es2020'],
    outfile: join(out, 'app.js'),
    legalComments: 'linked',
  },
  { entryPoints: [join(root, 'console', 'app.css')], outfile: join(out, 'app.css') },
];
for (const options of bundles) {
  const built = await esbuild.build({ ...options, bundle: true, minify: true, write: false, logLevel: 'warning' });
  for (const file of built.outputFiles) replaceFile(file.path, file.contents);
}
replaceFile(join(out, 'index.html'), readFileSync(join(root, 'console', 'index.html')));
const gzipped = gzipSync(readFileSync(join(out, 'app.js'))).length;
console.log(`leadbase build: console bundled to ${out} (app.js ${statSync(join(out, 'app.js')).size} bytes, ${gzipped} gzipped)`);
