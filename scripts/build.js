#!/usr/bin/env node
// Compiles src/ to JavaScript in dist/ (run by `npm install` / `npm ci` through "prepare"), so the
// `leadbase` command starts without transpiling anything. bin/leadbase.js uses dist/ only while it
// is as new as every file of src/; otherwise it runs the sources through tsx, as before.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  // An install without dev dependencies: the command still works, through tsx.
  console.log('leadbase build: typescript is not installed; the CLI will run the sources through tsx');
  process.exit(0);
}

const newestSource = Math.max(...filesUnder(src).map((file) => statSync(file).mtimeMs));
rmSync(dist, { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (result.status !== 0) {
  rmSync(dist, { recursive: true, force: true });
  console.error('leadbase build: tsc failed; the CLI will run the sources through tsx');
  process.exit(result.status ?? 1);
}
// Data files the modules read beside themselves (the GeoNames city table).
for (const file of filesUnder(src)) {
  if (file.endsWith('.ts')) continue;
  const target = join(dist, relative(src, file));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
}
// Kysely as one module, where dist/'s imports of it resolve first (Node looks in the nearest
// node_modules): its ESM build is some 260 files, which cost a short command (`leadbase status`)
// twice the rest of its start-up; one file is read and compiled lazily in a few milliseconds.
// Without esbuild, dist/ imports the installed package as before.
try {
  const esbuild = await import('esbuild');
  const vendor = join(dist, 'node_modules', 'kysely');
  mkdirSync(vendor, { recursive: true });
  await esbuild.build({
    stdin: { contents: "export * from 'kysely';", resolveDir: root },
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: join(vendor, 'index.js'),
    logLevel: 'warning',
  });
  writeFileSync(join(vendor, 'package.json'), `${JSON.stringify({ name: 'kysely', type: 'module', exports: { '.': './index.js' } })}\n`);
} catch (error) {
  console.log(`leadbase build: kysely not bundled (${error.message}); dist/ loads the installed package`);
  rmSync(join(dist, 'node_modules'), { recursive: true, force: true });
}
writeFileSync(join(dist, 'build.json'), `${JSON.stringify({ newestSource })}\n`);
if (!existsSync(join(dist, 'cli', 'main.js'))) process.exit(1);
// The console's bundle (dist/console), served at /console.
const consoleBuild = spawnSync(process.execPath, [join(root, 'scripts', 'build-console.js')], { stdio: 'inherit' });
if (consoleBuild.status !== 0) console.error('leadbase build: the console did not build; /console answers 503 until it does');
console.log(`leadbase build: src compiled to dist/ (${filesUnder(dist).filter((f) => f.endsWith('.js')).length} modules)`);
