// The console in a real Chromium (Debian's `chromium`, driven by playwright-core): sign in as the
// operator and as a customer, create a key and use it, grant credits, pause and resume a source,
// and check that a customer reaches nothing of the operator's. axe-core checks every screen.
// Screenshots go to CONSOLE_SCREENSHOTS_DIR when set (docs/console/ is made that way).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../src/platform/config.ts';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { buildConsole, checkAccessibility, CHROMIUM_SKIP, launchChromium, screenshot, signIn } from '../support/console-browser.ts';

const ADMIN_TOKEN = 'console-browser-admin-token-0123456789';

for (const target of dbTargets) {
  describe(`console in Chromium (${target.name})`, { skip: CHROMIUM_SKIP || target.skip }, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    let createdKey: string;
    let world: MailWorld;

    before(async () => {
      buildConsole();
      // The local mail fakes: half of the list's addresses exist.
      world = await startMailWorld();
      await world.domain('acme.test', { mailboxes: Array.from({ length: 500 }, (_, i) => `user${i}`) });
      t = await startTestApp(target, {
        credits: 20,
        deps: { config: loadConfig({ CRAWL_ENABLED: '0', ADMIN_TOKEN }), email: { ...world.emailConfig, recheckPollMs: 60_000 } },
      });
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      await t.services.sources.registry.add({ type: 'greenhouse', locator: 'northwind', base_url: 'http://127.0.0.1:9' });
      await t.services.sources.registry.add({ type: 'lever', locator: 'contoso', base_url: 'http://127.0.0.1:9' });
      for (let i = 0; i < 6; i++)
        await t.services.billing.settle({
          keyId: t.keyId,
          operation: i % 2 ? 'email-validation' : 'company-search',
          cost: 1000,
          requestId: `r${i}`,
        });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
      await world?.close();
    });

    it('refuses a wrong token, then signs the operator in to the overview', { timeout: 120_000 }, async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${base}/console`);
      await signIn(page, 'not-the-token');
      await page.getByRole('alert').filter({ hasText: 'Sign-in refused' }).waitFor();
      await checkAccessibility(page, 'sign-in');
      await screenshot(page, 'sign-in');
      await signIn(page, ADMIN_TOKEN);
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      await page.getByRole('heading', { name: 'This service holds no data yet' }).waitFor();
      assert.equal(await page.getByText('northwind').count(), 1);
      await checkAccessibility(page, 'overview');
      await screenshot(page, 'overview');
      // The session cookie is out of the page's reach.
      assert.equal(await page.evaluate(() => document.cookie), '');
      await page.close();
    });

    it('creates a key, shows its secret once, and the key works on the API; grants credits', { timeout: 120_000 }, async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${base}/console`);
      await signIn(page, ADMIN_TOKEN);
      await page.getByRole('link', { name: 'Keys' }).click();
      await page.getByRole('heading', { name: 'Keys' }).waitFor();
      await page.getByLabel('Name').fill('Acme Corp');
      await page.getByLabel('Starting credits').fill('25');
      await page.getByRole('button', { name: 'Create key' }).click();
      createdKey = (await page.getByTestId('new-key').textContent())!;
      assert.match(createdKey, /^lb_/);
      await checkAccessibility(page, 'keys');
      await screenshot(page, 'keys');
      const credits = await fetch(`${base}/credits`, { headers: { 'x-api-key': createdKey } });
      assert.equal(credits.status, 200);
      assert.equal(((await credits.json()) as { credits: number }).credits, 25);

      await page.getByRole('link', { name: 'test' }).click();
      await page.getByRole('heading', { name: /Key test/ }).waitFor();
      await page.getByLabel('Credits to grant').fill('5');
      await page.getByLabel('Note').fill('welcome bonus');
      await page.getByRole('button', { name: 'Grant credits' }).click();
      await page.getByRole('status').filter({ hasText: 'Granted 5 credits' }).waitFor();
      await page.getByTestId('balance').filter({ hasText: '19 credits' }).waitFor();
      // A daily cap of 10 credits with an alert at 5: the key spent 6 today.
      await page.getByLabel('Cap (credits)').fill('10');
      await page.getByLabel('Alert at (credits)').fill('5');
      await page.getByRole('button', { name: 'Set cap' }).click();
      await page.getByTestId('spend-cap').filter({ hasText: '6 of 10 credits spent this UTC day' }).waitFor();
      await page.getByText('above the alert threshold').waitFor();
      await page.getByRole('img', { name: /credits per day/ }).waitFor();
      assert.ok((await page.locator('.chart rect').count()) >= 2, 'the usage chart has bars');
      await checkAccessibility(page, 'key');
      await screenshot(page, 'key');
      await page.close();
    });

    it('pauses and resumes a source; the audit log shows what the operator did', { timeout: 120_000 }, async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${base}/console#/sources`);
      await signIn(page, ADMIN_TOKEN);
      await page.getByRole('heading', { name: 'Sources' }).waitFor();
      const [first] = await t.services.sources.registry.list({});
      await page.getByRole('button', { name: `Pause source ${first.id}` }).click();
      await page.getByRole('button', { name: `Resume source ${first.id}` }).waitFor();
      assert.equal((await t.services.sources.registry.get(Number(first.id)))!.status, 'paused');
      await checkAccessibility(page, 'sources');
      await screenshot(page, 'sources');
      await page.getByRole('button', { name: `Resume source ${first.id}` }).click();
      await page.getByRole('button', { name: `Pause source ${first.id}` }).waitFor();
      assert.equal((await t.services.sources.registry.get(Number(first.id)))!.status, 'active');

      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('heading', { name: 'Audit log' }).waitFor();
      await page.getByText('POST /admin/sources/:id/resume').waitFor();
      assert.equal(await page.getByText('POST /admin/keys/:id/credits').count(), 1);
      await checkAccessibility(page, 'audit');
      await screenshot(page, 'audit');
      await page.close();
    });

    it('validates a 1,000-address CSV on the local mail fakes and downloads the results', { timeout: 240_000 }, async () => {
      const listKey = await t.services.keys.create('lists', 100_000);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
      await page.goto(`${base}/console#/keys/${listKey.id}`);
      await signIn(page, ADMIN_TOKEN);
      await page.getByRole('heading', { name: 'Lists', exact: true }).waitFor();
      const csv = ['First Name,Work Email', ...Array.from({ length: 1000 }, (_, i) => `Person ${i},user${i}@acme.test`)].join('\n');
      await page.getByLabel('CSV file').setInputFiles({ name: 'list.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByTestId('list-price').filter({ hasText: '1,000 distinct addresses: at most 50 credits' }).waitFor();
      assert.equal(await page.getByLabel('Address column').inputValue(), '1');
      await page.getByRole('button', { name: 'Start validation' }).click();
      await page.getByRole('heading', { name: /— done/ }).waitFor({ timeout: 200_000 });
      await page.getByRole('heading', { name: 'Past lists' }).waitFor();
      await checkAccessibility(page, 'lists');
      await screenshot(page, 'lists');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download results (CSV)' }).click(),
      ]);
      const path = await download.path();
      const lines = readFileSync(path, 'utf8').trim().split('\n');
      assert.equal(lines.length, 1001);
      assert.match(lines[0], /^First Name,email,email_status/);
      const statuses = lines.slice(1).map((line) => line.split(',')[2]);
      assert.equal(statuses.filter((s) => s === 'valid').length, 500);
      assert.equal(statuses.filter((s) => s === 'invalid').length, 500);
      await page.close();
    });

    it('keeps a customer to its own key, in the console and by direct requests (390 px, dark)', { timeout: 120_000 }, async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
      const page = await context.newPage();
      await page.goto(`${base}/console`);
      await signIn(page, t.key);
      await page.getByRole('heading', { name: /Key test/ }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'Keys' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Grant credits' }).count(), 0);
      await checkAccessibility(page, 'customer');
      await screenshot(page, 'customer-390-dark');
      // The session, used by hand from the page: every operator call and every other key is refused.
      const answers = await page.evaluate(async (other) => {
        const codes: number[] = [];
        for (const url of [
          '/admin/status',
          '/admin/sources',
          '/admin/audit',
          `/admin/keys/${other}`,
          `/admin/keys/${other}/ledger?format=csv`,
        ])
          codes.push((await fetch(url)).status);
        codes.push(
          (await fetch('/admin/keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' })).status,
        );
        return codes;
      }, t.keyId + 1);
      assert.deepEqual(answers, [403, 403, 403, 404, 404, 403]);
      // Bundled: nothing but this server was asked for anything.
      await context.close();
    });
  });
}
