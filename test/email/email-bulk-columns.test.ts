// CSV lists of POST /email-validate/bulk whose header repeats a name: both columns are kept (the
// later one as "email (column 3)", as the console names it), the address column is the one that
// holds addresses, and two that both do are refused naming them; the results CSV neutralises cells
// a spreadsheet would run as formulas.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { dbTargets } from '../support/db.ts';
import { until } from '../support/until.ts';
import type { BulkJobView } from '../../src/email/bulk.ts';
import { parse as parseCsv } from 'csv-parse/sync';
import { SAMPLE_COMPANY } from '../support/sample-company.ts';

for (const target of dbTargets) {
  describe(`email-bulk CSV columns (${target.name})`, { skip: target.skip }, () => {
    let world: MailWorld;
    let t: TestApp;
    before(async () => {
      world = await startMailWorld();
      await world.domain('acme.test', { mailboxes: ['ann', 'bob'] });
      await world.domain(SAMPLE_COMPANY.domain!, { mailboxes: ['maria'] });
      t = await startTestApp(target, { credits: 100, deps: { email: { ...world.emailConfig, recheckPollMs: 60_000 } } });
      await t.services.companies.upsertCompany({ ...SAMPLE_COMPANY, social_a_url: 'https://www.facebook.com/acmerobotics' }, 'test');
    });
    after(async () => {
      await t?.close();
      await world?.close();
    });

    const submit = (csv: string, query = '') =>
      t.inject({
        method: 'POST',
        url: `/email-validate/bulk${query}`,
        headers: { 'x-api-key': t.key, 'content-type': 'text/csv' },
        payload: csv,
      });
    async function resultsCsv(id: string): Promise<string[]> {
      await until(async () => (await t.get(`/email-validate/bulk/${id}`)).json<BulkJobView>().status === 'done', 30_000, 50);
      return (await t.get(`/email-validate/bulk/${id}/results`, { accept: 'text/csv' })).body.trim().split('\n');
    }

    it("a result row holds every field of the single answer for the same address, the original API's names included (issue 40)", async () => {
      const address = `maria@${SAMPLE_COMPANY.domain}`;
      const single = (await t.post('/email-validate', { email: address })).json<Record<string, unknown>>();
      assert.equal(single.email_status, 'valid');
      assert.equal(single.company_linkedin_url, 'www.linkedin.com/company/acme-robotics');
      assert.equal(single.company_linkedin_id, '1035');
      assert.match(String(single.company_facebook_url), /facebook\.com\/acmerobotics/);
      assert.match(String(single.company_twitter_url), /twitter\.com\/acmerobotics/);
      const submitted = await t.post('/email-validate/bulk', { emails: [address] });
      assert.equal(submitted.statusCode, 202, submitted.body);
      const id = submitted.json<BulkJobView>().id;
      await until(async () => (await t.get(`/email-validate/bulk/${id}`)).json<BulkJobView>().status === 'done', 30_000, 50);
      const [row] = (await t.get(`/email-validate/bulk/${id}/results`)).body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const [field, value] of Object.entries(single)) assert.deepEqual(row[field], value, `${field} in the NDJSON row`);
      const table: string[][] = parseCsv((await t.get(`/email-validate/bulk/${id}/results`, { accept: 'text/csv' })).body);
      const [header, cells] = table;
      for (const [field, value] of Object.entries(single)) {
        assert.ok(header.includes(field), `${field} is a CSV column`);
        if (typeof value === 'string') assert.equal(cells[header.indexOf(field)], value, `${field} in the CSV row`);
      }
    });

    it('a repeated column is kept beside the first; the one holding addresses is validated', async () => {
      // The first "email" column is a note, the second holds the addresses.
      const res = await submit('email,Name,email,Name\nnote 1,Ann,ann@acme.test,Annie\nnote 2,Bob,bob@acme.test,Bobby\n');
      assert.equal(res.statusCode, 202, res.body);
      const lines = await resultsCsv(res.json<BulkJobView>().id);
      assert.match(lines[0], /^email \(column 1\),Name,Name \(column 4\),email,email_status,/);
      assert.match(lines[1], /^note 1,Ann,Annie,ann@acme\.test,valid,/);
      assert.match(lines[2], /^note 2,Bob,Bobby,bob@acme\.test,valid,/);
    });

    it('two columns of the same name both holding addresses are refused, naming them; email_column picks one', async () => {
      const csv = 'email,email\nann@acme.test,bob@acme.test\n';
      const refused = await submit(csv);
      assert.equal(refused.statusCode, 400);
      const { error, message } = refused.json<{ error: string; message: string }>();
      assert.equal(error, 'invalid_request');
      assert.match(message, /2 columns named "email" holding addresses \(email \(column 1\), email \(column 2\)\)/);
      assert.match(message, /email_column/);
      const chosen = await submit(csv, '?email_column=1');
      assert.equal(chosen.statusCode, 202, chosen.body);
      const lines = await resultsCsv(chosen.json<BulkJobView>().id);
      assert.match(lines[0], /^email \(column 1\),email,email_status,/);
      assert.match(lines[1], /^ann@acme\.test,bob@acme\.test,valid,/);
      const bad = await submit(csv, '?email_column=x');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json<{ message: string }>().message, /email_column/);
    });

    it('cells a spreadsheet would run are written with a leading quote; numbers are not', async () => {
      const res = await submit('email,note,score\nann@acme.test,"=HYPERLINK(""http://x.test"",""y"")",-5\n');
      assert.equal(res.statusCode, 202, res.body);
      const lines = await resultsCsv(res.json<BulkJobView>().id);
      assert.match(lines[0], /^note,score,email,/);
      assert.match(lines[1], /^"'=HYPERLINK\(""http:\/\/x\.test"",""y""\)",-5,ann@acme\.test,valid,/);
    });
  });
}
