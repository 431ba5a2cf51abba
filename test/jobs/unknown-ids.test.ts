// An id that names nothing in its list is refused with the valid values, not answered "no jobs".
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../support/app.ts';

describe('jobs-finder ids must name something', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  const refused: [string, unknown, RegExp][] = [
    ['region_id', 99, /valid values are 1 \(.+\), 2 \(.+\).*GET \/job-regions/],
    ['job_type_id', 99, /valid values are 1 \(.+\).*GET \/job-types/],
    ['company_type_id', 99, /valid values are 1 \(.+\).*GET \/job-company-types/],
    ['company_industry_id', 9999, /GET \/job-industries/],
    ['country_id', 'ZZ', /ISO 3166-1 alpha-2.*UK is accepted for GB/],
  ];
  for (const [field, value, message] of refused) {
    it(`${field} ${JSON.stringify(value)}: 400 naming the field and the valid values, nothing charged`, async () => {
      const res = await t.post('/jobs-finder', { [field]: value });
      assert.equal(res.statusCode, 400, res.body);
      const body = res.json<{ error: string; message: string; details: { field: string }[] }>();
      assert.equal(body.error, 'invalid_request');
      assert.match(body.message, new RegExp(field));
      assert.match(body.message, message);
      assert.equal(body.details[0].field, `/${field}`);
      assert.equal((await t.get('/credits')).json<{ credits: number }>().credits, 100);
    });
  }

  it('UK is accepted as the common alias of GB, in any case', async () => {
    for (const code of ['UK', 'uk', 'GB', 'gb']) {
      const res = await t.post('/jobs-finder', { country_id: code });
      assert.equal(res.statusCode, 200, `${code}: ${res.body}`);
    }
  });
});
