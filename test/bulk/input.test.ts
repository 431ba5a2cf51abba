// The input side of bulk jobs against a live server with the sample world, on each storage mode:
// inputMapping (both directions, unknown fields refused naming them), a list fetched from fileUrl
// through the SSRF guard (CSV, JSON, JSON Lines, compressed; refused with why when it cannot be read),
// the review before submit (nothing queued or charged), LeadMagic's forms we do not run, and the
// download's cells neutralised against spreadsheet formulas.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { dbTargets } from '../support/db.ts';
import type { TestApp } from '../support/app.ts';
import { startSampleWorld, type SampleWorld } from '../support/sample-world.ts';
import { until } from '../support/until.ts';
import type { BulkJobView, BulkRowView } from '../../src/bulk/types.ts';

/** The files the fake file server serves, by path: [content type, body, extra headers]. */
const FILES: Record<string, [string, string | Buffer, Record<string, string>?]> = {
  '/leads.csv': ['text/csv', 'Website,Company\nacme-robotics.com,Acme\nno-such-company.example,Nobody\n'],
  '/leads.json': ['application/json', JSON.stringify([{ Website: 'acme-robotics.com' }, { Website: 'no-such-company.example' }])],
  '/leads.bin': ['application/octet-stream', '{"Website":"acme-robotics.com"}\n\n{"Website":"no-such-company.example"}\n'],
  '/leads.csv.gz': ['text/csv', gzipSync('company_domain\nacme-robotics.com\n'), { 'content-encoding': 'gzip' }],
  '/page.html': ['text/html', '<html><body>not a list</body></html>'],
  '/empty.csv': ['text/csv', ''],
  '/header-only.csv': ['text/csv', 'company_domain\n'],
  '/binary': ['application/octet-stream', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe])],
};

type Review = {
  total: number;
  readable: number;
  refused: number;
  refusals: { reason: string; rows: number }[];
  errors: { row_index: number }[];
  sample: { row_index: number; input: Record<string, unknown> }[];
  columns: string[];
  mapping: { column: string; field: string }[];
  unused_columns: string[];
  price_per_row: number;
  max_credits: number;
};

