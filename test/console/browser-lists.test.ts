// The console's Lists screen in a real Chromium (Debian's `chromium`, driven by playwright-core), on
// the local mail fakes: a CSV dropped on the drop zone whose address column is neither first nor
// called "email", 50 addresses typed and pasted (with repeats and blanks the server leaves out), a
// column chosen by hand, all by keyboard at 390 px; each time the price before the start, the
// progress to the end and the results CSV with the list's own columns. axe-core checks the screen.
// Screenshots go to CONSOLE_SCREENSHOTS_DIR when set (docs/console/ is made that way).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../../src/platform/config.ts';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import {
  buildConsole,
  checkAccessibility,
  CHROMIUM_SKIP,
  launchChromium,
  screenshot as saveScreenshot,
  signIn,
} from '../support/console-browser.ts';

const ADMIN_TOKEN = 'console-lists-admin-token-0123456789';

/** The Lists screen alone (the rest of the key's page is shown by the console's other tests). */
const screenshot = (page: Page, name: string) => saveScreenshot(page.locator('section[aria-labelledby="lists-title"]'), name);

/** The downloaded results, as rows of fields (the header first). */
async function downloadResults(page: Page, open: () => Promise<void>): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent('download'), open()]);
  return parseCsv(readFileSync(await download.path(), 'utf8'));
}

