// The console's Explore screen in a real Chromium (Debian's `chromium`, driven by playwright-core), on
// the sample data set: a customer searches a company and jobs, sees each call's price before making
// it, is charged exactly what the answer says (checked in the ledger and the balance), and sees the
// JSON answer and the curl line; a customer cannot call as another key; the operator calls as the key
// it chooses. axe-core checks the screen at 1280 px (light) and 390 px (dark). Screenshots go to
// CONSOLE_SCREENSHOTS_DIR when set (docs/console/ is made that way).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../src/platform/config.ts';
import { dbTargets } from '../support/db.ts';
import { startSampleWorld, SAMPLE_POSTED_AFTER, type SampleWorld } from '../support/sample-world.ts';
import { buildConsole, checkAccessibility, CHROMIUM_SKIP, launchChromium, screenshot, signIn } from '../support/console-browser.ts';

const ADMIN_TOKEN = 'console-explore-admin-token-0123456789';

for (const target of dbTargets) {
  describe(`console Explore in Chromium (${target.name})`, { skip: CHROMIUM_SKIP || target.skip }, () => {
    let sample: SampleWorld;
    let browser: Browser;
    let base: string;

    const balanceOf = async (id: number) => Number((await sample.t.services.keys.get(id))!.balance);
    const lastCharge = async (id: number) => {
      const row = await sample.t.database.db
        .selectFrom('credit_ledger')
        .select(['amount', 'operation'])
        .where('key_id', '=', id)
        .where('kind', '=', 'charge')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return row && [Number(row.amount), row.operation];
    };

    before(async () => {
      buildConsole();
      sample = await startSampleWorld(target, 100, { config: loadConfig({ CRAWL_ENABLED: '0', ADMIN_TOKEN }) });
      base = await sample.t.app.listen({ host: '127.0.0.1', port: 0 });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await sample?.close();
    });

    it(
      'a customer searches a company and jobs: price before, charged exactly that, JSON and curl beside',
      { timeout: 180_000 },
      async () => {
        const { t } = sample;
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        await page.goto(`${base}/console`);
        await signIn(page, t.key);
        await page.getByRole('link', { name: 'Explore' }).click();
        await page.getByRole('heading', { name: 'Explore' }).waitFor();
        // A customer calls as its own key: nothing to choose.
        assert.equal(await page.getByLabel('Call as key').count(), 0);
        await page
          .getByTestId('calling')
          .filter({ hasText: `#${t.keyId} test` })
          .waitFor();

        // A company, by its domain: 1 credit when found, quoted before the call.
        await page.getByLabel('company_domain').fill('acme-robotics.com');
        await page.getByTestId('price').filter({ hasText: 'At most 1 credit.' }).waitFor();
        const curl = await page.getByTestId('curl').textContent();
        assert.ok(curl!.includes(`curl -X POST '${base}/company-search'`), curl!);
        assert.ok(curl!.includes('-H "X-API-Key: $LEADBASE_API_KEY"'), curl!);
        assert.ok(curl!.includes(`-d '{"company_domain":"acme-robotics.com"}'`), curl!);
        let before = await balanceOf(t.keyId);
        await page.getByRole('button', { name: 'Call /company-search' }).click();
        await page.getByTestId('charged').filter({ hasText: 'Charged 1 credit (quoted: at most 1 credit)' }).waitFor();
        assert.equal(before - (await balanceOf(t.keyId)), 1000);
        assert.deepEqual(await lastCharge(t.keyId), [1000, 'company-search']);
        assert.match((await page.getByTestId('json').textContent())!, /"company_name": "Acme Robotics, Inc\."/);
        await page.getByRole('definition').filter({ hasText: 'acme-robotics.com' }).first().waitFor();
        // The answer's heading has the focus, for keyboard and screen-reader users.
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'answer-title');

        // Jobs at the company, at most 5 a page: 1 credit per listing returned.
        await page.getByLabel('Operation').selectOption('jobs-finder');
        await page.getByLabel('company_name').fill('Acme Robotics');
        await page.getByLabel('posted_after').fill(SAMPLE_POSTED_AFTER);
        await page.getByLabel('per_page').fill('5');
        await page.getByTestId('price').filter({ hasText: 'At most 5 credits (up to 5 results, 1 credit each)' }).waitFor();
        assert.match((await page.getByTestId('curl').textContent())!, /"per_page":5/);
        before = await balanceOf(t.keyId);
        await page.getByRole('button', { name: 'Call /jobs-finder' }).click();
        await page.getByTestId('charged').filter({ hasText: 'Charged 1 credit (quoted: at most 5 credits)' }).waitFor();
        assert.equal(before - (await balanceOf(t.keyId)), 1000);
        assert.deepEqual(await lastCharge(t.keyId), [1000, 'jobs-finder']);
        await page.getByRole('cell', { name: 'Robotics Engineer' }).waitFor();
        assert.match((await page.getByTestId('json').textContent())!, /"credits_consumed": 1/);
        await page
          .getByTestId('calling')
          .filter({ hasText: `${(await balanceOf(t.keyId)) / 1000} credits left` })
          .waitFor();
        await checkAccessibility(page, 'explore');
        await screenshot(page, 'explore');
        await page.close();
      },
    );

    it(
      'at 390 px in the dark, by keyboard, a customer searches people; an answer refused is charged nothing',
      { timeout: 180_000 },
      async () => {
        const { t } = sample;
        const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
        const page = await context.newPage();
        await page.goto(`${base}/console#/explore`);
        await signIn(page, t.key);
        await page.getByRole('heading', { name: 'Explore' }).waitFor();
        await page.getByLabel('Operation').focus();
        await page.getByLabel('Operation').selectOption('people-search');
        await page.getByLabel('company_domain').fill('acme-robotics.com');
        await page.getByTestId('price').filter({ hasText: 'At most 1.25 credits' }).waitFor();
        const before = await balanceOf(t.keyId);
        // Enter in a field submits the form.
        await page.getByLabel('company_domain').press('Enter');
        const charged = page.getByTestId('charged').filter({ hasText: /Charged [\d.]+ credits?/ });
        await charged.waitFor();
        const shown = Number(/Charged ([\d.]+)/.exec((await charged.textContent())!)![1]);
        const answer = JSON.parse((await page.getByTestId('json').textContent())!) as { credits_consumed: number; data: unknown[] };
        assert.ok(answer.data.length > 0);
        assert.equal(shown, answer.credits_consumed);
        assert.equal(before - (await balanceOf(t.keyId)), Math.round(shown * 1000));
        await checkAccessibility(page, 'explore-390-dark');
        await screenshot(page, 'explore-390-dark');

        // per_page out of range: the API refuses it, and nothing is charged.
        await page.getByLabel('per_page').fill('5000');
        await page.getByTestId('price').filter({ hasText: 'At most' }).waitFor();
        const untouched = await balanceOf(t.keyId);
        await page.getByRole('button', { name: 'Call /people-search' }).click();
        await page.getByTestId('charged').filter({ hasText: 'Refused' }).waitFor();
        assert.match((await page.getByTestId('charged').textContent())!, /Nothing was charged/);
        assert.equal(await balanceOf(t.keyId), untouched);
        await context.close();
      },
    );

    it('keeps a customer to its own key; the operator calls as the key it chooses', { timeout: 180_000 }, async () => {
      const { t } = sample;
      const other = await t.services.keys.create('other', 10_000);
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${base}/console#/explore`);
      await signIn(page, t.key);
      await page.getByRole('heading', { name: 'Explore' }).waitFor();
      // The customer's session, used by hand from the page, asking to call as another key.
      const status = await page.evaluate(async (otherId) => {
        const { csrf_token } = (await (await fetch('/admin/session')).json()) as { csrf_token: string };
        const res = await fetch('/company-search', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf_token, 'x-leadbase-call-as': String(otherId) },
          body: JSON.stringify({ company_domain: 'acme-robotics.com' }),
        });
        return [res.status, ((await res.json()) as { error: string }).error];
      }, other.id);
      assert.deepEqual(status, [403, 'forbidden']);
      assert.equal(await balanceOf(other.id), 10_000);
      await page.getByRole('button', { name: 'Sign out' }).click();

      await signIn(page, ADMIN_TOKEN);
      await page.getByRole('link', { name: 'Explore' }).click();
      await page.getByLabel('company_domain').fill('acme-robotics.com');
      await page.getByTestId('price').filter({ hasText: 'At most 1 credit.' }).waitFor();
      // No key chosen: no call.
      assert.equal(await page.getByRole('button', { name: 'Call /company-search' }).isDisabled(), true);
      await page.getByLabel('Call as key').selectOption(String(other.id));
      await page
        .getByTestId('calling')
        .filter({ hasText: `#${other.id} other: 10 credits left` })
        .waitFor();
      await page.getByRole('button', { name: 'Call /company-search' }).click();
      await page.getByTestId('charged').filter({ hasText: 'Charged 1 credit' }).waitFor();
      assert.equal(await balanceOf(other.id), 9_000);
      assert.deepEqual(await lastCharge(other.id), [1000, 'company-search']);
      await checkAccessibility(page, 'explore (operator)');
      await page.close();
    });
  });
}
