// An empty POST /jobs-finder answer says which defaults (30 days, non-remote only) hid listings of
// its query, and how to widen it (docs/jobs.md, "When nothing is found"); the v1 paths keep
// LeadMagic's shape, and the charge of an empty answer stays 0. Listings are dated relative to now.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SourceListing } from '../../src/jobs/input.ts';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const DAY = 86_400_000;

/** 15 CodePath listings 40 to 54 days old, 8 of them remote (the oldest, 54 days, is remote). */
function codePath(now: number): SourceListing[] {
  return Array.from({ length: 15 }, (_, i) => ({
    sourceId: `CP${i}`,
    title: 'Curriculum Engineer',
    location: i % 2 === 0 ? 'Remote' : 'San Francisco, CA',
    remote: i % 2 === 0,
    employmentTypes: ['Full-time'],
    publishedAt: now - (40 + i) * DAY,
    descriptionHtml: `<p>Teach and build. Posting ${i}.</p>`,
    applyUrl: `https://jobs.example/codepath/${i}`,
    company: { name: 'CodePath', website: 'https://codepath.example' },
  }));
}

/** A company whose only listing is recent and remote. */
const remoteOnly = (now: number): SourceListing => ({
  sourceId: 'RO1',
  title: 'Support Engineer',
  location: 'Remote',
  remote: true,
  employmentTypes: ['Full-time'],
  publishedAt: now - 2 * DAY,
  descriptionHtml: '<p>Help customers.</p>',
  applyUrl: 'https://jobs.example/driftwood/1',
  company: { name: 'Driftwood Labs', website: 'https://driftwood.example' },
});

for (const target of dbTargets) {
  describe(`an empty jobs-finder answer says what the defaults hid (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { credits: 100 });
      const now = Date.now();
      await t.services.jobs.importer.importBoard(codePath(now), { source: 'greenhouse', board: 'codepath', now });
      await t.services.jobs.importer.importBoard([remoteOnly(now)], { source: 'greenhouse', board: 'driftwood', now });
    });
    after(() => t.close());

    it('15 listings over 30 days old, 8 remote: each default that hid them, how many it hid, and what shows them; 0 credits', async () => {
      const res = await t.post('/jobs-finder', { company_name: 'CodePath' });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.total_count, 0);
      assert.deepEqual(body.results, []);
      assert.equal(body.credits_consumed, 0);
      assert.equal(res.headers['x-credits-cost'], '0');
      assert.deepEqual(body.hidden_by_defaults, {
        count: 15,
        filters: [
          // The oldest on-site listing is 53 days old: one day more keeps it inside on the next request.
          { filter: 'posted_within: 30 (default)', would_show: 7, widen_with: { posted_within: 54 } },
          {
            filter: 'posted_within: 30 and has_remote: false (defaults)',
            would_show: 8,
            widen_with: { has_remote: true, posted_within: 55 },
          },
        ],
      });
      // Each widening finds what it says.
      for (const entry of body.hidden_by_defaults.filters) {
        const widened = (await t.post('/jobs-finder', { company_name: 'CodePath', ...entry.widen_with, per_page: 1 })).json();
        assert.equal(widened.total_count, entry.would_show, entry.filter);
        assert.equal(widened.hidden_by_defaults, undefined);
      }
    });

    it('a default the request overrides is never named: an explicit window leaves only the remote default', async () => {
      const body = (await t.post('/jobs-finder', { company_name: 'CodePath', posted_within: 60 })).json();
      assert.equal(body.total_count, 7);
      assert.equal(body.hidden_by_defaults, undefined, 'a non-empty answer carries no note');
      const remoteHidden = (await t.post('/jobs-finder', { company_name: 'Driftwood Labs' })).json();
      assert.equal(remoteHidden.total_count, 0);
      assert.deepEqual(remoteHidden.hidden_by_defaults, {
        count: 1,
        filters: [{ filter: 'has_remote: false (default)', would_show: 1, widen_with: { has_remote: true } }],
      });
      const datesGiven = (
        await t.post('/jobs-finder', {
          company_name: 'CodePath',
          has_remote: true,
          posted_after: '2000-01-01',
          posted_before: '2000-12-31',
        })
      ).json();
      assert.equal(datesGiven.total_count, 0);
      assert.equal(datesGiven.hidden_by_defaults, undefined, 'every default was overridden');
      const onlyRemoteGiven = (await t.post('/jobs-finder', { company_name: 'CodePath', has_remote: false })).json();
      assert.deepEqual(onlyRemoteGiven.hidden_by_defaults, {
        count: 7,
        filters: [{ filter: 'posted_within: 30 (default)', would_show: 7, widen_with: { posted_within: 54 } }],
      });
    });

    it('a description search (the full-text path on either dialect) is widened the same way', async () => {
      const body = (await t.post('/jobs-finder', { job_description: '"teach and build"' })).json();
      assert.equal(body.total_count, 0);
      assert.equal(body.hidden_by_defaults.count, 15);
      assert.deepEqual(
        body.hidden_by_defaults.filters.map((f: { would_show: number; widen_with: object }) => [f.would_show, f.widen_with]),
        [
          [7, { posted_within: 54 }],
          [8, { has_remote: true, posted_within: 55 }],
        ],
      );
    });

    it('nothing hidden, no note: a query no listing matches, and a company nobody knows', async () => {
      for (const query of [{ company_name: 'CodePath', job_title: 'astronaut' }, { company_website: 'unknown.example' }]) {
        const body = (await t.post('/jobs-finder', query)).json();
        assert.equal(body.total_count, 0);
        assert.equal('hidden_by_defaults' in body, false, JSON.stringify(query));
      }
    });

    it('the LeadMagic v1 path keeps its shape: no note, even when its answer is empty', async () => {
      const res = await t.post('/v1/jobs/jobs-finder', { company_name: 'CodePath', has_remote: false });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.total_count, 0);
      assert.equal('hidden_by_defaults' in body, false);
    });
  });
}
