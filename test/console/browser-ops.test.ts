// The console's bootstrap and discovery in a real Chromium (Debian's `chromium`, driven by
// playwright-core): on an empty service the operator starts the bootstrap from the Overview, sees
// each step's progress, then what the service answers; on Sources, discovery on a local fake site
// finds its board, which the operator registers. The upstreams are the local fakes of
// test/support/upstreams, named as the operator names mirrors (BOOTSTRAP_MIRRORS); the boards'
// mirror answers slowly, so the progress is seen. axe-core checks every screen; screenshots go to
// CONSOLE_SCREENSHOTS_DIR when set (docs/console/ is made that way).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { bootstrapConfig, startEveryMirror, type Mirror } from '../support/bootstrap.ts';
import { startMirror as startBoardsMirror } from '../support/upstreams/boards.ts';
import { startCareersSite, type CrawlWorld } from '../sources/crawl-world.ts';
import { buildConsole, checkAccessibility, CHROMIUM_SKIP, launchChromium, screenshot, signIn } from '../support/console-browser.ts';

const ADMIN_TOKEN = 'console-ops-admin-token-0123456789';

/** Opens the console at `url` and signs the operator in. */
async function openAsOperator(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await signIn(page, ADMIN_TOKEN);
}

for (const target of dbTargets) {
  describe(`console bootstrap and discovery in Chromium (${target.name})`, { skip: CHROMIUM_SKIP || target.skip, timeout: 600_000 }, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    let mirrors: Mirror[];
    let site: CrawlWorld;

    before(async () => {
      buildConsole();
      // Every upstream's fake; the boards' one answers after a second, so the run is seen going on.
      mirrors = await startEveryMirror();
      await mirrors.find((m) => m.name === 'greenhouse')!.close();
      mirrors = [...mirrors.filter((m) => m.name !== 'greenhouse'), await startBoardsMirror({ delayMs: 1500 })];
      // A company's site whose careers page links a Greenhouse board the boards list does not name.
      site = await startCareersSite('https://job-boards.greenhouse.io/northwindtraders');
      const config = bootstrapConfig(ADMIN_TOKEN, mirrors);
      t = await startTestApp(target, { deps: { config, crawlAllowPrivateHosts: [site.host] } });
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
      await Promise.all([...(mirrors ?? []).map((m) => m.close()), site?.close()]);
    });

    it('starts the bootstrap from the Overview of an empty service, shows its progress, then what the service answers', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await openAsOperator(page, `${base}/console`);
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
      await openAsOperator(page, `${base}/console#/sources`);
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
