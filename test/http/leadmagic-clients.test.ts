// The requests real clients of LeadMagic's API send (recorded from their sources in
// test/fixtures/real/clients/<client>/requests.json, origins in test/fixtures/real/ORIGINS.md),
// replayed against a live server with the sample world: each answers as that client reads it, and
// each charge is the price rule applied to what was returned (a bulk job's, each row's at its
// operation's rule). Requests for operations we do not
// have yet are answered with our 404 not_found envelope and listed as pending.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { dbTargets } from '../support/db.ts';
import type { TestApp } from '../support/app.ts';
import { connectMcp, priceOf } from '../support/charges.ts';
import { startSampleWorld, SAMPLE_POSTED_AFTER, type SampleWorld } from '../support/sample-world.ts';
import { until } from '../support/until.ts';
import { readField as read, withSampleValues } from '../support/leadmagic-replay.ts';
import { OPERATIONS, isOperationId, type ChargedOperationId, type OperationId } from '../../src/operations/catalogue.ts';
import { readPeopleJsonl } from '../../src/ingest/people/jsonl.ts';
import { runPeopleImport } from '../../src/ingest/people/runner.ts';

interface RecordedRequest {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  source: string;
  operation?: OperationId;
  pending?: string;
  /** The status we answer when it is not 200 (a lifecycle call a done job does not allow: 409). */
  answers?: number;
  /** A submit that names a callback: its job's end is POSTed to the suite's receiver. */
  callback?: boolean;
  /** A form of LeadMagic's we do not run: refused with a 4xx naming what to send instead. */
  unsupported?: string;
  reads?: string[];
  readsAnyOf?: string[][];
  tool?: string;
}
interface ClientFixture {
  client: string;
  repository: string;
  commit: string;
  requests: RecordedRequest[];
  mcpTools?: { tools: { tool: string; operation?: OperationId; pending?: string }[] };
}

const FIXTURES_DIR = new URL('../fixtures/real/clients/', import.meta.url);
const CLIENTS = readdirSync(FIXTURES_DIR).map((name) => ({
  name,
  fixture: JSON.parse(readFileSync(new URL(`${name}/requests.json`, FIXTURES_DIR), 'utf8')) as ClientFixture,
}));

const isCharged = (id: OperationId): id is ChargedOperationId => 'charge' in OPERATIONS[id];

