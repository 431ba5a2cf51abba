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

for (const target of dbTargets) {
  describe(`email-bulk CSV columns (${target.name})`, { skip: target.skip }, () => {
    let world: MailWorld;
    let t: TestApp;
    before(async () => {
      world = await startMailWorld();
      await world.domain('acme.test', { mailboxes: ['ann', 'bob'] });
      t = await startTestApp(target, { credits: 100, deps: { email: { ...world.emailConfig, recheckPollMs: 60_000 } } });
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
