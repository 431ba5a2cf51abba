// Bulk jobs of every product against a live server with the sample world, on each storage mode with
// its real queue (the embedded queue on SQLite, pg-boss on PostgreSQL): each row is answered as its
// single call is, charged at that call's price rule for what it returned, served once charged; a
// row that cannot be read is refused with its reason; cancelling stops the charges; a replayed
// Idempotency-Key makes no second job.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets } from '../support/db.ts';
import type { TestApp } from '../support/app.ts';
import { priceOf } from '../support/charges.ts';
import { startSampleWorld, type SampleWorld } from '../support/sample-world.ts';
import { until } from '../support/until.ts';
import { OPERATIONS, type ChargedOperationId } from '../../src/operations/catalogue.ts';
import type { BulkJobView, BulkRowView } from '../../src/bulk/types.ts';
import type { BULK_PRODUCTS } from '../../src/contract/bulk.ts';

type Product = (typeof BULK_PRODUCTS)[number];
type Row = BulkRowView & { lm_input: unknown; lm_output: unknown };

/** Each product: its operation, rows the sample world answers (found, then not found) and a row it refuses while answering. */
const PRODUCTS: Record<Product, { operation: ChargedOperationId; rows: Record<string, unknown>[] }> = {
  email_finder: {
    operation: 'email-finder',
    rows: [
      { first_name: 'John', last_name: 'Smith', domain: 'acme-robotics.com' },
      { first_name: 'Nobody', last_name: 'Atall', domain: 'acme-robotics.com' },
      // Neither domain nor company_name: refused while answered, as the single call is with a 400.
      { first_name: 'Jane', last_name: 'Doe' },
    ],
  },
  email_validation: {
    operation: 'email-validate',
    rows: [{ email: 'jane@acme-robotics.com' }, { email: 'nobody@acme-robotics.com' }],
  },
  mobile_finder: {
    operation: 'mobile-finder',
    rows: [{ work_email: 'john.smith@acme-robotics.com' }, { work_email: 'nobody@acme-robotics.com' }, { work_email: '  ' }],
  },
  company_search: {
    operation: 'company-search',
    // `domain` is the name LeadMagic's clients send: read as company_domain, as on the single call.
    rows: [{ company_domain: 'acme-robotics.com' }, { domain: 'no-such-company.example' }, {}],
  },
  profile_search: {
    operation: 'profile-search',
    rows: [{ profile_url: 'https://www.linkedin.com/in/john-smith-42' }, { profile_url: 'https://www.linkedin.com/in/nobody-atall-1' }],
  },
};

