// The life of bulk jobs against a live server with the sample world, on each storage mode with its
// real queue (the embedded queue on SQLite, pg-boss on PostgreSQL): a product job's callback
// (signed, on done, failed and cancelled), pause / resume / restart by its owner with exact money
// (nothing charged twice, nothing served unpaid), its event history and its SSE stream; and jobs of
// both kinds whose runs keep failing (the database under them broken) end `failed` with the reason.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, get as httpGet, type ClientRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { dbTargets } from '../support/db.ts';
import type { TestApp } from '../support/app.ts';
import { startSampleWorld, type SampleWorld } from '../support/sample-world.ts';
import { until } from '../support/until.ts';
import { signWebhook, SIGNATURE_HEADER } from '../../src/net/webhooks.ts';
import type { BulkJobView } from '../../src/bulk/types.ts';
import type { BulkEventView } from '../../src/bulk/events.ts';

const FOUND = { company_domain: 'acme-robotics.com' };
const ALSO_FOUND = { company_domain: 'borealis-automation.example' };

for (const target of dbTargets) {
  describe(`the life of bulk jobs (${target.name})`, { skip: target.skip, timeout: 240_000 }, () => {
    let sample: SampleWorld;
    let t: TestApp;
    let baseUrl: string;
    let receiver: Server;
    let hookUrl: string;
    const received: { body: string; headers: IncomingHttpHeaders }[] = [];

    before(async () => {
      receiver = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          received.push({ body, headers: request.headers });
          response.end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      sample = await startSampleWorld(target, 100_000, {
        ownQueue: true,
        pausedCheckMs: 100,
        bulk: { runAttempts: 3, retryDelayMs: 50, streamTiming: { pollMs: 50, heartbeatMs: 200 } },
      });
      t = sample.t;
      baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await sample?.close();
      receiver?.close();
    });

    const balance = (keyId: number) => t.services.billing.balance(keyId);
    const status = async (id: string, key: string) => (await t.get(`/bulk/${id}`, { 'x-api-key': key })).json<BulkJobView>();
    const reaches = (id: string, key: string, states: string[]) =>
      until(async () => states.includes((await status(id, key)).status), 60_000, 25).catch(async () =>
        assert.fail(`${id} never ${states.join('/')}: ${JSON.stringify(await status(id, key))}`),
      );
    const call = (method: 'POST' | 'GET', url: string, key: string) => t.inject({ method, url, headers: { 'x-api-key': key } });
    const history = async (id: string, key: string) =>
      (await call('GET', `/bulk/jobs/${id}/events`, key)).json<{ events: BulkEventView[] }>().events;
    const callbackOf = (id: string) =>
      until(() => received.some((r) => r.body.includes(id)), 30_000, 25).then(
        () => received.find((r) => r.body.includes(id))!,
        () => assert.fail(`no callback for ${id}`),
      );
    /** A key with `credits` and a company_search job of `rows` submitted under it, paused for credits. */
    async function pausedForCredits(credits: number, rows: object[], extra: object = {}) {
      const key = await t.services.keys.create(`poor-${Math.random()}`, credits * 1000);
      const res = await t.post('/bulk/submit', { product: 'company_search', rows, ...extra }, { 'x-api-key': key.key });
      assert.equal(res.statusCode, 202, res.body);
      const job = res.json<BulkJobView>();
      await reaches(job.id, key.key, ['paused_insufficient_credits']);
      return { key, job };
    }

    it('a callback (LeadMagic `callback` or our `webhook_url`) is POSTed, signed, when the job is done', async () => {
      const res = await t.post('/bulk/submit', { product: 'company_search', rows: [FOUND, {}], callback: hookUrl });
      assert.equal(res.statusCode, 202, res.body);
      const { id } = res.json<BulkJobView>();
      const delivery = await callbackOf(id);
      const body = JSON.parse(delivery.body) as Record<string, unknown>;
      assert.equal(body.event, 'bulk_job.done');
      assert.equal(body.job_id, id);
      assert.equal(body.status, 'done');
      assert.equal(body.processed, 2);
      assert.equal(body.credits_consumed, 1);
      assert.match(String(body.results_url), new RegExp(`/bulk/${id}/results$`));
      assert.match(String(body.download_url), new RegExp(`/bulk/${id}/download$`));
      const header = String(delivery.headers[SIGNATURE_HEADER]);
      const seconds = Number(/t=(\d+)/.exec(header)![1]);
      assert.equal(header, signWebhook((await t.services.keys.webhookSecret(t.keyId))!, delivery.body, seconds));

      const ours = await t.post('/bulk', { product: 'company_search', rows: [FOUND], webhook_url: hookUrl });
      assert.equal(JSON.parse((await callbackOf(ours.json<BulkJobView>().id)).body).status, 'done');
    });

    it('refuses a callback a client may not give, naming the field', async () => {
      for (const [body, field] of [
        [{ callback: 'ftp://hooks.example.com/x' }, '/callback'],
        [{ webhook_url: 'https://user:pw@hooks.example.com/x' }, '/webhook_url'],
        [{ callback: 'https://a.example/x', webhook_url: 'https://b.example/x' }, '/webhook_url'],
      ] as const) {
        const res = await t.post('/bulk', { product: 'company_search', rows: [FOUND], ...body });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json<{ details: { field: string }[] }>().details[0].field, field);
      }
    });

    it('pause stops the charges (credits granted meanwhile are not spent), resume goes on, every row charged once', async () => {
      const rows = [FOUND, FOUND, FOUND, ALSO_FOUND, {}];
      const { key, job } = await pausedForCredits(2, rows, { callback: hookUrl });
      const paused = await call('POST', `/bulk/jobs/${job.id}/pause`, key.key);
      assert.equal(paused.statusCode, 200, paused.body);
      assert.equal(paused.json<BulkJobView>().status, 'paused');
      await t.services.billing.grant(key.id, 10_000, 'top-up');
      await new Promise((resolve) => setTimeout(resolve, 600));
      const still = await status(job.id, key.key);
      assert.equal(still.status, 'paused');
      assert.equal(still.processed, 2, 'nothing more served while paused');
      assert.equal(await balance(key.id), 10_000, 'nothing charged while paused');
      assert.equal((await call('GET', `/bulk/${job.id}/results`, key.key)).json<{ rows: unknown[] }>().rows.length, 2);

      const resumed = await call('POST', `/bulk/${job.id}/resume`, key.key);
      assert.equal(resumed.statusCode, 200, resumed.body);
      await reaches(job.id, key.key, ['done']);
      const done = await status(job.id, key.key);
      assert.equal(done.processed, 5);
      assert.equal(done.credits_consumed, 4);
      assert.equal(await balance(key.id), 10_000 - 2000, 'the two rows left charged once; the first two were paid before');
      const ledger = await t.database.db
        .selectFrom('credit_ledger')
        .select(['request_id', 'amount'])
        .where('key_id', '=', key.id)
        .execute();
      assert.equal(
        ledger.filter((l) => String(l.request_id).startsWith(job.id)).reduce((sum, l) => sum + Math.abs(Number(l.amount)), 0),
        4000,
        'the ledger holds each row once',
      );
      assert.deepEqual(
        (await history(job.id, key.key)).map((e) => [e.event, e.reason]),
        [
          ['created', null],
          ['started', null],
          ['paused', 'credits'],
          ['paused', 'owner'],
          ['resumed', 'owner'],
          ['done', null],
        ],
      );
      const events = await history(job.id, key.key);
      assert.equal(events.at(-1)!.processed, 5);
      assert.equal(events.at(-1)!.credits_consumed, 4);
      assert.equal(events[2].processed, 2, 'each event carries the figures of its instant');
      assert.equal(JSON.parse((await callbackOf(job.id)).body).status, 'done');

      // A finished job has nothing to pause, resume or restart: 409 in the envelope.
      for (const verb of ['pause', 'resume', 'restart']) {
        const refused = await call('POST', `/bulk/${job.id}/${verb}`, key.key);
        assert.equal(refused.statusCode, 409, refused.body);
        assert.equal(refused.json<{ error: string }>().error, 'invalid_state');
      }
      // Another key sees no such job.
      assert.equal((await call('POST', `/bulk/${job.id}/pause`, t.key)).statusCode, 404);
      assert.equal((await call('GET', `/bulk/${job.id}/events`, t.key)).statusCode, 404);
    });

    it('restart goes on with a cancelled job from its first row not served; the callback tells each end', async () => {
      const { key, job } = await pausedForCredits(2, [FOUND, FOUND, FOUND, FOUND], { webhook_url: hookUrl });
      const cancelled = await call('POST', `/bulk/jobs/${job.id}/cancel`, key.key);
      assert.equal(cancelled.json<BulkJobView>().status, 'cancelled');
      assert.equal(JSON.parse((await callbackOf(job.id)).body).status, 'cancelled');
      await t.services.billing.grant(key.id, 10_000, 'top-up');
      const restarted = await call('POST', `/bulk/jobs/${job.id}/restart`, key.key);
      assert.equal(restarted.statusCode, 200, restarted.body);
      await reaches(job.id, key.key, ['done']);
      const done = await status(job.id, key.key);
      assert.equal(done.processed, 4);
      assert.equal(done.credits_consumed, 4);
      assert.equal(await balance(key.id), 8000, 'two more rows charged, none twice');
      assert.deepEqual(
        (await history(job.id, key.key)).map((e) => e.event),
        ['created', 'started', 'paused', 'cancelled', 'restarted', 'done'],
      );
      await until(() => received.filter((r) => r.body.includes(job.id)).length === 2, 30_000, 25);
    });

    it('a job whose row answers keep failing ends failed with the reason, its charged rows kept; restart finishes it', async () => {
      // The first window (50 rows) is answered before the key runs short; the rows after it are answered only after the break.
      const rows = [...Array.from({ length: 50 }, () => FOUND), ...Array.from({ length: 5 }, () => ALSO_FOUND)];
      const { key, job } = await pausedForCredits(2, rows, { callback: hookUrl });
      await sql`alter table companies rename to companies_away`.execute(t.database.db);
      try {
        await t.services.billing.grant(key.id, 100_000, 'top-up');
        await reaches(job.id, key.key, ['failed']);
      } finally {
        await sql`alter table companies_away rename to companies`.execute(t.database.db);
      }
      const failed = await status(job.id, key.key);
      assert.equal(failed.processed, 50, 'the rows answered before the break are charged and served');
      assert.equal(failed.credits_consumed, 50);
      assert.match(failed.failure_reason ?? '', /companies.*\(the run failed 3 times\)/);
      assert.equal(await balance(key.id), 100_000 + 2000 - 50_000);
      const callback = JSON.parse((await callbackOf(job.id)).body) as Record<string, unknown>;
      assert.equal(callback.status, 'failed');
      assert.equal(callback.failure_reason, failed.failure_reason);
      const failedEvent = (await history(job.id, key.key)).at(-1)!;
      assert.equal(failedEvent.event, 'failed');
      assert.equal(failedEvent.reason, failed.failure_reason);

      assert.equal((await call('POST', `/bulk/${job.id}/restart`, key.key)).statusCode, 200);
      await reaches(job.id, key.key, ['done']);
      const done = await status(job.id, key.key);
      assert.equal(done.processed, 55);
      assert.equal(done.credits_consumed, 55);
      assert.equal(done.failure_reason, null);
      assert.equal(await balance(key.id), 100_000 + 2000 - 55_000, 'every row charged exactly once');
    });

    it('a validation list whose runs keep failing ends failed with the reason and its webhook', async () => {
      const key = await t.services.keys.create('poor-list', 100);
      const res = await t.post(
        '/email-validate/bulk',
        { emails: ['maria@acme-robotics.com', 'jane@acme-robotics.com', 'john.smith@acme-robotics.com'], webhook_url: hookUrl },
        { 'x-api-key': key.key },
      );
      assert.equal(res.statusCode, 202, res.body);
      const { id } = res.json<{ id: string }>();
      const list = async () => (await t.get(`/email-validate/bulk/${id}`, { 'x-api-key': key.key })).json<Record<string, unknown>>();
      await until(async () => (await list()).status === 'paused_insufficient_credits', 60_000, 25);
      const before = await list();
      await sql`alter table email_bulk_items rename to email_bulk_items_away`.execute(t.database.db);
      try {
        await t.services.billing.grant(key.id, 10_000, 'top-up');
        await until(async () => (await list()).status === 'failed', 60_000, 25).catch(async () =>
          assert.fail(`never failed: ${JSON.stringify(await list())}`),
        );
      } finally {
        await sql`alter table email_bulk_items_away rename to email_bulk_items`.execute(t.database.db);
      }
      const failed = await list();
      assert.equal(failed.processed, before.processed, 'the charged results stay');
      assert.equal(failed.credits_consumed, before.credits_consumed);
      assert.match(String(failed.failure_reason), /email_bulk_items.*\(the run failed 3 times\)/);
      const hook = JSON.parse((await callbackOf(id)).body) as Record<string, unknown>;
      assert.equal(hook.status, 'failed');
      assert.equal(hook.failure_reason, failed.failure_reason);
    });

    it('streams progress as Server-Sent Events until the job ends, with heartbeats; a client that goes is let go', async () => {
      const { key, job } = await pausedForCredits(1, [FOUND, FOUND, FOUND]);
      const response = await fetch(`${baseUrl}/bulk/jobs/${job.id}/stream`, { headers: { 'x-api-key': key.key } });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      const reader = response.body!.getReader();
      let text = '';
      const readUntil = async (pattern: RegExp) => {
        while (!pattern.test(text)) {
          const { value, done } = await reader.read();
          if (done) break;
          text += Buffer.from(value).toString();
        }
        assert.match(text, pattern);
      };
      await readUntil(/event: progress\ndata: .*"status":"paused_insufficient_credits"/);
      await readUntil(/: heartbeat /);
      await t.services.billing.grant(key.id, 10_000, 'top-up');
      await readUntil(/event: end\ndata: .*"status":"done"/);
      const { done } = await reader.read();
      assert.ok(done || text.endsWith('\n\n'), 'the stream closes after the end event');
      const end = JSON.parse(/event: end\ndata: (.*)\n/.exec(text)![1]) as BulkJobView;
      assert.equal(end.processed, 3);
      assert.equal(end.credits_consumed, 3);

      // A client that leaves a stream of a job still going: the server stops reading for it.
      const other = await pausedForCredits(0, [FOUND]);
      const connections = () => new Promise<number>((resolve) => t.app.server.getConnections((_e, n) => resolve(n)));
      const before = await connections();
      const leaving = await new Promise<ClientRequest>((resolve, reject) => {
        const request = httpGet(
          `${baseUrl}/bulk/${other.job.id}/stream`,
          { headers: { 'x-api-key': other.key.key }, agent: false },
          (res) => res.once('data', () => resolve(request)),
        );
        request.on('error', reject);
      });
      assert.equal(await connections(), before + 1);
      leaving.destroy();
      await until(async () => (await connections()) === before, 5000, 25);

      const missing = await call('GET', '/bulk/bjob_nope/stream', key.key);
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json<{ error: string }>().error, 'not_found');
    });

    // Last: it closes the server.
    it("the server's shutdown ends open streams rather than waiting for their jobs", async () => {
      const { key, job } = await pausedForCredits(0, [FOUND]);
      const response = await fetch(`${baseUrl}/bulk/${job.id}/stream`, { headers: { 'x-api-key': key.key } });
      const reader = response.body!.getReader();
      await reader.read();
      const closed = t.app.close().then(() => 'closed');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise((resolve) => (timer = setTimeout(resolve, 10_000, 'still open')));
      assert.equal(await Promise.race([closed, timeout]), 'closed');
      clearTimeout(timer);
      for (let next = await reader.read(); !next.done; next = await reader.read());
    });
  });
}
