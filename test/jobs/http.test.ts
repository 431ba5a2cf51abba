import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SourceListing } from '../../src/ingest/jobs/types.ts';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const DAY = 86_400_000;

function board(now: number, count: number): SourceListing[] {
  return Array.from({ length: count }, (_, i) => ({
    sourceId: `H${i}`,
    title: i % 5 === 0 ? 'Senior Platform Engineer' : 'Platform Engineer',
    location: 'Austin, TX',
    employmentTypes: ['Full-time'],
    publishedAt: now - i * 3600_000,
    descriptionHtml: `<p>Kubernetes and Terraform. Posting ${i}.</p>`,
    applyUrl: `https://jobs.example/h${i}`,
    company: { name: 'Lonestar Cloud', website: 'https://lonestar.example' },
  }));
}

for (const target of dbTargets) {
  describe(`POST /jobs-finder (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { credits: 100 });
      const now = Date.now();
      await t.services.jobs.importer.importBoard(board(now, 25), { source: 'greenhouse', board: 'lonestar', now });
      await t.services.jobs.importer.importBoard([{ ...board(now, 1)[0], sourceId: 'OLD', publishedAt: now - 45 * DAY }], {
        source: 'greenhouse',
        board: 'lonestar-old',
        now,
      });
    });
    after(() => t.close());

    it('defaults: page 1, 20 per page, last 30 days, non-remote; 1 credit per returned job', async () => {
      const res = await t.post('/jobs-finder', {});
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.total_count, 25);
      assert.equal(body.page, 1);
      assert.equal(body.per_page, 20);
      assert.equal(body.total_pages, 2);
      assert.equal(body.results.length, 20);
      assert.equal(body.credits_consumed, 20);
      assert.equal(res.headers['x-credits-cost'], '20');
      assert.equal(res.headers['x-credits-remaining'], '80');
      assert.equal(body.results[0].company.name, 'Lonestar Cloud');
      assert.equal(body.results[0].company.website_url, 'https://lonestar.example');
      assert.deepEqual(
        body.results[0].countries.map((c: { code: string }) => c.code),
        ['US'],
      );
    });

    it('a page past the end: 200, empty results, real totals, 0 credits', async () => {
      const res = await t.post('/jobs-finder', { page: 3 });
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.deepEqual(body.results, []);
      assert.equal(body.total_count, 25);
      assert.equal(body.total_pages, 2);
      assert.equal(body.credits_consumed, 0);
    });

    it('filters and phrases through HTTP', async () => {
      const res = await t.post('/jobs-finder', { job_title: 'engineer SENIOR platform', job_description: '"posting 5"', posted_within: 7 });
      const body = res.json();
      assert.equal(body.total_count, 1);
      assert.equal(body.results[0].experience_level, 'Senior Level');
      assert.equal(body.credits_consumed, 1);
    });

    it('validation: per_page over 50, unknown level, bad dates are 400 invalid_request', async () => {
      for (const bad of [
        { per_page: 51 },
        { experience_level: 'guru' },
        { posted_after: '2026-13-01' },
        { posted_before: 'yesterday' },
        { has_remote: 'yes' },
      ]) {
        const res = await t.post('/jobs-finder', bad);
        assert.equal(res.statusCode, 400, JSON.stringify(bad));
        assert.equal(res.json().error, 'invalid_request');
      }
    });

    it('402 and nothing served when the balance cannot cover the page', async () => {
      const poor = await startTestApp(target, { credits: 3, database: t.database });
      try {
        const res = await poor.post('/jobs-finder', { per_page: 5 });
        assert.equal(res.statusCode, 402);
        assert.equal(res.json().error, 'insufficient_credits');
        const ok = await poor.post('/jobs-finder', { per_page: 3 });
        assert.equal(ok.statusCode, 200);
        assert.equal(ok.json().credits_consumed, 3);
      } finally {
        await poor.close();
      }
    });
  });
}