for (const target of dbTargets) {
  describe(`requests real LeadMagic clients send (${target.name})`, { skip: target.skip }, () => {
    let sample: SampleWorld;
    let t: TestApp;
    let baseUrl: string;
    let files: Server;

    let receiver: Server;
    const announced: string[] = [];
    /** Values known once the suite runs: the callback receiver's and the list file's addresses. */
    const runValues: Record<string, string> = {};
    before(async () => {
      // A callback's receiver: on loopback, which the sample world's mail settings let deliveries reach.
      receiver = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          announced.push(body);
          response.end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      runValues['<callback>'] = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/leadmagic-callback`;
      // The file a bulk job's fileUrl names, served here (the guarded client may fetch from this host only).
      files = createServer((_request, response) =>
        response.writeHead(200, { 'content-type': 'text/csv' }).end('first_name,last_name,company_name\nJohn,Smith,acme-robotics.com\n'),
      );
      await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
      const filesHost = `127.0.0.1:${(files.address() as AddressInfo).port}`;
      runValues['https://files.example/leads.csv'] = `http://${filesHost}/leads.csv`;
      // Its own queue: the bulk jobs the clients submit are worked by this suite's workers only.
      sample = await startSampleWorld(target, 100_000, { ownQueue: true, allowPrivateHosts: [filesHost] });
      t = sample.t;
      baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await sample?.close();
      receiver?.close();
      files?.closeAllConnections();
      await new Promise((resolve) => files?.close(resolve));
    });

    /** The recorded request, with our key where theirs was and the sample world's values. */
    function send(request: RecordedRequest, key = t.key) {
      const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v === '<key>' ? key : v]));
      const body = withSampleValues(request.body, runValues);
      return t.inject({
        method: request.method,
        url: request.path,
        headers,
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
    }

    for (const { name, fixture } of CLIENTS) {
      it(`${name}: every recorded request is answered as the client reads it (${fixture.repository} @ ${fixture.commit.slice(0, 7)})`, async (ctx) => {
        const pending: string[] = [];
        // The bulk family's calls after a submit name its job ({jobId} in their paths).
        let jobId = '';
        for (const recorded of fixture.requests) {
          const request = { ...recorded, path: recorded.path.replace('{jobId}', jobId) };
          const label = `${name} › ${request.name}: ${request.method} ${request.path}`;
          const before = await t.services.billing.balance(t.keyId);
          const res = await send(request);
          if (request.pending) {
            assert.equal(res.statusCode, 404, `${label}: ${res.body}`);
            assert.equal(res.json<{ error: string }>().error, 'not_found', label);
            assert.equal(await t.services.billing.balance(t.keyId), before, `${label}: nothing charged`);
            pending.push(`${request.method} ${request.path} (${request.pending})`);
            continue;
          }
          if (request.unsupported) {
            assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${label}: ${res.body}`);
            assert.match(res.json<{ message: string }>().message, /fileUrl/, `${label}: names what to send instead`);
            assert.equal(await t.services.billing.balance(t.keyId), before, `${label}: nothing charged`);
            pending.push(`${request.method} ${request.path} (refused: ${request.unsupported})`);
            continue;
          }
          if (request.operation === 'bulk-submit') {
            assert.equal(res.statusCode, 202, `${label}: ${res.body}`);
            jobId = res.json<{ job_id: string }>().job_id;
            assert.ok(jobId, `${label}: a job id`);
            // Its rows are charged as they are answered: once it is done, the balance paid each row's price rule.
            const job = async () => (await t.get(`/bulk/${jobId}`)).json<{ status: string; operation: ChargedOperationId }>();
            await until(async () => (await job()).status === 'done', 60_000, 50);
            const rows = (await t.get(`/bulk/${jobId}/results`)).json<{ rows: { output: Record<string, unknown> | null }[] }>().rows;
            const operation = (await job()).operation;
            const cost = rows.reduce((sum, row) => sum + (row.output ? priceOf(operation, row.output) : 0), 0);
            assert.equal(before - (await t.services.billing.balance(t.keyId)), cost, `${label}: each row charged as its single call`);
            if (request.callback) {
              await until(() => announced.some((body) => body.includes(jobId)), 30_000, 50).catch(() =>
                assert.fail(`${label}: no callback announced the job's end`),
              );
            }
          } else {
            assert.equal(res.statusCode, request.answers ?? 200, `${label}: ${res.body}`);
          }
          // A file (CSV) is read by its header's columns; an event stream by its last event's data.
          const type = String(res.headers['content-type']);
          const answer = /^text\/event-stream/.test(type)
            ? (JSON.parse(
                res.body
                  .trim()
                  .split('\n')
                  .filter((line) => line.startsWith('data: '))
                  .at(-1)!
                  .slice(6),
              ) as Record<string, unknown>)
            : /^text\/csv/.test(type)
              ? Object.fromEntries(
                  res.body
                    .split('\n')[0]
                    .split(',')
                    .map((column) => [column, column]),
                )
              : res.json<Record<string, unknown>>();
          for (const path of request.reads ?? []) {
            const value = read(answer, path);
            assert.notEqual(value, undefined, `${label}: reads ${path}\n${res.body.slice(0, 600)}`);
            if (path === 'length') assert.ok((value as number) > 0, `${label}: a non-empty list`);
          }
          if (request.readsAnyOf) {
            const present = request.readsAnyOf.some(
              (path) => read(answer, path.join('.')) !== undefined && read(answer, path.join('.')) !== null,
            );
            assert.ok(present, `${label}: reads one of ${JSON.stringify(request.readsAnyOf)}\n${res.body.slice(0, 600)}`);
          }
          if (request.operation === 'bulk-metrics') {
            // The job the client submitted is done: every row served, nothing left, no time left.
            assert.equal(answer.processed, answer.total, `${label}: every row served`);
            assert.deepEqual([answer.remaining, answer.eta_seconds], [0, null], label);
          }
          if (request.operation === 'bulk-logs') {
            const lines = answer.lines as { event: string | null }[];
            assert.deepEqual([lines[0].event, lines.some((line) => line.event === 'done')], ['created', true], label);
          }
          const operation = request.operation!;
          assert.ok(isOperationId(operation), `${label}: ${operation} is an operation`);
          if (isCharged(operation)) {
            const cost = priceOf(operation, answer);
            assert.equal(Math.round((answer.credits_consumed as number) * 1000), cost, `${label}: credits_consumed follows the price rule`);
            assert.equal(before - (await t.services.billing.balance(t.keyId)), cost, `${label}: charged what the price rule says`);
          }
        }
        ctx.diagnostic(
          `${name}: ${fixture.requests.length - pending.length} requests served, ${pending.length} pending: ${pending.join('; ')}`,
        );
      });
    }

    it('the key is accepted as X-API-Key, Authorization: Bearer and X-LeadMagic-Key; a wrong one in any is 401', async () => {
      for (const headers of [{ 'x-api-key': t.key }, { authorization: `Bearer ${t.key}` }, { 'x-leadmagic-key': t.key }]) {
        const res = await t.inject({ method: 'GET', url: '/v1/credits', headers });
        assert.equal(res.statusCode, 200, `${JSON.stringify(Object.keys(headers))}: ${res.body}`);
      }
      for (const headers of [{ authorization: 'Bearer lb_wrong' }, { 'x-leadmagic-key': 'lb_wrong' }]) {
        const res = await t.inject({ method: 'GET', url: '/credits', headers });
        assert.equal(res.statusCode, 401);
        assert.equal(res.json<{ error: string }>().error, 'invalid_api_key');
      }
      const none = await t.inject({ method: 'GET', url: '/credits', headers: { authorization: 'Basic abc' } });
      assert.equal(none.json<{ error: string }>().error, 'missing_api_key');
    });

    const mcpClient = (headers: Record<string, string>) => connectMcp(baseUrl, headers, 'leadmagic-clients-test');

    it('/mcp: their tool names call ours (Bearer and X-LeadMagic-Key); their tools we do not have are unknown', async () => {
      const bearer = await mcpClient({ authorization: `Bearer ${t.key}` });
      const leadmagicKey = await mcpClient({ 'x-leadmagic-key': t.key });
      try {
        const calls: { tool: string; args: Record<string, unknown>; pending?: string }[] = [];
        for (const { fixture } of CLIENTS) {
          for (const request of fixture.requests)
            if (request.tool)
              calls.push({
                tool: request.tool,
                args: (withSampleValues(request.body, runValues) ?? {}) as Record<string, unknown>,
                pending: request.pending,
              });
          for (const tool of fixture.mcpTools?.tools ?? []) {
            // Their hosted tools take the REST request's fields: the first recorded request of the operation.
            const sampleArgs = CLIENTS.flatMap((c) => c.fixture.requests).find((r) => r.operation === tool.operation)?.body;
            calls.push({
              tool: tool.tool,
              args: (withSampleValues(sampleArgs, runValues) ?? {}) as Record<string, unknown>,
              pending: tool.pending,
            });
          }
        }
        assert.ok(calls.length > 40);
        for (const [i, call] of calls.entries()) {
          const client = i % 2 ? bearer : leadmagicKey;
          const result = (await client.callTool({ name: call.tool, arguments: call.args })) as CallToolResult;
          const text = (result.content[0] as { text: string }).text;
          if (call.pending) {
            assert.equal(result.isError, true, call.tool);
            assert.equal((JSON.parse(text) as { error: string }).error, 'unknown_tool', call.tool);
          } else {
            assert.ok(!result.isError, `${call.tool}(${JSON.stringify(call.args)}): ${text}`);
          }
        }
        // find_role takes the company page URL, as the v1 path does.
        const role = (await bearer.callTool({
          name: 'find_role',
          arguments: { job_title: 'VP of Sales', company_profile_url: 'https://www.linkedin.com/company/acme-robotics' },
        })) as CallToolResult;
        assert.equal((role.structuredContent as { first_name: string }).first_name, 'John');
      } finally {
        await bearer.close();
        await leadmagicKey.close();
      }
    });

    it('our paths answer the original field names beside ours; the v1 paths keep only theirs', async () => {
      const ours = (await t.post('/email-validate', { email: 'jane@acme-robotics.com' })).json<Record<string, unknown>>();
      assert.equal(ours.company_prof_url, 'www.linkedin.com/company/acme-robotics');
      assert.equal(ours.company_linkedin_url, ours.company_prof_url);
      assert.equal(ours.company_twitter_url, ours.company_social_b_url);
      assert.equal(ours.company_linkedin_id, '1035');
      const v1 = (await t.post('/v1/people/email-validation', { email: 'jane@acme-robotics.com' })).json<Record<string, unknown>>();
      assert.equal(v1.company_linkedin_url, ours.company_prof_url);
      assert.ok(!('company_prof_url' in v1));
      const funding = (await t.post('/company-funding', { company_domain: 'acme-robotics.com' })).json<{
        leadership: { ceo: Record<string, unknown> };
      }>();
      assert.equal(funding.leadership.ceo.linkedin, funding.leadership.ceo.prof);
      const jobs = (await t.post('/jobs-finder', { company_name: 'Acme Robotics', posted_after: SAMPLE_POSTED_AFTER })).json<{
        results: { company: Record<string, unknown> }[];
      }>();
      assert.equal(jobs.results[0].company.linkedin_url, jobs.results[0].company.prof_url);
    });

    it('request forms: each unambiguous one read as ours, the others refused naming the field', async () => {
      const bySkill = await t.post('/v1/companies/company-search', { domain: 'acme-robotics.com' });
      assert.equal(bySkill.json<{ company_name: string }>().company_name, 'Acme Robotics, Inc.');
      const byPage = await t.post('/company-funding', { linkedin_url: 'https://www.linkedin.com/company/acme-robotics' });
      assert.equal(byPage.json<{ message: string }>().message, 'Funding data found.');
      const conflict = await t.post('/company-search', { domain: 'acme-robotics.com', company_domain: 'other.example' });
      assert.equal(conflict.statusCode, 400);
      assert.match(conflict.json<{ message: string }>().message, /domain and company_domain/);
      const full = await t.post('/email-finder', { full_name: 'John Smith', company_name: 'acme-robotics.com' });
      assert.equal(full.json<{ email: string }>().email, 'john.smith@acme-robotics.com');
      const oneWord = await t.post('/email-finder', { full_name: 'Cher', domain: 'acme-robotics.com' });
      assert.equal(oneWord.statusCode, 400);
      assert.match(oneWord.json<{ message: string }>().message, /full_name/);
      const days = await t.post('/jobs-finder', { job_title: 'Robotics Engineer', posted_within: '400', per_page: '5' });
      assert.equal(days.statusCode, 200, days.body);
      assert.equal(days.json<{ per_page: number }>().per_page, 5);
      const notANumber = await t.post('/jobs-finder', { posted_within: 'last week' });
      assert.equal(notANumber.statusCode, 400);
      assert.match(notANumber.json<{ message: string }>().message, /posted_within/);
    });

    it('employee finder: limit is honoured (paged through above a page) and only what is returned is charged', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'leadbase-employees-'));
      try {
        const file = join(dir, 'people.jsonl');
        const people = Array.from({ length: 75 }, (_, i) =>
          JSON.stringify({
            id: `pg${i}`,
            first_name: `Person${i}`,
            last_name: 'Pager',
            profile_url: `pager-${i}`,
            positions: [{ company_name: 'Pager Works', company_domain: 'pager-works.example', title: 'Engineer', start: '2022-01' }],
          }),
        );
        writeFileSync(file, people.join('\n') + '\n');
        await runPeopleImport({
          db: t.database.db,
          companies: t.services.companies,
          source: 'jsonl',
          records: readPeopleJsonl(file).records,
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      for (const [path, body, expected] of [
        ['/v1/people/employee-finder', { company_domain: 'pager-works.example', limit: 1 }, 1],
        ['/employee-finder', { company_domain: 'pager-works.example', limit: 1 }, 1],
        ['/v1/people/employee-finder', { company_domain: 'pager-works.example', limit: 60 }, 60],
        ['/v1/people/employee-finder', { company_domain: 'pager-works.example', limit: 100 }, 75],
        ['/v1/people/employees', { company_domain: 'pager-works.example', limit: 30, page: 3 }, 15],
        ['/employee-finder', { company_domain: 'pager-works.example' }, 20],
      ] as const) {
        const before = await t.services.billing.balance(t.keyId);
        const res = await t.post(path, body);
        assert.equal(res.statusCode, 200, res.body);
        const answer = res.json<{ data: { full_name: string }[]; returned_count: number; total_count: number; credits_consumed: number }>();
        assert.equal(answer.data.length, expected, `${path} ${JSON.stringify(body)}`);
        assert.equal(answer.returned_count, expected);
        assert.equal(answer.total_count, 75);
        assert.equal(new Set(answer.data.map((e) => e.full_name)).size, expected, 'no employee twice');
        assert.equal(Math.round(answer.credits_consumed * 1000), expected * 50);
        assert.equal(before - (await t.services.billing.balance(t.keyId)), expected * 50, 'charged exactly what was returned');
      }
      const mcp = await mcpClient({ 'x-api-key': t.key });
      try {
        const result = (await mcp.callTool({
          name: 'find_employees',
          arguments: { company_domain: 'pager-works.example', limit: 1 },
        })) as CallToolResult;
        assert.equal((result.structuredContent as { data: unknown[] }).data.length, 1);
        assert.equal((result.structuredContent as { credits_consumed: number }).credits_consumed, 0.05);
      } finally {
        await mcp.close();
      }
      const disagree = await t.post('/employee-finder', { company_domain: 'pager-works.example', limit: 5, per_page: 10 });
      assert.equal(disagree.statusCode, 400);
      assert.match(disagree.json<{ message: string }>().message, /limit/);
    });

    it('jobs: on the v1 paths an absent has_remote takes any listing; our own path keeps the contract default (non-remote)', async () => {
      await t.services.jobs.importer.importBoard(
        [
          {
            sourceId: 'R1',
            title: 'Remote Robotics Engineer',
            location: 'Remote',
            remote: true,
            employmentTypes: ['Full-time'],
            publishedAt: Date.UTC(2026, 0, 20, 9, 0),
            descriptionHtml: '<p>Build robots from home.</p>',
            applyUrl: 'https://jobs.example/r1',
            company: { name: 'Acme Robotics, Inc.', website: 'https://acme-robotics.com' },
          },
        ],
        { source: 'greenhouse', board: 'acme-remote', now: Date.now() },
      );
      const query = { company_name: 'Acme Robotics', posted_after: SAMPLE_POSTED_AFTER };
      const titles = (body: string) => (JSON.parse(body) as { results: { title: string }[] }).results.map((r) => r.title);
      const v1 = await t.post('/v1/jobs/jobs-finder', query);
      assert.deepEqual(titles(v1.body), ['Remote Robotics Engineer', 'Robotics Engineer'], 'newest first, remote or not');
      assert.equal(v1.json<{ total_count: number; credits_consumed: number }>().total_count, 2);
      assert.equal(v1.json<{ credits_consumed: number }>().credits_consumed, 2, '1 credit per returned listing');
      const secondPage = await t.post('/v1/jobs/finder', { ...query, per_page: 1, page: 2 });
      assert.deepEqual(titles(secondPage.body), ['Robotics Engineer']);
      assert.deepEqual(titles((await t.post('/v1/jobs/jobs-finder', { ...query, has_remote: true })).body), ['Remote Robotics Engineer']);
      assert.deepEqual(titles((await t.post('/jobs-finder', query)).body), ['Robotics Engineer'], 'ours: has_remote defaults to false');
      const deep = await t.post('/v1/jobs/jobs-finder', { ...query, page: 1000, per_page: 50 });
      assert.equal(deep.statusCode, 400);
      assert.match(deep.json<{ message: string }>().message, /has_remote/);
    });
  });
}