/** Presses Tab until the element matching `selector` has the focus. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached ${selector}`);
}

// user0…user24 have mailboxes at acme.test; nobody0…nobody24 do not.
const valid = Array.from({ length: 25 }, (_, i) => `user${i}@acme.test`);
const invalid = Array.from({ length: 25 }, (_, i) => `nobody${i}@acme.test`);

for (const target of dbTargets) {
  describe(`console Lists in Chromium (${target.name})`, { skip: CHROMIUM_SKIP || target.skip }, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    let world: MailWorld;

    const openLists = async (page: Page, keyId: number) => {
      await page.goto(`${base}/console#/keys/${keyId}`);
      await signIn(page, ADMIN_TOKEN);
      await page.getByRole('heading', { name: 'Lists', exact: true }).waitFor();
    };
    const price = (page: Page) => page.getByTestId('list-price');
    const finished = (page: Page) => page.getByRole('heading', { name: /— done/ }).waitFor({ timeout: 150_000 });

    before(async () => {
      buildConsole();
      world = await startMailWorld();
      await world.domain('acme.test', { mailboxes: Array.from({ length: 25 }, (_, i) => `user${i}`) });
      t = await startTestApp(target, {
        deps: { config: loadConfig({ CRAWL_ENABLED: '0', ADMIN_TOKEN }), email: { ...world.emailConfig, recheckPollMs: 60_000 } },
      });
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
      await world?.close();
    });

    it('takes a dropped CSV whose address column is the third, "E-mail Address", and keeps its columns', { timeout: 240_000 }, async () => {
      const key = await t.services.keys.create('dropped', 100_000);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
      await openLists(page, key.id);
      await page.getByText('Drop a CSV file here').waitFor();
      const rows = [...valid.slice(0, 5), ...invalid.slice(0, 5)].map((email, i) => `Person ${i},"Acme, Inc.",${email},note ${i}`);
      // A repeated address (another case) and a row without one: both left out, free.
      const csv = ['First Name,Company,E-mail Address,Notes', ...rows, 'Again,Acme,USER0@acme.test,dup', 'Nobody,Acme,,blank'].join('\n');
      const dataTransfer = await page.evaluateHandle((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'list.csv', { type: 'text/csv' }));
        return dt;
      }, csv);
      await page.dispatchEvent('[data-testid="list-drop"]', 'dragenter', { dataTransfer });
      // The zone shows that it will take the file.
      await page.locator('[data-testid="list-drop"].over').waitFor();
      await page.dispatchEvent('[data-testid="list-drop"]', 'drop', { dataTransfer });
      await price(page)
        .filter({ hasText: '10 distinct addresses (1 repeated, 1 without an address: left out, free): at most 0.5 credits' })
        .waitFor();
      await page.getByText('12 rows read from list.csv').waitFor();
      assert.equal(await page.getByLabel('Address column').inputValue(), '2');
      await checkAccessibility(page, 'lists preview');
      await page.getByRole('button', { name: 'Start validation' }).click();
      await finished(page);
      await page.getByRole('status').filter({ hasText: '10 of 10 validated' }).waitFor();
      await checkAccessibility(page, 'lists done');
      const results = await downloadResults(page, () => page.getByRole('link', { name: 'Download results (CSV)' }).click());
      assert.deepEqual(results[0].slice(0, 5), ['First Name', 'Company', 'Notes', 'email', 'email_status']);
      assert.equal(results.length, 11);
      assert.deepEqual(results[1].slice(0, 5), ['Person 0', 'Acme, Inc.', 'note 0', 'user0@acme.test', 'valid']);
      assert.deepEqual(results[10].slice(0, 5), ['Person 9', 'Acme, Inc.', 'note 9', 'nobody4@acme.test', 'invalid']);
      assert.equal(Number((await t.services.keys.get(key.id))!.balance), 100_000 - 500);
      await page.close();
    });

    it(
      'reads 50 pasted addresses, typed in and pasted from the clipboard, and proposes a "work_email" column',
      { timeout: 240_000 },
      async () => {
        const key = await t.services.keys.create('pasted', 100_000);
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
        await context.grantPermissions(['clipboard-read', 'clipboard-write']);
        const page = await context.newPage();
        await openLists(page, key.id);
        // Line breaks, commas and semicolons mixed, one address twice, blank pieces.
        const pasted = [valid.slice(0, 20).join('\n'), valid.slice(20).join(', '), '', invalid.join(';'), ' USER3@acme.test ;;'].join('\n');
        const box = page.getByLabel(/Or paste addresses/);
        await box.fill(pasted);
        await price(page).filter({ hasText: '50 distinct addresses (1 repeated: left out, free): at most 2.5 credits' }).waitFor();
        await page.getByText('51 rows read from the pasted addresses').waitFor();

        // A CSV pasted with its header: the address column is found by its name.
        await box.fill('name,company,work_email\nJane,Acme,user1@acme.test\nJoe,Acme,nobody1@acme.test\n');
        await price(page).filter({ hasText: '2 distinct addresses: at most 0.1 credits' }).waitFor();
        assert.equal(await page.getByLabel('Address column').inputValue(), '2');

        // A real paste from the clipboard (Ctrl+V), as a person does it.
        await box.fill('');
        await page.getByRole('region', { name: 'List preview' }).waitFor({ state: 'detached' });
        await page.evaluate((text) => navigator.clipboard.writeText(text), pasted);
        await box.focus();
        await page.keyboard.press('Control+V');
        assert.equal(await box.inputValue(), pasted);
        await price(page).filter({ hasText: '50 distinct addresses (1 repeated: left out, free): at most 2.5 credits' }).waitFor();
        await page.getByRole('button', { name: 'Start validation' }).click();
        await finished(page);
        const results = await downloadResults(page, () => page.getByRole('link', { name: 'Download results (CSV)' }).click());
        assert.deepEqual(results[0].slice(0, 2), ['email', 'email_status']);
        assert.equal(results.length, 51);
        const statusOf = new Map(results.slice(1).map((row) => [row[0], row[1]]));
        assert.ok(valid.every((a) => statusOf.get(a) === 'valid'));
        assert.ok(invalid.every((a) => statusOf.get(a) === 'invalid'));
        assert.equal(Number((await t.services.keys.get(key.id))!.balance), 100_000 - 2_500);
        await context.close();
      },
    );

    it('validates the column chosen by hand over one named "email", and keeps that one in the results', { timeout: 240_000 }, async () => {
      const key = await t.services.keys.create('chosen', 100_000);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
      await openLists(page, key.id);
      // "email" holds home addresses; the work addresses to validate are in "Work".
      const csv = ['Name,email,Work', ...valid.slice(0, 2).map((a, i) => `Person ${i},person${i}@home.test,${a}`)].join('\n');
      await page.getByLabel('Or choose a CSV file').setInputFiles({ name: 'two.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await price(page).filter({ hasText: '2 distinct addresses' }).waitFor();
      assert.equal(await page.getByLabel('Address column').inputValue(), '1');
      await page.getByLabel('Address column').selectOption({ label: 'Work' });
      await page.locator('.list-sample th.chosen').filter({ hasText: 'Work' }).waitFor();
      await page.getByRole('button', { name: 'Start validation' }).click();
      await finished(page);
      const results = await downloadResults(page, () => page.getByRole('link', { name: 'Download results (CSV)' }).click());
      assert.deepEqual(
        results.map((row) => row.slice(0, 4)),
        [
          ['Name', 'email (column 2)', 'email', 'email_status'],
          ['Person 0', 'person0@home.test', 'user0@acme.test', 'valid'],
          ['Person 1', 'person1@home.test', 'user1@acme.test', 'valid'],
        ],
      );
      await page.close();
    });

    it(
      'goes through by keyboard alone at 390 px: file picker, a column chosen by hand, start, download',
      { timeout: 240_000 },
      async () => {
        const key = await t.services.keys.create('keyboard', 100_000);
        const page = await browser.newPage({ viewport: { width: 390, height: 844 }, acceptDownloads: true });
        await openLists(page, key.id);
        // "Contact" is not a name the server knows as the address column: it is chosen by hand.
        const csv = [
          'id,Full name,Contact,Company',
          ...valid.slice(0, 3).map((a, i) => `${i + 1},Person ${i},${a},Acme Corporation International`),
        ];
        await tabTo(page, '#list-file');
        const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
        await chooser.setFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.join('\r\n')) });
        await price(page).filter({ hasText: 'Choose the address column to see the price' }).waitFor();
        assert.ok(await page.getByRole('button', { name: 'Start validation' }).isDisabled());
        await tabTo(page, '#list-column');
        // "" → id → Full name → Contact
        for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
        await price(page).filter({ hasText: '3 distinct addresses: at most 0.15 credits' }).waitFor();
        assert.equal(await page.getByLabel('Address column').inputValue(), '2');
        await checkAccessibility(page, 'lists 390 preview');
        await screenshot(page, 'lists-390-preview');
        await tabTo(page, 'button:not([disabled])');
        assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Start validation');
        await page.keyboard.press('Enter');
        await finished(page);
        // The focus is on the list that was started.
        assert.match((await page.evaluate(() => document.activeElement?.textContent)) ?? '', /^List bulk_/);
        await checkAccessibility(page, 'lists 390 done');
        await screenshot(page, 'lists-390');
        await tabTo(page, 'a[download]');
        const results = await downloadResults(page, () => page.keyboard.press('Enter'));
        assert.deepEqual(results[0].slice(0, 5), ['id', 'Full name', 'Company', 'email', 'email_status']);
        assert.deepEqual(
          results.slice(1).map((row) => row.slice(0, 5)),
          valid.slice(0, 3).map((a, i) => [String(i + 1), `Person ${i}`, 'Acme Corporation International', a, 'valid']),
        );
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 390, `the page is ${width} px wide at 390 px`);
        await page.close();
      },
    );
  });
}
