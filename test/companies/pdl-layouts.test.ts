// The PDL free company dataset in the layout most copies of it have ("domain", "year founded",
// "size range", "linkedin url", "current employee estimate", an unnamed index column first): every
// fact is read, and a column we do not read is named in the summary.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/database.ts';
import { CompanyService } from '../../src/companies/service.ts';
import { runLeadbase } from '../support/cli.ts';

/** The first rows of the 2019 copy (companies_sorted.csv); origin in test/fixtures/real/ORIGINS.md. */
const COPIED_LAYOUT = readFileSync(
  fileURLToPath(new URL('../fixtures/real/companies/pdl-companies-sorted-2019.csv', import.meta.url)),
  'utf8',
);

describe('PDL layouts', () => {
  for (const parallel of ['--parallel', '--no-parallel']) {
    it(`reads the widely copied CSV layout with every fact (${parallel})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'leadbase-pdl-'));
      try {
        const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'c.sqlite')}`, REDIS_URL: '', LOG_LEVEL: 'silent' };
        const file = join(dir, 'companies_sorted.csv');
        writeFileSync(file, COPIED_LAYOUT);
        const res = await runLeadbase(['import', 'companies', 'pdl', file, '--json', '--quiet', parallel], env);
        assert.equal(res.status, 0, res.stderr);
        const summary = JSON.parse(res.stdout);
        assert.equal(summary.inserted, 2);
        assert.equal(summary.rejected, 0);
        assert.deepEqual(summary.unread_columns, ['total employee estimate']);
        const handle = openDatabase(env.DATABASE_URL);
        try {
          const ibm = await new CompanyService({ db: handle.db }).findByDomain('ibm.com');
          assert.ok(ibm, 'found by its domain');
          assert.equal(ibm.founded_year, 1911);
          assert.equal(ibm.employee_count, 274047);
          assert.equal(ibm.size_label, '10001+');
          assert.match(ibm.prof_url ?? '', /linkedin\.com\/company\/ibm/);
          assert.equal(ibm.country_code, 'US');
        } finally {
          await handle.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

describe('JSONL keys', () => {
  for (const parallel of ['--parallel', '--no-parallel']) {
    it(`names the keys no field reads (${parallel})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'leadbase-jsonl-keys-'));
      try {
        const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'c.sqlite')}`, REDIS_URL: '', LOG_LEVEL: 'silent' };
        const file = join(dir, 'companies.jsonl');
        writeFileSync(
          file,
          [
            JSON.stringify({ name: 'Acme', domain: 'acme.example', ceo_email: 'ceo@acme.example' }),
            JSON.stringify({ name: 'Beta', domain: 'beta.example', tags: ['b2b'] }),
          ].join('\n'),
        );
        const res = await runLeadbase(['import', 'companies', 'jsonl', file, '--json', '--quiet', parallel], env);
        assert.equal(res.status, 0, res.stderr);
        const summary = JSON.parse(res.stdout);
        assert.equal(summary.inserted, 2);
        assert.deepEqual(summary.unread_columns, ['ceo_email', 'tags']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