for (const target of dbTargets) {
  describe(
    `bulk jobs of every product (${target.name}, ${target.name === 'postgres' ? 'pg-boss' : 'embedded'} queue)`,
    { skip: target.skip },
    () => {
      let sample: SampleWorld;
      let t: TestApp;
      before(async () => {
        sample = await startSampleWorld(target, 10_000, { ownQueue: true, pausedCheckMs: 100 });
        t = sample.t;
      });
      after(() => sample?.close());

      const balance = (keyId = t.keyId) => t.services.billing.balance(keyId);
      const status = async (id: string, key = t.key) => (await t.get(`/bulk/${id}`, { 'x-api-key': key })).json<BulkJobView>();
      const ended = (id: string, key = t.key, states = ['done']) =>
        until(async () => states.includes((await status(id, key)).status), 60_000, 50);
      async function allRows(id: string, path = 'results'): Promise<Row[]> {
        const rows: Row[] = [];
        for (let offset: number | null = 0; offset !== null;) {
          const res = await t.get(`/bulk/${id}/${path}?offset=${offset}&limit=2`);
          assert.equal(res.statusCode, 200, res.body);
          const page = res.json<{ rows: Row[]; next_offset: number | null }>();
          rows.push(...page.rows);
          offset = page.next_offset;
        }
        return rows;
      }

      for (const [product, { operation, rows }] of Object.entries(PRODUCTS) as [Product, (typeof PRODUCTS)[Product]][]) {
        it(`${product}: each row answered as ${OPERATIONS[operation].path} answers it, charged at its price rule`, async () => {
          const before = await balance();
          // A row that is not an object is refused on submit.
          const submitted = await t.post('/bulk', { product, rows: [...rows, 42] });
          assert.equal(submitted.statusCode, 202, submitted.body);
          const job = submitted.json<BulkJobView>();
          assert.equal(job.job_id, job.id);
          assert.equal(job.operation, operation);
          assert.equal(job.total, rows.length + 1);
          assert.match(job.status, /^(queued|running)$/);
          assert.equal(job.refused, 1);
          assert.deepEqual(job.refusals, [{ reason: '/: must be object', rows: 1 }]);
          await ended(job.id);
          const done = await status(job.id);
          assert.equal(done.processed, job.total, 'every row answered and served');

          const served = await allRows(job.id);
          assert.deepEqual(
            served.map((r) => r.row_index),
            [...rows.keys(), rows.length],
            'every row, in list order, none dropped',
          );
          const charged = await balance();
          // Each answered row is what its single call answers, at what that call charges.
          let expected = 0;
          for (const row of served) {
            assert.deepEqual(row.lm_input, row.input);
            assert.deepEqual(row.lm_output, row.output);
            if (row.status === 'refused') {
              assert.equal(row.output, null);
              assert.equal(row.credits_consumed, 0);
              assert.ok(row.error?.message, `row ${row.row_index}: the reason`);
              continue;
            }
            const cost = priceOf(operation, row.output!);
            expected += cost;
            assert.equal(Math.round(row.credits_consumed * 1000), cost, `row ${row.row_index}: credits_consumed is the price rule's`);
            assert.equal(row.status, cost > 0 || operation === 'email-validate' ? 'success' : 'not_found');
            const single = await t.post(OPERATIONS[operation].path, rows[row.row_index]);
            assert.equal(single.statusCode, 200, single.body);
            assert.deepEqual(row.output, single.json(), `row ${row.row_index}: the single call's answer`);
          }
          assert.ok(expected > 0, 'something was found');
          assert.equal(before - charged, expected, 'the balance paid the sum of the rows');
          assert.equal(Math.round(done.credits_consumed * 1000), expected);
          const ledger = (await t.services.billing.usage(t.keyId, 1000)).filter((u) => String(u.request_id).startsWith(`${job.id}:`));
          assert.equal(
            ledger.reduce((sum, u) => sum + Number(u.amount), 0),
            expected,
          );
          assert.ok(ledger.every((u) => u.operation === `${operation}-bulk`));

          // A single call that the row refused answers 400 as well; the errors page lists exactly the refused rows.
          const refused = await allRows(job.id, 'errors');
          assert.deepEqual(
            refused.map((r) => r.row_index),
            served.filter((r) => r.status === 'refused').map((r) => r.row_index),
          );
          for (const row of refused.filter((r) => r.row_index < rows.length)) {
            const single = await t.post(OPERATIONS[operation].path, rows[row.row_index]);
            assert.equal(single.statusCode, 400, single.body);
            assert.equal(single.json<{ message: string }>().message, row.error!.message);
          }
          assert.equal(done.refused, refused.length);
          assert.equal(
            done.refusals.reduce((n, r) => n + r.rows, 0),
            refused.length,
            'the summary says why each refused row was refused',
          );

          // LeadMagic's spellings answer the same.
          assert.deepEqual((await t.get(`/bulk/jobs/${job.id}`)).json(), done);
          assert.deepEqual((await t.get(`/bulk/jobs/${job.id}/results`)).json<{ rows: Row[] }>().rows, served);
          assert.ok((await t.get('/bulk/jobs')).json<{ jobs: BulkJobView[] }>().jobs.some((j) => j.id === job.id));

          const csv = await t.get(`/bulk/jobs/${job.id}/download`);
          assert.equal(csv.statusCode, 200);
          assert.match(String(csv.headers['content-type']), /^text\/csv/);
          const lines = csv.body.trim().split('\n');
          assert.equal(lines.length, served.length + 1, 'a header and a line per row');
          assert.match(lines[0], /^row_index,status,credits_consumed,error,/);
        });
      }

      it('serves rows as a prefix of the list: a page never skips a row, whatever order rows were refused and answered in', async () => {
        // More rows than one window, a row refused on submit far ahead of the first window's answers.
        const rows: unknown[] = Array.from({ length: 130 }, (_, i) => ({ company_domain: `unknown-${i}.example` }));
        rows[120] = 42;
        const job = (await t.post('/bulk', { product: 'company_search', rows })).json<BulkJobView>();
        await ended(job.id);
        const served: number[] = [];
        for (let offset: number | null = 0; offset !== null;) {
          const res = await t.get(`/bulk/${job.id}/results?offset=${offset}&limit=7`);
          const page: { rows: Row[]; next_offset: number | null } = res.json();
          served.push(...page.rows.map((r) => r.row_index));
          offset = page.next_offset;
        }
        assert.deepEqual(served, [...rows.keys()]);
        assert.equal((await status(job.id)).refused, 1);
      });

      it('reads CSV text as rows (a header naming the request fields)', async () => {
        const res = await t.post('/bulk/csv', { product: 'company_search', csv: 'company_domain,company_name\nacme-robotics.com,\n,\n' });
        assert.equal(res.statusCode, 202, res.body);
        const job = res.json<BulkJobView>();
        await ended(job.id);
        const rows = await allRows(job.id);
        assert.deepEqual(
          rows.map((r) => [r.status, r.input]),
          [
            ['success', { company_domain: 'acme-robotics.com' }],
            ['refused', {}],
          ],
        );
      });

      it('refuses bad input with a 400 naming the field, and another key sees no job', async () => {
        const cases: [unknown, string][] = [
          [{ product: 'phone_lookup', rows: [{}] }, '/product'],
          [{ product: 'email_finder' }, '/rows'],
          [{ product: 'email_finder', rows: [] }, '/rows'],
          [{ product: 'email_finder', rows: 'a,b' }, '/rows'],
          [{ product: 'email_finder', rows: [{}], csv: 'a\n1' }, '/rows'],
        ];
        for (const [body, field] of cases) {
          const res = await t.post('/bulk/submit', body);
          assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
          const error = res.json<{ error: string; details: { field: string }[] }>();
          assert.equal(error.error, 'invalid_request');
          assert.ok(
            error.details.some((d) => d.field === field),
            `${JSON.stringify(body)} names ${field}: ${res.body}`,
          );
        }
        const job = (
          await t.post('/bulk', { product: 'company_search', rows: [{ company_domain: 'acme-robotics.com' }] })
        ).json<BulkJobView>();
        const other = await t.services.keys.create('other', 1000);
        for (const path of [`/bulk/${job.id}`, `/bulk/${job.id}/results`, `/bulk/jobs/${job.id}/download`]) {
          const res = await t.get(path, { 'x-api-key': other.key });
          assert.equal(res.statusCode, 404, path);
          assert.equal(res.json<{ error: string }>().error, 'not_found');
        }
        assert.equal((await t.inject({ method: 'DELETE', url: `/bulk/${job.id}`, headers: { 'x-api-key': other.key } })).statusCode, 404);
        await ended(job.id);
      });

      it('an Idempotency-Key replays the submit: one job, charged once', async () => {
        const before = await balance();
        const body = { product: 'company_search', rows: [{ company_domain: 'acme-robotics.com' }] };
        const headers = { 'idempotency-key': `bulk-${target.name}-once` };
        const first = await t.post('/bulk/submit', body, headers);
        const again = await t.post('/bulk/submit', body, headers);
        assert.equal(first.statusCode, 202, first.body);
        assert.equal(again.statusCode, 202, again.body);
        assert.equal(again.headers['idempotent-replayed'], 'true');
        const job = first.json<BulkJobView>();
        assert.equal(again.json<BulkJobView>().id, job.id);
        await ended(job.id);
        const jobs = (await t.get('/bulk')).json<{ jobs: BulkJobView[] }>().jobs;
        assert.equal(jobs.filter((j) => j.created_at === job.created_at && j.product === 'company_search').length, 1);
        assert.equal(before - (await balance()), 1000, 'one company found, one credit');
      });

      it('a key that runs out of credits pauses its job; its balance never goes below zero; cancelling stops the charges', async () => {
        const poor = await t.services.keys.create('poor', 2000);
        const rows = Array.from({ length: 5 }, () => ({ company_domain: 'acme-robotics.com' }));
        const res = await t.post('/bulk', { product: 'company_search', rows }, { 'x-api-key': poor.key });
        assert.equal(res.statusCode, 202, res.body);
        const job = res.json<BulkJobView>();
        await ended(job.id, poor.key, ['paused_insufficient_credits']);
        assert.equal(await balance(poor.id), 0);
        const paused = await status(job.id, poor.key);
        assert.equal(paused.processed, 2, 'two rows paid, two served');
        const served = await t.get(`/bulk/${job.id}/results`, { 'x-api-key': poor.key });
        assert.equal(served.json<{ rows: Row[] }>().rows.length, 2, 'rows not paid are not served');

        const cancelled = await t.inject({ method: 'DELETE', url: `/bulk/jobs/${job.id}`, headers: { 'x-api-key': poor.key } });
        assert.equal(cancelled.statusCode, 200, cancelled.body);
        assert.equal(cancelled.json<BulkJobView>().status, 'cancelled');
        // Credits granted after the cancel are not spent on the job.
        await t.services.billing.grant(poor.id, 5000, 'top-up');
        await new Promise((resolve) => setTimeout(resolve, 1000));
        assert.equal(await balance(poor.id), 5000);
        const after = await status(job.id, poor.key);
        assert.equal(after.status, 'cancelled');
        assert.equal(after.processed, 2);
        assert.equal(after.credits_consumed, 2);
      });
    },
  );
}