for (const target of dbTargets) {
  describe(`bulk input: mapping, remote files, review (${target.name})`, { skip: target.skip }, () => {
    let sample: SampleWorld;
    let t: TestApp;
    let files: Server;
    let base: string;

    before(async () => {
      files = createServer((request, response) => {
        const path = request.url ?? '/';
        if (path === '/huge.csv') {
          // Declares more than the cap: refused before a byte of it is read.
          response.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(200 * 1024 * 1024) });
          response.write('company_domain\n');
          return;
        }
        if (path === '/moved.csv') {
          // A redirect from an allowed host to a private one: the guard checks every hop.
          const port = (files.address() as AddressInfo).port;
          return response.writeHead(302, { location: `http://127.0.0.2:${port}/leads.csv` }).end();
        }
        const file = FILES[path];
        if (!file) return response.writeHead(404, { 'content-type': 'text/plain' }).end('no such file');
        response.writeHead(200, { 'content-type': file[0], ...file[2] }).end(file[1]);
      });
      await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
      const host = `127.0.0.1:${(files.address() as AddressInfo).port}`;
      base = `http://${host}`;
      sample = await startSampleWorld(target, 10_000, { ownQueue: true, allowPrivateHosts: [host] });
      t = sample.t;
    });
    after(async () => {
      files?.closeAllConnections();
      await new Promise((resolve) => files?.close(resolve));
      await sample?.close();
    });

    const status = async (id: string) => (await t.get(`/bulk/${id}`)).json<BulkJobView>();
    async function doneRows(id: string): Promise<BulkRowView[]> {
      await until(async () => (await status(id)).status === 'done', 60_000, 50);
      return (await t.get(`/bulk/${id}/results`)).json<{ rows: BulkRowView[] }>().rows;
    }
    const inputs = (rows: BulkRowView[]) => rows.map((r) => r.input);

    it('inputMapping {column: field} reads CSV columns and row keys as the request fields', async () => {
      const csv = await t.post('/bulk/csv', {
        product: 'company_search',
        csv: 'Website,Notes\nacme-robotics.com,first\n',
        inputMapping: { Website: 'company_domain' },
      });
      assert.equal(csv.statusCode, 202, csv.body);
      assert.deepEqual(inputs(await doneRows(csv.json<BulkJobView>().id)), [{ company_domain: 'acme-robotics.com', Notes: 'first' }]);
      // The other direction, {field: column}, read when every key is a field (here a LeadMagic name, domain).
      const rows = await t.post('/bulk/json', {
        product: 'email_finder',
        rows: [{ First: 'John', Last: 'Smith', Site: 'acme-robotics.com' }],
        inputMapping: { first_name: 'First', last_name: 'Last', domain: 'Site' },
      });
      assert.equal(rows.statusCode, 202, rows.body);
      const [row] = await doneRows(rows.json<BulkJobView>().id);
      assert.equal(row.status, 'success');
      assert.equal((row.output as { email: string }).email, 'john.smith@acme-robotics.com');
    });

    it('inputMapping naming fields the product does not take, or columns the list lacks, is a 400 naming them', async () => {
      const unknown = await t.post('/bulk', {
        product: 'company_search',
        rows: [{ Website: 'acme-robotics.com' }],
        inputMapping: { Website: 'website_url', Name: 'company_nam' },
      });
      assert.equal(unknown.statusCode, 400, unknown.body);
      const error = unknown.json<{ error: string; message: string; details: { field: string }[] }>();
      assert.equal(error.error, 'invalid_request');
      assert.match(error.message, /does not take: website_url, company_nam/);
      assert.equal(error.details[0].field, '/inputMapping');
      const missing = await t.post('/bulk', {
        product: 'company_search',
        csv: 'Website\nacme-robotics.com\n',
        inputMapping: { Webiste: 'company_domain' },
      });
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json<{ message: string }>().message, /columns the list does not have: Webiste \(its columns: Website\)/);
      const notStrings = await t.post('/bulk', { product: 'company_search', rows: [{}], inputMapping: { a: 1 } });
      assert.equal(notStrings.statusCode, 400);
    });

    it('fileUrl: CSV, JSON and JSON Lines files, compressed or not, read by type or by their first bytes', async () => {
      for (const [path, mapping, expected] of [
        [
          '/leads.csv',
          { Website: 'company_domain' },
          [
            { company_domain: 'acme-robotics.com', Company: 'Acme' },
            { company_domain: 'no-such-company.example', Company: 'Nobody' },
          ],
        ],
        [
          '/leads.json',
          { Website: 'company_domain' },
          [{ company_domain: 'acme-robotics.com' }, { company_domain: 'no-such-company.example' }],
        ],
        [
          '/leads.bin',
          { Website: 'company_domain' },
          [{ company_domain: 'acme-robotics.com' }, { company_domain: 'no-such-company.example' }],
        ],
        ['/leads.csv.gz', undefined, [{ company_domain: 'acme-robotics.com' }]],
      ] as const) {
        const res = await t.post('/bulk/url', { product: 'company_search', fileUrl: `${base}${path}`, inputMapping: mapping });
        assert.equal(res.statusCode, 202, `${path}: ${res.body}`);
        assert.deepEqual(inputs(await doneRows(res.json<BulkJobView>().id)), expected, path);
      }
      // /bulk/submit takes fileUrl as well.
      const submit = await t.post('/bulk/submit', { product: 'company_search', fileUrl: `${base}/leads.csv.gz` });
      assert.equal(submit.statusCode, 202, submit.body);
      await doneRows(submit.json<BulkJobView>().id);
    });

    it('fileUrl that cannot be read is refused saying why, never read as an empty list; nothing is queued or charged', async () => {
      const before = await t.services.billing.balance(t.keyId);
      const jobs = (await t.get('/bulk')).json<{ jobs: unknown[] }>().jobs.length;
      const port = new URL(base).port;
      for (const [url, status, why] of [
        [`${base}/missing.csv`, 400, /answered HTTP 404/],
        [`${base}/page.html`, 400, /text\/html, not a CSV, JSON array or JSON Lines file/],
        [`${base}/empty.csv`, 400, /is empty/],
        [`${base}/header-only.csv`, 400, /holds no rows/],
        [`${base}/binary`, 400, /not UTF-8 text|not text/],
        [`${base}/huge.csv`, 413, /larger than 67108864 bytes/],
        // Not a host the tests allow: the SSRF guard refuses loopback and private addresses.
        [`http://127.0.0.2:${port}/leads.csv`, 400, /public address/],
        [`http://localhost:${port}/leads.csv`, 400, /public address/],
        [`${base}/moved.csv`, 400, /public address/],
        ['ftp://files.example/leads.csv', 400, /http or https/],
        ['https://user:secret@files.example/leads.csv', 400, /user name or password/],
        ['not a url', 400, /not a URL/],
      ] as const) {
        const res = await t.post('/bulk/url', { product: 'company_search', fileUrl: url });
        assert.equal(res.statusCode, status, `${url}: ${res.body}`);
        const error = res.json<{ error: string; message: string }>();
        assert.equal(error.error, status === 413 ? 'payload_too_large' : 'invalid_request', url);
        assert.match(error.message, why, url);
      }
      assert.equal((await t.get('/bulk')).json<{ jobs: unknown[] }>().jobs.length, jobs, 'no job made');
      assert.equal(await t.services.billing.balance(t.keyId), before, 'nothing charged');
    });

    it('review (/bulk/review, /bulk/validate): what the submit would read and cost, nothing queued or charged', async () => {
      const before = await t.services.billing.balance(t.keyId);
      const jobs = (await t.get('/bulk')).json<{ jobs: unknown[] }>().jobs.length;
      const body = {
        product: 'email_finder',
        csv: 'First,Last,Site,Phone,first_name\nJohn,Smith,acme-robotics.com,1,x\nJane,,acme-robotics.com,2,y\n,Roe,acme-robotics.com,3,z\n',
        inputMapping: { First: 'first_name', Last: 'last_name', Site: 'domain' },
      };
      for (const path of ['/bulk/review', '/bulk/validate']) {
        const res = await t.post(path, body);
        assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
        const review = res.json<Review>();
        assert.equal(review.total, 3);
        assert.equal(review.readable, 1);
        assert.equal(review.refused, 2);
        assert.deepEqual(
          review.errors.map((e) => e.row_index),
          [1, 2],
        );
        assert.equal(
          review.refusals.reduce((n, r) => n + r.rows, 0),
          2,
        );
        assert.deepEqual(review.sample, [
          { row_index: 0, input: { first_name: 'John', last_name: 'Smith', domain: 'acme-robotics.com', Phone: '1' } },
        ]);
        assert.deepEqual(review.columns, ['First', 'Last', 'Site', 'Phone', 'first_name']);
        assert.deepEqual(review.mapping, [
          { column: 'First', field: 'first_name' },
          { column: 'Last', field: 'last_name' },
          { column: 'Site', field: 'domain' },
        ]);
        // Phone is no field; first_name is one, but the mapping fills it from First.
        assert.deepEqual(review.unused_columns, ['Phone', 'first_name']);
        assert.equal(review.price_per_row, 1);
        assert.equal(review.max_credits, 1);
      }
      const bad = await t.post('/bulk/review', { product: 'email_finder', rows: [{}], inputMapping: { First: 'given_name' } });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json<{ message: string }>().message, /given_name/);
      assert.equal((await t.get('/bulk')).json<{ jobs: unknown[] }>().jobs.length, jobs, 'no job made');
      assert.equal(await t.services.billing.balance(t.keyId), before, 'nothing charged');
    });

    it('forms we do not run (scrape, upload sessions) are refused naming what to send instead', async () => {
      const scrape = await t.post('/bulk/scrape', { product: 'company_search', scrape: { url: 'https://example.com' } });
      assert.equal(scrape.statusCode, 400);
      assert.match(scrape.json<{ message: string }>().message, /not run by this server.*rows, csv or fileUrl/);
      const inBody = await t.post('/bulk/submit', { product: 'company_search', scrape: { url: 'https://example.com' } });
      assert.equal(inBody.statusCode, 400);
      assert.equal(inBody.json<{ details: { field: string }[] }>().details[0].field, '/scrape');
      const json = await t.post('/bulk/file', { product: 'company_search', uploadId: 'up_1' });
      assert.equal(json.statusCode, 415);
      assert.match(json.json<{ message: string }>().message, /multipart\/form-data.*csv.*fileUrl/);
      const empty = await t.inject({
        method: 'POST',
        url: '/bulk/file',
        headers: { 'x-api-key': t.key, 'content-type': 'multipart/form-data; boundary=x' },
        payload: '',
      });
      assert.equal(empty.statusCode, 400);
      assert.match(empty.json<{ message: string }>().message, /cannot be read.*fileUrl/);
      const noKey = await t.inject({ method: 'POST', url: '/bulk/file', payload: '' });
      assert.equal(noKey.statusCode, 401);
    });

    /** A multipart/form-data body of these parts: [name, value, file name and type when a file]. */
    function form(parts: [string, string, { filename: string; type: string }?][]) {
      const body = parts
        .map(
          ([name, value, file]) =>
            `--b0undary\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file.filename}"\r\nContent-Type: ${file.type}` : ''}\r\n\r\n${value}\r\n`,
        )
        .join('');
      return t.inject({
        method: 'POST',
        url: '/bulk/file',
        headers: { 'x-api-key': t.key, 'content-type': 'multipart/form-data; boundary=b0undary' },
        payload: `${body}--b0undary--\r\n`,
      });
    }

    it('/bulk/file: a multipart form with a product field and a CSV or JSON Lines file part is submitted', async () => {
      const csv = await form([
        ['product', 'company_search'],
        ['inputMapping', JSON.stringify({ Website: 'company_domain' })],
        ['file', 'Website,Name\r\nacme-robotics.com,Acme\r\n', { filename: 'leads.csv', type: 'text/csv' }],
      ]);
      assert.equal(csv.statusCode, 202, csv.body);
      assert.deepEqual(inputs(await doneRows(csv.json<BulkJobView>().id)), [{ company_domain: 'acme-robotics.com', Name: 'Acme' }]);
      const jsonl = await form([
        ['product', 'company_search'],
        ['upload', '{"company_domain":"acme-robotics.com"}\n', { filename: 'leads.jsonl', type: 'application/octet-stream' }],
      ]);
      assert.equal(jsonl.statusCode, 202, jsonl.body);
      assert.deepEqual(inputs(await doneRows(jsonl.json<BulkJobView>().id)), [{ company_domain: 'acme-robotics.com' }]);
      for (const [parts, field] of [
        [[['file', 'company_domain\nacme-robotics.com\n', { filename: 'a.csv', type: 'text/csv' }]], '/product'],
        [[['product', 'company_search']], '/file'],
        [
          [
            ['product', 'company_search'],
            ['inputMapping', '[1]'],
            ['file', 'a\n1\n', { filename: 'a.csv', type: 'text/csv' }],
          ],
          '/inputMapping',
        ],
        [
          [
            ['product', 'company_search'],
            ['file', '<html></html>', { filename: 'a.html', type: 'text/html' }],
          ],
          '/file',
        ],
        [
          [
            ['product', 'company_search'],
            ['file', '', { filename: 'a.csv', type: 'text/csv' }],
          ],
          '/file',
        ],
      ] as [[string, string, { filename: string; type: string }?][], string][]) {
        const res = await form(parts);
        assert.equal(res.statusCode, 400, `${field}: ${res.body}`);
        assert.equal(res.json<{ details: { field: string }[] }>().details[0].field, field, res.body);
      }
    });

    it('the download writes cells a spreadsheet would run with a leading quote', async () => {
      const res = await t.post('/bulk', {
        product: 'company_search',
        rows: [{ company_domain: 'acme-robotics.com' }, { company_name: '=HYPERLINK("http://x.test","y")' }, { company_name: '-5' }],
      });
      const { id } = res.json<BulkJobView>();
      await doneRows(id);
      const csv = (await t.get(`/bulk/${id}/download`)).body;
      assert.match(csv, /"'=HYPERLINK\(""http:\/\/x\.test"",""y""\)"/);
      assert.doesNotMatch(csv, /[\n,]=HYPERLINK/);
      assert.match(csv, /,-5,/);
    });
  });
}
