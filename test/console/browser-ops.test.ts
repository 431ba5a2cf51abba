// The console's bootstrap and discovery in a real Chromium (Debian's `chromium`, driven by
// playwright-core): on an empty service the operator starts the bootstrap from the Overview, sees
// each step's progress, then what the service answers; on Sources, discovery on a local fake site
// finds its board, which the operator registers. The upstreams are the local fakes of
// test/support/upstreams, named as the operator names mirrors (BOOTSTRAP_MIRRORS); the boards'
// mirror answers slowly, so the progress is seen. axe-core checks every screen; screenshots go to
// CONSOLE_SCREENSHOTS_DIR when set (docs/console/ is made that way).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startEveryMirror, type Mirror } from '../support/bootstrap.ts';
import { BOARDS_CSV, startMirror as startBoardsMirror } from '../support/upstreams/boards.ts';
import { startCrawlWorld, type CrawlWorld } from '../sources/crawl-world.ts';

const CHROMIUM = '/usr/bin/chromium';
const SKIP = existsSync(CHROMIUM) ? false : 'skipped: chromium not installed (apt-get install chromium)';
const ADMIN_TOKEN = 'console-ops-admin-token-0123456789';
const root = join(import.meta.dirname, '..', '..');
const shots = process.env.CONSOLE_SCREENSHOTS_DIR;

/** axe-core on the page as it stands: no serious or critical violation. */
async function checkAccessibility(page: Page, screen: string): Promise<void> {
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

async function screenshot(page: Page, name: string): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Admin token or API key').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

for (const target of dbTargets) {
  describe(`console bootstrap and discovery in Chromium (${target.name})`, { skip: SKIP || target.skip, timeout: 600_000 }, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    let mirrors: Mirror[];
    let site: CrawlWorld;

    before(async () => {
      const built = spawnSync(process.execPath, [join(root, 'scripts', 'build-console.js')], { encoding: 'utf8' });
      assert.equal(built.status, 0, built.stderr);
      // Every upstream's fake; the boards' one answers after a second, so the run is seen going on.
      mirrors = await startEveryMirror();
      await mirrors.find((m) => m.name === 'greenhouse')!.close();
      mirrors = [...mirrors.filter((m) => m.name !== 'greenhouse'), await startBoardsMirror({ delayMs: 1500 })];
      // A company's site whose careers page links a Greenhouse board the boards list does not name.
      site = await startCrawlWorld();
      const html = (body: string) => (_request: unknown, response: import('node:http').ServerResponse) => {
        response.setHeader('content-type', 'text/html');
        response.end(body);
      };
      site.route('/robots.txt', (_q, r) => void r.end('User-agent: *\nAllow: /\n'));
      site.route('/', html('<html><body><a href="/careers">Careers</a></body></html>'));
      site.route('/careers', html('<html><body><a href="https://job-boards.greenhouse.io/northwindtraders">Open roles</a></body></html>'));
      const config = loadConfig({
        CRAWL_ENABLED: '0',
        ADMIN_TOKEN,
        CRAWL_USER_AGENT: 'leadbase-test (ops@example.com)',
        CRAWL_HOST_INTERVAL_MS: '20',
        BOOTSTRAP_MIRRORS: mirrors.map((m) => `${m.name}=${m.url}`).join(','),
        BOOTSTRAP_BOARDS: BOARDS_CSV,
      });
      t = await startTestApp(target, { deps: { config, crawlAllowPrivateHosts: [site.host] } });
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      browser = await chromium.launch({
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
    });
    after(async () => {
      await browser?.close();
      await t?.close();
      await Promise.all([...(mirrors ?? []).map((m) => m.close()), site?.close()]);
    });

    it('starts the bootstrap from the Overview of an empty service, shows its progress, then what the service answers', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await signIn(page, `${base}/console`);
      await page.getByRole('heading', { name: 'This service holds no data yet' }).waitFor();
      await page.getByText("Read from the operator's mirrors").waitFor();
      assert.equal(await page.getByLabel('Quick sample').isChecked(), true);
      await page.getByLabel('At most N boards, parts per data set and sites').fill('2');
      await page.getByLabel('Company sites discovery reads').fill('0');
      await checkAccessibility(page, 'bootstrap-start');
      await screenshot(page, 'bootstrap-start');
      await page.getByRole('button', { name: 'Run the bootstrap' }).click();
      await page.getByRole('status').filter({ hasText: 'Bootstrap running' }).waitFor();
      await page.getByRole('button', { name: 'Stop the bootstrap' }).waitFor();
      // The boards step shows its boards done of how many while the slow mirror answers.
      await page.locator('tr[data-step="boards"]').filter({ hasText: 'running' }).waitFor({ timeout: 120_000 });
      await page.locator('tr[data-step="boards"] progress').waitFor();
      await screenshot(page, 'bootstrap-progress');
      await checkAccessibility(page, 'bootstrap-progress');

      await page.getByRole('heading', { name: 'What the service can answer now' }).waitFor({ timeout: 400_000 });
      await page
        .getByRole('status')
        .filter({ hasText: /Bootstrap done: [\d,]+ rows stored/ })
        .waitFor();
      const answers = page.getByTestId('answers');
      await answers.getByText('/jobs-finder', { exact: true }).waitFor();
      assert.match((await answers.locator('code').first().textContent())!, new RegExp(`^curl -s -X POST ${base}/`));
      assert.equal(await page.locator('tr[data-step] .badge').filter({ hasText: 'failed' }).count(), 0);
      // The overview's cards are read again: the stores hold what the bootstrap brought.
      await page.getByRole('heading', { name: 'Bootstrap', exact: true }).waitFor();
      assert.ok((await t.services.sources.registry.list()).length > 0);
      await checkAccessibility(page, 'bootstrap-done');
      await screenshot(page, 'bootstrap-done');
      // The start is in the audit log.
      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.getByText('POST /admin/bootstrap').waitFor();
      await page.getByText('bootstrap done').waitFor();
      await page.close();
    });

    it("finds a company's board from Sources and registers it", async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await signIn(page, `${base}/console#/sources`);
      await page.getByRole('heading', { name: 'Sources' }).waitFor();
      await page.getByLabel('Company domain or site address').fill('no-such-host.invalid');
      await page.getByRole('button', { name: 'Find boards' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /could not resolve host no-such-host\.invalid/ })
        .waitFor({ timeout: 60_000 });

      await page.getByLabel('Company domain or site address').fill(site.origin);
      await page.getByRole('button', { name: 'Find boards' }).click();
      await page.getByRole('status').filter({ hasText: 'Found 1 job board' }).waitFor({ timeout: 60_000 });
      await page.getByText('greenhouse board northwindtraders').waitFor();
      await checkAccessibility(page, 'discovery');
      await screenshot(page, 'discovery');
      await page.getByRole('button', { name: 'Register as a source: greenhouse board northwindtraders' }).click();
      await page.getByText(/Registered as source \d+/).waitFor();
      const registered = (await t.services.sources.registry.list()).find((s) => s.locator === 'northwindtraders');
      assert.ok(registered, 'the board is a source now');
      assert.equal(registered.discovered_from, `${site.origin}/careers`);
      await page.locator(`tr[data-source="${registered.id}"]`).waitFor();
      await page.close();
    });
  });
}
