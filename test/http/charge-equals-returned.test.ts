// Every charged operation, on every path it is served at (ours, each LeadMagic v1 spelling), as its
// MCP tool and as a row of a bulk job, asked for something the sample world has: the charge is the
// operation's price rule applied to what was returned, in credits_consumed, in the balance and in
// the ledger. A new charged operation without a request here is a compile error.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { dbTargets } from '../support/db.ts';
import type { TestApp } from '../support/app.ts';
import { connectMcp, priceOf } from '../support/charges.ts';
import { startSampleWorld, SAMPLE_POSTED_AFTER, type SampleWorld } from '../support/sample-world.ts';
import { OPERATIONS, spellingsOf, type ChargedOperationId } from '../../src/operations/catalogue.ts';
import type { BULK_PRODUCTS } from '../../src/contract/bulk.ts';
import { TOOLS, type ToolName } from '../../src/mcp/tools.ts';
import { until } from '../support/until.ts';

/** The bulk products, by the operation each row is a call of. */
const BULK_PRODUCT_OPERATIONS = {
  email_finder: 'email-finder',
  email_validation: 'email-validate',
  mobile_finder: 'mobile-finder',
  company_search: 'company-search',
  profile_search: 'profile-search',
} as const satisfies Record<(typeof BULK_PRODUCTS)[number], ChargedOperationId>;

/** A request each charged operation answers with something found (a non-zero charge). */
const FOUND: Record<ChargedOperationId, Record<string, unknown>> = {
  'email-validate': { email: 'jane@acme-robotics.com' },
  'email-finder': { first_name: 'John', last_name: 'Smith', domain: 'acme-robotics.com' },
  'company-funding': { company_domain: 'acme-robotics.com' },
  'company-search': { company_domain: 'acme-robotics.com' },
  'jobs-finder': { company_name: 'Acme Robotics', posted_after: SAMPLE_POSTED_AFTER, has_remote: false },
  'role-finder': { job_title: 'VP of Sales', company_domain: 'acme-robotics.com' },
  'employee-finder': { company_domain: 'acme-robotics.com', limit: 2 },
  'mobile-finder': { work_email: 'john.smith@acme-robotics.com' },
  'b2b-profile-email': { profile_url: 'https://www.linkedin.com/in/maria-de-la-cruz' },
  'b2b-profile': { work_email: 'maria@acme-robotics.com' },
  'profile-search': { profile_url: 'https://www.linkedin.com/in/john-smith-42' },
  'personal-email-finder': { profile_url: 'https://www.linkedin.com/in/maria-de-la-cruz' },
  'people-search': { company_filters: { company_domain: ['acme-robotics.com'] }, people_filters: { contact_job_function: ['Sales'] } },
  'competitors-search': { company_domain: 'acme-robotics.com' },
  technographics: { company_domain: 'acme-robotics.com' },
  'job-change-detector': { profile_url: 'john-smith-42', company_domain: 'globex.example.com' },
};

for (const target of dbTargets) {
  describe(`the charge is the price rule applied to what was returned (${target.name})`, { skip: target.skip }, () => {
    let sample: SampleWorld;
    let t: TestApp;
    let baseUrl: string;
    before(async () => {
      // Its own queue: the bulk jobs below are worked by this suite's workers only.
      sample = await startSampleWorld(target, 10_000, { ownQueue: true });
      t = sample.t;
      baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(() => sample?.close());

    const ledgerTotal = async () => {
      const rows = await t.database.db.selectFrom('credit_ledger').select('amount').where('key_id', '=', t.keyId).execute();
      return rows.reduce((sum, r) => sum + Number(r.amount), 0);
    };

    /** Asserts one answer's charge and returns it. */
    async function checkCharge(id: ChargedOperationId, label: string, call: () => Promise<Record<string, unknown>>): Promise<void> {
      const balance = await t.services.billing.balance(t.keyId);
      const ledger = await ledgerTotal();
      const answer = await call();
      const cost = priceOf(id, answer);
      assert.ok(cost > 0, `${label}: something was found\n${JSON.stringify(answer).slice(0, 400)}`);
      assert.equal(Math.round((answer.credits_consumed as number) * 1000), cost, `${label}: credits_consumed`);
      assert.equal(balance - (await t.services.billing.balance(t.keyId)), cost, `${label}: balance`);
      assert.equal(Math.abs((await ledgerTotal()) - ledger), cost, `${label}: one ledger amount`);
    }

    for (const id of Object.keys(FOUND) as ChargedOperationId[]) {
      it(`${id}: on ${[OPERATIONS[id].path, ...spellingsOf(id).plain, ...spellingsOf(id).v1].join(', ')} and as its MCP tool`, async () => {
        for (const path of [OPERATIONS[id].path, ...spellingsOf(id).plain, ...spellingsOf(id).v1]) {
          await checkCharge(id, path, async () => {
            const res = await t.post(path, FOUND[id]);
            assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
            return res.json<Record<string, unknown>>();
          });
        }
        const tool = (Object.keys(TOOLS) as ToolName[]).find((name) => TOOLS[name].operation === id)!;
        const client = await connectMcp(baseUrl, { 'x-api-key': t.key }, 'charge-test');
        try {
          await checkCharge(id, `MCP ${tool}`, async () => {
            const result = (await client.callTool({ name: tool, arguments: FOUND[id] })) as CallToolResult;
            assert.ok(!result.isError, JSON.stringify(result.content));
            return result.structuredContent as Record<string, unknown>;
          });
        } finally {
          await client.close();
        }
      });
    }

    // A bulk job's row is charged as its single call: the same request as a one-row job of its product.
    for (const [product, id] of Object.entries(BULK_PRODUCT_OPERATIONS)) {
      it(`${id}: as a row of a ${product} bulk job`, async () => {
        await checkCharge(id, `bulk ${product}`, async () => {
          const res = await t.post('/bulk/submit', { product, rows: [FOUND[id]] });
          assert.equal(res.statusCode, 202, res.body);
          const { job_id } = res.json<{ job_id: string }>();
          await until(async () => (await t.get(`/bulk/jobs/${job_id}`)).json<{ status: string }>().status === 'done', 60_000, 50);
          const [row] = (await t.get(`/bulk/jobs/${job_id}/results`)).json<{ rows: { output: Record<string, unknown> }[] }>().rows;
          return row.output;
        });
      });
    }
  });
}
