// The console's Lists screen for the bulk products other than email validation, in a real Chromium
// (Debian's `chromium`, driven by playwright-core), against the sample world's stores: a customer
// drops a 20-row company_search CSV, sees its most price (from the server), runs it to the end
// through POST /bulk as its own key, downloads the results and is charged exactly the rows found;
// the operator runs a list as a chosen key, which the customer never sees. axe-core checks the screen.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../../src/platform/config.ts';
import { dbTargets } from '../support/db.ts';
import { startSampleWorld, type SampleWorld } from '../support/sample-world.ts';
import { buildConsole, checkAccessibility, CHROMIUM_SKIP, launchChromium, signIn } from '../support/console-browser.ts';

const ADMIN_TOKEN = 'console-bulk-admin-token-0123456789';

/** The downloaded results, as rows of fields (the header first). */
async function downloadResults(page: Page, open: () => Promise<void>): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent('download'), open()]);
  return parseCsv(readFileSync(await download.path(), 'utf8'));
}

/** Drops CSV text on the Lists drop zone, as a file named `name`. */
async function dropCsv(page: Page, csv: string, name: string): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ([text, file]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], file, { type: 'text/csv' }));
      return dt;
    },
    [csv, name],
  );
  await page.dispatchEvent('[data-testid="list-drop"]', 'dragenter', { dataTransfer });
  await page.dispatchEvent('[data-testid="list-drop"]', 'drop', { dataTransfer });
}

// Four rows name the sample company (found, 1 credit each); sixteen name companies nobody knows (free).
const FOUND = 4;
const companyCsv = [
  'company_domain',
  ...Array.from({ length: FOUND }, () => 'acme-robotics.com'),
  ...Array.from({ length: 20 - FOUND }, (_, i) => `nobody-knows-${i}.example`),
].join('\n');

for (const target of dbTargets) {
  describe(`console Lists of bulk products in Chromium (${target.name})`, { skip: CHROMIUM_SKIP || target.skip }, () => {
    let sample: SampleWorld;
    let browser: Browser;
    let base: string;

    const balanceOf = async (id: number) => Number((await sample.t.services.keys.get(id))!.balance);
    const openLists = async (page: Page, token: string, path: string) => {
      await page.goto(`${base}/console#${path}`);
      await signIn(page, token);
      await page.getByRole('heading', { name: 'Lists', exact: true }).waitFor();
    };
    const price = (page: Page) => page.getByTestId('list-price');
    const finished = (page: Page) => page.getByRole('heading', { name: /— done/ }).waitFor({ timeout: 150_000 });

    before(async () => {
      buildConsole();
      sample = await startSampleWorld(target, 100, { config: loadConfig({ CRAWL_ENABLED: '0', ADMIN_TOKEN }), ownQueue: true });
      base = await sample.t.app.listen({ host: '127.0.0.1', port: 0 });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await sample?.close();
    });

    it(
      'a customer runs a 20-row company_search CSV: price before, done, results, charged the rows found',
      { timeout: 240_000 },
      async () => {
        const { t } = sample;
        const before = await balanceOf(t.keyId);
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
        await openLists(page, t.key, '/key');
        // Email validation stays the default; its own flow is browser-lists' part.
        assert.equal(await page.getByLabel('Product').inputValue(), 'email_validation');
        await page.getByLabel('Product').selectOption('company_search');
        await dropCsv(page, companyCsv, 'companies.csv');
        await page.getByText('20 rows read from companies.csv').waitFor();
        // The most it can cost: every row found, at company search's price (1 credit).
        await price(page).filter({ hasText: '20 rows: at most 20 credits' }).waitFor();
        await checkAccessibility(page, 'bulk preview');
        assert.equal(await balanceOf(t.keyId), before, 'nothing is charged for the preview');

        await page.getByRole('button', { name: 'Start company search' }).click();
        await finished(page);
        await page
          .getByRole('status')
          .filter({ hasText: `20 of 20 rows answered · ${FOUND} found` })
          .waitFor();
        await checkAccessibility(page, 'bulk done');

        const results = await downloadResults(page, () => page.getByRole('button', { name: 'Download results (CSV)' }).click());
        const [header, ...rows] = results;
        assert.deepEqual(header.slice(0, 4), ['row_index', 'status', 'credits_consumed', 'error']);
        assert.equal(rows.length, 20);
        const domain = header.indexOf('company_domain');
        const found = rows.filter((r) => r[1] === 'success');
        assert.equal(found.length, FOUND);
        assert.ok(found.every((r) => r[domain] === 'acme-robotics.com' && Number(r[2]) === 1));
        assert.ok(rows.filter((r) => r[1] !== 'success').every((r) => r[1] === 'not_found' && Number(r[2]) === 0));
        assert.equal(await balanceOf(t.keyId), before - FOUND * 1000, 'charged exactly the rows found');

        // The job is among the key's past lists, with its results.
        const past = page.getByRole('region', { name: 'Past lists' });
        await past.getByRole('row').filter({ hasText: 'Company search' }).filter({ hasText: 'done' }).waitFor();
        const again = await downloadResults(page, () => past.getByRole('button', { name: 'Results CSV' }).first().click());
        assert.equal(again.length, 21);
        await page.close();
      },
    );

    it('the operator runs a list as the chosen key; the other key does not see it', { timeout: 240_000 }, async () => {
      const { t } = sample;
      const other = await t.services.keys.create('other', 10_000);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
      await openLists(page, ADMIN_TOKEN, `/keys/${other.id}`);
      await page.getByLabel('Product').selectOption('company_search');
      await page.getByLabel('Or paste CSV text').fill('company_domain\nacme-robotics.com\nnobody-knows.example');
      await price(page).filter({ hasText: '2 rows: at most 2 credits' }).waitFor();
      await page.getByRole('button', { name: 'Start company search' }).click();
      await finished(page);
      assert.equal(await balanceOf(other.id), 10_000 - 1000);
      const jobs = await t.services.bulkJobs.list(other.id);
      assert.equal(jobs.length, 1);
      assert.ok(!(await t.services.bulkJobs.list(t.keyId)).some((j) => j.id === jobs[0].id));
      // The operator spent the key's credits: the audit log names the call and the key.
      const audit = await t.inject({ method: 'GET', url: '/admin/audit', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      const entry = audit.json().entries.find((e: { action: string }) => e.action === 'POST /bulk');
      assert.equal(entry?.target, String(other.id), audit.body);
      await page.close();
    });
  });
}
