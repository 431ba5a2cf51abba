// Whether dist/ (scripts/build.js) is as new as every file of src/: bin/leadbase.js runs the build
// only then, and the test runner rebuilds first when it is not.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when root/dist was built from the sources as they are now. */
export function buildIsFresh(root) {
  try {
    const { newestSource } = JSON.parse(readFileSync(join(root, 'dist', 'build.json'), 'utf8'));
    return newestUnder(join(root, 'src')) <= newestSource;
  } catch {
    return false;
  }
}
