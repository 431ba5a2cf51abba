// Insights on bulk jobs against a live server with the sample world, on each storage mode with its
// real queue: a job's metrics (figures, pace, time left, time paused) and log (events in words, then
// refused rows with their reasons, paged), the capabilities, the key's jobs in progress, and the
// list's filters; each owner-only (another key's job is 404), free, bad values a 400 naming the field.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets } from '../support/db.ts';
import type { TestApp } from '../support/app.ts';
import { startSampleWorld, type SampleWorld } from '../support/sample-world.ts';
import { until } from '../support/until.ts';
import type { BulkJobView } from '../../src/bulk/types.ts';
import type { BulkJobMetrics, BulkLogLine } from '../../src/bulk/job-metrics.ts';

const FOUND = { company_domain: 'acme-robotics.com' };
const NOT_FOUND = { company_domain: 'no-such-company.example' };

for (const target of dbTargets) {
  describe(`insights on bulk jobs (${target.name})`, { skip: target.skip, timeout: 180_000 }, () => {
    let sample: SampleWorld;
    let t: TestApp;

    before(async () => {
      sample = await startSampleWorld(target, 100_000, { ownQueue: true, pausedCheckMs: 100 });
      t = sample.t;
    });
    after(() => sample?.close());

    const get = (url: string, key: string) => t.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
    const status = async (id: string, key: string) => (await get(`/bulk/${id}`, key)).json<BulkJobView>();
    const reaches = (id: string, key: string, states: string[]) =>
      until(async () => states.includes((await status(id, key)).status), 60_000, 25).catch(async () =>
        assert.fail(`${id} never ${states.join('/')}: ${JSON.stringify(await status(id, key))}`),
      );
    async function submit(key: string, body: object) {
      const res = await t.inject({ method: 'POST', url: '/bulk', headers: { 'x-api-key': key }, payload: body });
      assert.equal(res.statusCode, 202, res.body);
      return res.json<BulkJobView>();
    }

    it('metrics: figures, pace and no time left once done; logs: events in words, then refused rows, paged', async () => {
      const key = await t.services.keys.create(`insights-${Math.random()}`, 100_000);
      const job = await submit(key.key, { product: 'company_search', rows: [FOUND, 7, NOT_FOUND, { company_domain: 42 }, FOUND] });
      await reaches(job.id, key.key, ['done']);
      const before = await t.services.billing.balance(key.id);
      for (const url of [`/bulk/${job.id}/metrics`, `/bulk/jobs/${job.id}/metrics`]) {
        const res = await get(url, key.key);
        assert.equal(res.statusCode, 200, res.body);
        const m = res.json<BulkJobMetrics>();
        assert.equal(m.job_id, job.id);
        assert.equal(m.status, 'done');
        assert.deepEqual([m.total, m.processed, m.found, m.refused, m.remaining], [5, 5, 2, 2, 0]);
        assert.equal(m.credits_consumed, 2);
        assert.equal(m.eta_seconds, null, 'no time left once done');
        assert.equal(m.paused_seconds, 0);
        assert.ok(m.started_at && m.finished_at);
        assert.ok(m.rows_per_second_overall === null || m.rows_per_second_overall > 0);
      }
      const page = async (url: string) => {
        const res = await get(url, key.key);
        assert.equal(res.statusCode, 200, res.body);
        return res.json<{ job_id: string; lines: BulkLogLine[]; next_offset: number | null }>();
      };
      const all = await page(`/bulk/jobs/${job.id}/logs`);
      assert.deepEqual(
        all.lines.map((l) => l.event ?? `row ${l.row_index}`),
        ['created', 'started', 'done', 'row 1', 'row 3'],
      );
      assert.match(all.lines[0].message, /Job created with 5 rows/);
      assert.match(all.lines[2].message, /Job done \(5 of 5 rows served, 2 found, 2 credits\)/);
      assert.match(all.lines[3].message, /^Row 1 refused: /);
      assert.equal(all.lines[3].at, null);
      assert.equal(all.lines[4].level, 'warning');
      assert.deepEqual(
        all.lines.map((l) => l.line),
        [0, 1, 2, 3, 4],
      );
      assert.equal(all.next_offset, null);
      // Paged: two lines at a time, across events and rows.
      const first = await page(`/bulk/${job.id}/logs?limit=2`);
      assert.deepEqual(first.lines, all.lines.slice(0, 2));
      assert.equal(first.next_offset, 2);
      const second = await page(`/bulk/${job.id}/logs?offset=2&limit=2`);
      assert.deepEqual(second.lines, all.lines.slice(2, 4));
      const last = await page(`/bulk/${job.id}/logs?offset=4&limit=2`);
      assert.deepEqual(last.lines, all.lines.slice(4));
      assert.equal(last.next_offset, null);
      // Free.
      assert.equal(await t.services.billing.balance(key.id), before);
      // Bad values name their field.
      for (const [url, field] of [
        [`/bulk/${job.id}/logs?limit=0`, '/limit'],
        [`/bulk/${job.id}/logs?limit=10001`, '/limit'],
        [`/bulk/${job.id}/logs?offset=-1`, 'offset'],
      ] as const) {
        const res = await get(url, key.key);
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        assert.ok(res.body.includes(field), `${url}: ${res.body}`);
      }
    });

    it("another key's job is 404 on metrics and logs; progress lists only the key's own jobs", async () => {
      const owner = await t.services.keys.create(`owner-${Math.random()}`, 100_000);
      const other = await t.services.keys.create(`other-${Math.random()}`, 100_000);
      const job = await submit(owner.key, { product: 'company_search', rows: [FOUND] });
      for (const url of [`/bulk/${job.id}/metrics`, `/bulk/jobs/${job.id}/logs`, `/bulk/nope/metrics`]) {
        const res = await get(url, other.key);
        assert.equal(res.statusCode, 404, `${url}: ${res.body}`);
        assert.equal(res.json<{ error: string }>().error, 'not_found');
      }
      const progress = (await get('/bulk/progress', other.key)).json<{ jobs: BulkJobMetrics[] }>();
      assert.ok(!progress.jobs.some((j) => j.job_id === job.id));
    });

    it('a paused job: in progress with its figures, no time left, its paused time counted; gone from progress once cancelled', async () => {
      // One credit: the second found row waits for credits.
      const key = await t.services.keys.create(`paused-${Math.random()}`, 1_000);
      const job = await submit(key.key, { product: 'company_search', rows: [FOUND, FOUND, FOUND] });
      await reaches(job.id, key.key, ['paused_insufficient_credits']);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const m = (await get(`/bulk/${job.id}/metrics`, key.key)).json<BulkJobMetrics>();
      assert.equal(m.status, 'paused_insufficient_credits');
      assert.equal(m.processed, 1);
      assert.equal(m.remaining, 2);
      assert.equal(m.eta_seconds, null, 'no time left while paused');
      assert.ok(m.paused_seconds > 0, JSON.stringify(m));
      const progress = await get('/bulk/progress', key.key);
      assert.equal(progress.statusCode, 200, progress.body);
      const body = progress.json<{ jobs: BulkJobMetrics[]; totals: { jobs: number; remaining: number } }>();
      assert.deepEqual(
        body.jobs.map((j) => [j.job_id, j.status]),
        [[job.id, 'paused_insufficient_credits']],
      );
      assert.deepEqual([body.totals.jobs, body.totals.remaining], [1, 2]);
      const logs = (await get(`/bulk/${job.id}/logs`, key.key)).json<{ lines: BulkLogLine[] }>().lines;
      const paused = logs.find((l) => l.event === 'paused')!;
      assert.match(paused.message, /balance does not cover/);
      assert.equal(paused.level, 'warning');
      const cancelled = await t.inject({ method: 'POST', url: `/bulk/${job.id}/cancel`, headers: { 'x-api-key': key.key } });
      assert.equal(cancelled.json<BulkJobView>().status, 'cancelled', cancelled.body);
      assert.deepEqual((await get('/bulk/progress', key.key)).json<{ jobs: unknown[] }>().jobs, []);
      const ended = (await get(`/bulk/${job.id}/metrics`, key.key)).json<BulkJobMetrics>();
      assert.equal(ended.status, 'cancelled');
      assert.equal(ended.eta_seconds, null);
      assert.ok(ended.paused_seconds >= m.paused_seconds);
    });

    it('capabilities: each product with its operation, request fields, price rule and the inputs', async () => {
      const key = await t.services.keys.create(`caps-${Math.random()}`, 0);
      const res = await get('/bulk/capabilities', key.key);
      assert.equal(res.statusCode, 200, res.body);
      const caps = res.json<{
        max_rows: number;
        inputs: { field: string }[];
        products: { product: string; operation: string; fields: { name: string }[]; price_rule: string; credits_when_charged: number }[];
      }>();
      assert.equal(caps.max_rows, 100_000);
      const inputs = caps.inputs.map((i) => i.field);
      for (const field of ['rows', 'csv', 'fileUrl', 'inputMapping', 'callback', 'webhook_url']) assert.ok(inputs.includes(field), field);
      assert.deepEqual(
        caps.products.map((p) => [p.product, p.operation]),
        [
          ['email_finder', 'email-finder'],
          ['email_validation', 'email-validate'],
          ['mobile_finder', 'mobile-finder'],
          ['company_search', 'company-search'],
          ['profile_search', 'profile-search'],
        ],
      );
      const finder = caps.products[0];
      for (const field of ['first_name', 'last_name', 'domain'])
        assert.ok(
          finder.fields.some((f) => f.name === field),
          field,
        );
      assert.equal(finder.credits_when_charged, 1);
      assert.match(finder.price_rule, /1 credits when an email is found/);
      assert.equal(caps.products[2].credits_when_charged, 5);
    });

    it('the list filters by status and product, pages with limit and offset, and names a bad field', async () => {
      const key = await t.services.keys.create(`list-${Math.random()}`, 100_000);
      const a = await submit(key.key, { product: 'company_search', rows: [FOUND] });
      await reaches(a.id, key.key, ['done']);
      const b = await submit(key.key, { product: 'profile_search', rows: [{ profile_url: 'linkedin.com/in/nobody-here' }] });
      await reaches(b.id, key.key, ['done']);
      const c = await submit(key.key, { product: 'company_search', rows: [NOT_FOUND] });
      await reaches(c.id, key.key, ['done']);
      const ids = async (url: string) => {
        const res = await get(url, key.key);
        assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
        return res.json<{ jobs: BulkJobView[] }>().jobs.map((j) => j.id);
      };
      assert.deepEqual(await ids('/bulk'), [c.id, b.id, a.id]);
      assert.deepEqual(await ids('/bulk/jobs?product=company_search'), [c.id, a.id]);
      assert.deepEqual(await ids('/bulk?product=profile_search&status=done'), [b.id]);
      assert.deepEqual(await ids('/bulk?status=running,queued'), []);
      assert.deepEqual(await ids('/bulk?limit=1&offset=1'), [b.id]);
      for (const [url, field] of [
        ['/bulk?status=finished', 'status'],
        ['/bulk/jobs?product=phone_finder', 'product'],
        ['/bulk?limit=0', 'limit'],
        ['/bulk?limit=101', 'limit'],
        ['/bulk?offset=x', 'offset'],
      ] as const) {
        const res = await get(url, key.key);
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        const body = res.json<{ error: string; details?: { field: string }[] }>();
        assert.equal(body.error, 'invalid_request', url);
        assert.ok(
          body.details?.some((d) => d.field.includes(field)),
          `${url}: ${res.body}`,
        );
      }
    });
  });
}
