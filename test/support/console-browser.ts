// What the console's suites in a real Chromium (Debian's `chromium`, driven by playwright-core) share:
// the browser, the console's build, the sign-in form, axe-core's check and the screenshots that
// docs/console/ is made of (CONSOLE_SCREENSHOTS_DIR=docs/console).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const root = join(import.meta.dirname, '..', '..');

/** `false` where Chromium is installed, else why the suites are skipped (for `describe`'s `skip`). */
export const CHROMIUM_SKIP: false | string = existsSync(CHROMIUM) ? false : 'skipped: chromium not installed (apt-get install chromium)';

/** Builds the console into dist/console, as the server serves it; fails the suite if the build fails. */
export function buildConsole(): void {
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build-console.js')], { encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
}

/** Chromium, headless; playwright gives each launch a fresh profile (its own --user-data-dir, removed on close). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    timeout: 60_000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Fills the sign-in form shown on the page with `token` (the admin token or an API key) and submits it. */
export async function signIn(page: Page, token: string): Promise<void> {
  await page.getByLabel('Admin token or API key').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** axe-core on the page as it stands: no serious or critical violation (`screen` names it in the failure). */
export async function checkAccessibility(page: Page, screen: string): Promise<void> {
  // Through the DevTools protocol, which the page's content security policy does not govern.
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v: { id: string; impact: string; nodes: { target: string[] }[] }) =>
          `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      );
  });
  assert.deepEqual(violations, [], `${screen}: ${violations.join('\n')}`);
}

/**
 * Saves `<name>.png` in CONSOLE_SCREENSHOTS_DIR when it is set (nothing otherwise): the whole page,
 * or only the element when given a locator.
 */
export async function screenshot(of: Page | Locator, name: string): Promise<void> {
  const dir = process.env.CONSOLE_SCREENSHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  if ('goto' in of) await of.screenshot({ path, fullPage: true });
  else await of.screenshot({ path });
}
