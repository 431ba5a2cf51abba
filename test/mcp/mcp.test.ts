// leadbase as an MCP server, tried with the SDK's own client over both transports: Streamable HTTP
// at /mcp on a live server, and stdio through `leadbase mcp` pointed at that server. A tool call is
// charged exactly like the same API call: the same ledger rows, the same idempotency.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { LEADBASE_BIN, runLeadbase } from '../support/cli.ts';
import { TOOLS } from '../../src/mcp/tools.ts';

describe('MCP server', () => {
  let t: TestApp;
  let world: MailWorld;
  let baseUrl: string;

  before(async () => {
    world = await startMailWorld();
    await world.domain('mail.test', { mailboxes: ['jane'] });
    t = await startTestApp(undefined, { credits: 100, deps: { email: { ...world.emailConfig, recheckPollMs: 60_000 } } });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await t?.close();
    await world?.close();
  });

  async function httpClient(apiKey: string): Promise<Client> {
    const client = new Client({ name: 'leadbase-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { 'x-api-key': apiKey } } }),
    );
    return client;
  }

  const ledgerRows = (keyId: number, operation: string) =>
    t.database.db
      .selectFrom('credit_ledger')
      .select(['amount', 'operation'])
      .where('key_id', '=', keyId)
      .where('operation', '=', operation)
      .execute();

  describe('Streamable HTTP at /mcp', () => {
    it('lists one tool per endpoint, with the contract as input and output schemas', async () => {
      const key = await t.services.keys.create('mcp-list', 1000);
      const client = await httpClient(key.key);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.keys(TOOLS).sort());
      const validate = tools.find((tool) => tool.name === 'validate_email')!;
      assert.deepEqual(validate.inputSchema.required, ['email']);
      assert.ok(validate.inputSchema.properties!.idempotency_key, 'charged tools take an idempotency key');
      assert.equal(validate.outputSchema?.type, 'object');
      assert.ok(validate.outputSchema?.properties?.email_status);
      // Each tool states its price, as the operation charges it.
      assert.match(validate.description!, /Charge: 0\.05 credits for valid, valid_catch_all and invalid; 0 for catch_all and unknown\.$/);
      assert.match(
        tools.find((tool) => tool.name === 'find_mobile')!.description!,
        /Charge: 5 credits when a mobile number is found, else 0\.$/,
      );
      const countries = tools.find((tool) => tool.name === 'list_job_countries')!;
      assert.match(countries.description!, /Free\.$/);
      assert.deepEqual(countries.outputSchema?.required, ['items']);
      assert.equal(client.getServerVersion()?.name, 'leadbase');
      await client.close();
    });

    it('a tool call is charged like the API call, on the same ledger; a retry with its idempotency key is not charged again', async () => {
      const key = await t.services.keys.create('mcp-call', 1000);
      const client = await httpClient(key.key);
      const args = { email: 'jane@mail.test', idempotency_key: 'assistant-retry-1' };
      const first = (await client.callTool({ name: 'validate_email', arguments: args })) as CallToolResult;
      assert.ok(!first.isError, JSON.stringify(first.content));
      const result = first.structuredContent as { email_status: string; credits_consumed: number };
      assert.equal(result.email_status, 'valid');
      assert.equal(result.credits_consumed, 0.05);
      assert.deepEqual(JSON.parse((first.content[0] as { text: string }).text), first.structuredContent, 'text content for older clients');
      const again = (await client.callTool({ name: 'validate_email', arguments: args })) as CallToolResult;
      assert.deepEqual(again.structuredContent, first.structuredContent);
      assert.equal(await t.services.billing.balance(key.id), 1000 - 50, 'charged once');
      const rows = await ledgerRows(key.id, 'email-validate');
      assert.equal(rows.length, 1);
      const credits = (await client.callTool({ name: 'check_credits', arguments: {} })) as CallToolResult;
      assert.deepEqual(credits.structuredContent, { credits: 0.95 });
      const types = (await client.callTool({ name: 'list_job_types', arguments: {} })) as CallToolResult;
      assert.ok((types.structuredContent as { items: unknown[] }).items.length > 0);
      await client.close();
    });

    it("an API error is the tool's error, in the API's envelope; nothing is charged", async () => {
      const key = await t.services.keys.create('mcp-errors', 10_000);
      const client = await httpClient(key.key);
      const invalid = (await client.callTool({ name: 'find_role', arguments: { job_title: 'CEO' } })) as CallToolResult;
      assert.equal(invalid.isError, true);
      assert.equal(JSON.parse((invalid.content[0] as { text: string }).text).error, 'invalid_request');
      assert.equal(await t.services.billing.balance(key.id), 10_000);
      await client.close();
      const empty = await t.services.keys.create('mcp-empty', 0);
      const poorClient = await httpClient(empty.key);
      const poor = (await poorClient.callTool({ name: 'validate_email', arguments: { email: 'jane@mail.test' } })) as CallToolResult;
      assert.equal(poor.isError, true);
      assert.equal(JSON.parse((poor.content[0] as { text: string }).text).error, 'insufficient_credits');
      await poorClient.close();
    });

    it('refuses a missing or wrong key at /mcp itself, and GET (no server stream) with 405', async () => {
      const none = await fetch(`${baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      assert.equal(none.status, 401);
      assert.equal(((await none.json()) as { error: string }).error, 'missing_api_key');
      await assert.rejects(httpClient('lb_wrong'), /401|invalid_api_key/);
      const get = await fetch(`${baseUrl}/mcp`, { headers: { accept: 'text/event-stream', 'x-api-key': 'lb_any' } });
      assert.equal(get.status, 405);
      assert.equal(get.headers.get('allow'), 'POST');
      assert.equal(((await get.json()) as { error: string }).error, 'method_not_allowed');
    });

    it('refuses what is not an MCP request in the API envelope: a wrong Accept (406), a body that is not JSON-RPC (400)', async () => {
      const key = await t.services.keys.create('mcp-refusals', 0);
      const post = (accept: string, body: unknown) =>
        fetch(`${baseUrl}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept, 'x-api-key': key.key },
          body: JSON.stringify(body),
        });
      const message = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
      const notAcceptable = await post('application/json', message);
      assert.equal(notAcceptable.status, 406);
      assert.equal(((await notAcceptable.json()) as { error: string }).error, 'not_acceptable');
      for (const body of [{}, -1e308, [], { jsonrpc: '1.0', method: 'x' }]) {
        const res = await post('application/json, text/event-stream', body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(((await res.json()) as { error: string }).error, 'invalid_request');
      }
    });
  });

  describe('stdio: leadbase mcp', () => {
    it('serves the same tools against LEADBASE_URL with LEADBASE_API_KEY, charged on that server', async () => {
      const key = await t.services.keys.create('mcp-stdio', 1000);
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [LEADBASE_BIN, 'mcp'],
        env: { ...process.env, LEADBASE_URL: baseUrl, LEADBASE_API_KEY: key.key },
        stderr: 'pipe',
      });
      const client = new Client({ name: 'leadbase-test', version: '1.0.0' });
      await client.connect(transport);
      const { tools } = await client.listTools();
      assert.equal(tools.length, Object.keys(TOOLS).length);
      const found = (await client.callTool({ name: 'validate_email', arguments: { email: 'jane@mail.test' } })) as CallToolResult;
      assert.equal((found.structuredContent as { email_status: string }).email_status, 'valid');
      const bad = (await client.callTool({ name: 'search_jobs', arguments: { per_page: 'ten' } })) as CallToolResult;
      assert.equal(bad.isError, true);
      assert.equal(JSON.parse((bad.content[0] as { text: string }).text).error, 'invalid_request');
      await client.close();
      assert.equal(await t.services.billing.balance(key.id), 1000 - 50);
      assert.equal((await ledgerRows(key.id, 'email-validate')).length, 1);
    });

    it('refuses to start without LEADBASE_API_KEY, saying why', async () => {
      const env = { ...process.env, LEADBASE_API_KEY: '' };
      const result = await runLeadbase(['mcp'], env, 20_000);
      assert.equal(result.status, 2);
      assert.match(result.stderr, /LEADBASE_API_KEY/);
      assert.equal(result.stdout, '', 'stdout carries only the protocol');
    });
  });
});
