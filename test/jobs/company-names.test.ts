// A company is never named after a URL or a board token when the source has a name: a careers
// page's own Organization names a posting without a hiring organization, and a saved Greenhouse
// payload (which lacks the board's name) needs --company-name.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JOB_CONNECTORS } from '../../src/ingest/jobs/index.ts';
import { normalizeOutcome } from '../../src/jobs/listing.ts';
import { openDatabase } from '../../src/db/database.ts';
import { runLeadbase } from '../support/cli.ts';

const page = (...blocks: object[]) =>
  `<html><head>${blocks.map((b) => `<script type="application/ld+json">${JSON.stringify(b)}</script>`).join('')}</head></html>`;
const posting = {
  '@context': 'https://schema.org',
  '@type': 'JobPosting',
  title: 'Welder',
  datePosted: '2026-10-01',
  jobLocation: 'Leeds, UK',
};
const url = 'https://careers.example.org/jobs/welder';
const ctx = { source: 'jsonld', board: url, now: Date.UTC(2026, 10, 1) };

describe('company names', () => {
  it("JSON-LD: a posting without hiringOrganization is the page's Organization's", () => {
    const [raw] = JOB_CONNECTORS.jsonld.parsePayload(page({ '@type': 'Organization', name: 'Leeds Fabrication Ltd' }, posting), {
      board: url,
    });
    const listing = normalizeOutcome(raw, ctx);
    assert.equal(typeof listing === 'string' ? listing : listing.companyName, 'Leeds Fabrication Ltd');
  });

  it('JSON-LD: a posting no organization names is refused with a reason, never named after the page URL', () => {
    const [raw] = JOB_CONNECTORS.jsonld.parsePayload(page(posting), { board: url });
    const outcome = normalizeOutcome(raw, ctx);
    assert.equal(typeof outcome, 'string');
    assert.match(outcome as string, /names no company/);
  });

  it('Greenhouse --file: postings without a company need --company-name; with it they are that company', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leadbase-company-names-'));
    const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'jobs.sqlite')}`, REDIS_URL: '', LOG_LEVEL: 'silent' };
    const file = fileURLToPath(new URL('../fixtures/real/jobs/greenhouse/stripe-board-2021.json', import.meta.url));
    const run = (...extra: string[]) =>
      runLeadbase(['import', 'jobs', '--source', 'greenhouse', '--board', 'stripe', '--file', file, '--quiet', ...extra], env);
    try {
      const refused = await run();
      assert.notEqual(refused.status, 0);
      assert.match(refused.stderr, /6 of 6 postings name no company.*--company-name/);
      assert.equal((await run('--company-name', 'Stripe')).status, 0);
      const handle = openDatabase(env.DATABASE_URL);
      try {
        const names = await handle.db.selectFrom('jobs').select('company_name').distinct().execute();
        assert.deepEqual(
          names.map((n) => n.company_name),
          ['Stripe'],
        );
      } finally {
        await handle.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
