import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import pg from 'pg';
import { dbTargets, dropPgSchema, POSTGRES_URL, type TestDatabase } from '../support/db.ts';
import { PgBossQueue } from '../../src/queue/pgboss-queue.ts';
import type { JobQueue } from '../../src/queue/types.ts';
import { until } from '../support/until.ts';
import { createLeadbaseClient, LeadbaseError } from '../../src/client/index.ts';
import type { BulkJobView } from '../../src/email/bulk.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { signWebhook, SIGNATURE_HEADER } from '../../src/net/webhooks.ts';
import { positionsOfBulkCharge } from '../support/bulk-ledger.ts';

type Job = BulkJobView;

/** Each storage mode with its queue; on PostgreSQL also the embedded queue, which works there too. */
const setups = [
  ...dbTargets.map((target) => ({ target, queue: target.name === 'postgres' ? ('pg-boss' as const) : ('database' as const) })),
  ...dbTargets.filter((target) => target.name === 'postgres').map((target) => ({ target, queue: 'database' as const })),
];

for (const { target, queue } of setups) {
  describe(`bulk validation jobs (${target.name}, ${queue} queue)`, { skip: target.skip }, () => {
    let world: MailWorld;
    let t: TestApp;
    let database: TestDatabase;
    let pgBossSchema: string | undefined;
    let receiver: Server;
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];

    before(async () => {
      world = await startMailWorld();
      await world.domain('acme.test', { mailboxes: ['jane', 'joe', 'ann', 'bob', 'eve', 'max'] });
      await world.domain('anything.test', { acceptAll: true });
      await world.domain('slow.test', { mailboxes: [], tarpitMs: 30 });
      await world.domain('grey.test', { mailboxes: ['ted'], greylist: true, greylistMs: 200 });
      // Each RCPT takes 3 s: its results come long after those of the addresses around it in a list.
      await world.domain('tarpit.test', { mailboxes: ['sam'], tarpitMs: 3000 });
      database = await target.open();
      let jobQueue: JobQueue | undefined;
      if (queue === 'pg-boss') {
        pgBossSchema = `pgboss_${database.pgSchema!}`;
        jobQueue = new PgBossQueue({ connectionString: POSTGRES_URL!, schema: pgBossSchema, cancelCheckMs: 100 });
      }
      t = await startTestApp(target, {
        credits: 100,
        database,
        deps: {
          queue: jobQueue,
          config: loadConfig({ BULK_GREYLIST_RETRY_MS: '300' }),
          email: { ...world.emailConfig, recheckPollMs: 60_000 },
          bulk: { pausedCheckMs: 100 },
        },
      });
      receiver = createServer((request, response) => {
        let body = '';
        request.on('data', (c: Buffer) => (body += c.toString()));
        request.on('end', () => {
          received.push({ headers: request.headers, body });
          response.end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    });
    after(async () => {
      await t.close();
      await database.destroy();
      if (pgBossSchema) await dropPgSchema(pgBossSchema);
      await world.close();
      receiver.close();
    });

    /** What the queue holds of webhook deliveries (for a failure's message). */
    const deliveries = async () => {
      if (!pgBossSchema)
        return JSON.stringify(await database.db.selectFrom('queue_jobs').selectAll().where('queue', '=', 'email-bulk-webhook').execute());
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      const { rows } = await admin.query(`select state, retry_count, output from ${pgBossSchema}.job where name = 'email-bulk-webhook'`);
      await admin.end();
      return JSON.stringify(rows);
    };
    const status = async (id: string, key = t.key) => (await t.get(`/email-validate/bulk/${id}`, { 'x-api-key': key })).json<Job>();
    const finished = (id: string, key = t.key) => until(async () => (await status(id, key)).status === 'done', 30_000, 50);
    const balance = async () => (await t.get('/credits')).json<{ credits: number }>().credits;

    it('validates a JSON list once per address, charges each result at the single price and serves them in order', async () => {
      const before = await balance();
      const res = await t.post('/email-validate/bulk', {
        emails: [
          'jane@acme.test',
          { email: 'Joe@acme.test', first_name: 'Joe', last_name: 'Doe' },
          'nobody@acme.test',
          'JANE@ACME.TEST',
          'someone@anything.test',
          '   ',
          42,
        ],
      });
      assert.equal(res.statusCode, 202, res.body);
      const job = res.json<Job>();
      assert.deepEqual([job.total, job.duplicates, job.refused], [4, 1, 2]);
      assert.match(job.status, /^(queued|running)$/);
      await finished(job.id);
      const done = await status(job.id);
      assert.deepEqual(done.counts, { valid: 2, valid_catch_all: 0, catch_all: 1, unknown: 0, invalid: 1 });
      assert.equal(done.processed, 4);
      // valid, valid, invalid at 0.05; catch_all free.
      assert.equal(done.credits_consumed, 0.15);
      assert.equal(Math.round((before - (await balance())) * 1000), 150);

      const ndjson = await t.get(`/email-validate/bulk/${job.id}/results`);
      assert.equal(ndjson.statusCode, 200);
      assert.match(String(ndjson.headers['content-type']), /ndjson/);
      const rows = ndjson.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.deepEqual(
        rows.map((r) => [r.email, r.email_status, r.credits_consumed]),
        [
          ['jane@acme.test', 'valid', 0.05],
          ['Joe@acme.test', 'valid', 0.05],
          ['nobody@acme.test', 'invalid', 0.05],
          ['someone@anything.test', 'catch_all', 0],
        ],
      );
      assert.equal(rows[1].first_name, 'Joe');
      assert.equal(typeof rows[0].is_disposable, 'boolean');

      const usage = await t.services.billing.usage(t.keyId);
      const charges = usage.filter((u) => u.operation === 'email-validate-bulk');
      assert.equal(
        charges.reduce((sum, u) => sum + Number(u.amount), 0),
        150,
      );
      assert.ok(charges.every((u) => u.request_id?.startsWith(`${job.id}:`)));
      if (pgBossSchema) {
        // The slices went through pg-boss, not the embedded queue.
        const admin = new pg.Client({ connectionString: POSTGRES_URL });
        await admin.connect();
        const { rows: jobs } = await admin.query<{ n: string }>(`select count(*) as n from ${pgBossSchema}.job where name = 'email-bulk'`);
        await admin.end();
        assert.ok(Number(jobs[0].n) > 0);
        assert.equal(
          Number(
            (
              await database.db
                .selectFrom('queue_jobs')
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirst()
            )?.n,
          ),
          0,
        );
      }
    });

    it('works through the typed client (leadbase/client) on a live server', async () => {
      const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const leadbase = createLeadbaseClient({ baseUrl, apiKey: t.key });
      // The list's body is read by the route itself (JSON or CSV): the document declares no schema for it.
      const { data: job } = await leadbase.POST('/email-validate/bulk', {
        body: { emails: ['ann@acme.test', 'max@acme.test', 'zed@acme.test'] } as never,
      });
      assert.ok(job?.id);
      let status = job;
      await until(async () => {
        status = (await leadbase.GET('/email-validate/bulk/{id}', { params: { path: { id: job.id } } })).data!;
        return status.status === 'done';
      }, 20_000);
      assert.equal(status.counts.valid, 2);
      assert.equal(status.counts.invalid, 1);
      await assert.rejects(
        leadbase.GET('/email-validate/bulk/{id}', { params: { path: { id: 'no-such-job' } } }),
        (error: unknown) => error instanceof LeadbaseError && error.status === 404 && error.code === 'not_found',
      );
    });

    it('reads a CSV list, keeps its other columns and answers CSV when asked', async () => {
      const csv = 'Name,E-mail,Company\nAnn,ann@acme.test,"Acme, Inc."\nBob,bob@acme.test,Acme\n';
      const res = await t.inject({
        method: 'POST',
        url: '/email-validate/bulk',
        headers: { 'x-api-key': t.key, 'content-type': 'text/csv' },
        payload: csv,
      });
      assert.equal(res.statusCode, 202, res.body);
      const { id } = res.json<Job>();
      await finished(id);
      const out = await t.get(`/email-validate/bulk/${id}/results`, { accept: 'text/csv' });
      const lines = out.body.trim().split('\n');
      assert.match(lines[0], /^Name,Company,email,email_status,/);
      assert.match(lines[1], /^Ann,"Acme, Inc\.",ann@acme\.test,valid,/);
      assert.equal(lines.length, 3);
    });

    it('a key sees only its own jobs; bad lists get 400 in the envelope', async () => {
      const mine = (await t.post('/email-validate/bulk', { emails: ['eve@acme.test'] })).json<Job>();
      const other = await t.services.keys.create('other', 1000);
      for (const [method, url] of [
        ['GET', `/email-validate/bulk/${mine.id}`],
        ['GET', `/email-validate/bulk/${mine.id}/results`],
        ['DELETE', `/email-validate/bulk/${mine.id}`],
      ] as const) {
        const res = await t.inject({ method, url, headers: { 'x-api-key': other.key } });
        assert.equal(res.statusCode, 404, `${method} ${url}`);
        assert.equal(res.json<{ error: string }>().error, 'not_found');
      }
      for (const body of [{}, { emails: 'a@b.test' }, { emails: [] }, { emails: ['a@acme.test'], webhook_url: 'ftp://x.test/' }]) {
        const res = await t.post('/email-validate/bulk', body);
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.equal(res.json<{ error: string }>().error, 'invalid_request');
      }
      const noColumn = await t.inject({
        method: 'POST',
        url: '/email-validate/bulk',
        headers: { 'x-api-key': t.key, 'content-type': 'text/csv' },
        payload: 'name,phone\nAnn,1\n',
      });
      assert.equal(noColumn.statusCode, 400);
      assert.match(noColumn.json<{ message: string }>().message, /no "email" column/);
      await finished(mine.id);
    });

    it('pauses when the credits run out, serves only what was paid, and resumes after a grant', async () => {
      const poor = await t.services.keys.create('poor', 100); // two results at 0.05
      const res = await t.post(
        '/email-validate/bulk',
        { emails: ['jane@acme.test', 'joe@acme.test', 'ann@acme.test', 'bob@acme.test'] },
        {
          'x-api-key': poor.key,
        },
      );
      const { id } = res.json<Job>();
      await until(async () => (await status(id, poor.key)).status === 'paused_insufficient_credits', 15_000, 50);
      const paused = await status(id, poor.key);
      assert.equal(paused.processed, 2);
      assert.equal(paused.credits_consumed, 0.1);
      assert.equal(await t.services.billing.balance(poor.id), 0);
      const served = await t.get(`/email-validate/bulk/${id}/results`, { 'x-api-key': poor.key });
      assert.equal(served.body.trim().split('\n').length, 2);

      await t.services.billing.grant(poor.id, 1000);
      await finished(id, poor.key);
      assert.equal((await status(id, poor.key)).credits_consumed, 0.2);
      assert.equal(await t.services.billing.balance(poor.id), 900);
      assert.equal(await t.services.billing.ledgerBalance(poor.id), 900);
    });

    it('names in each ledger row exactly the positions it paid for, when results come out of list order', async () => {
      // Fast and slow hosts alternate: the fast results are charged first, leaving gaps for the slow ones.
      const emails = Array.from({ length: 12 }, (_, i) => (i % 2 ? `sam${i}@tarpit.test` : `f${i}@acme.test`));
      const res = await t.post('/email-validate/bulk', { emails });
      const { id } = res.json<Job>();
      await until(async () => (await status(id)).status === 'done', 60_000, 50);
      const items = await database.db.selectFrom('email_bulk_items').select(['seq', 'cost']).where('job_id', '=', id).execute();
      const cost = new Map(items.map((i) => [Number(i.seq), Number(i.cost)]));
      const charges = (await t.services.billing.usage(t.keyId, 1000)).filter((u) => u.request_id?.startsWith(`${id}:`));
      assert.ok(charges.length >= 2, `charged in several batches: ${charges.map((c) => c.request_id).join(' ')}`);
      const seen = new Set<number>();
      for (const charge of charges) {
        const positions = positionsOfBulkCharge(id, charge.request_id!);
        for (const p of positions) {
          assert.ok(!seen.has(p), `position ${p} is named by two ledger rows: ${charges.map((c) => c.request_id).join(' ')}`);
          seen.add(p);
        }
        assert.equal(
          positions.reduce((sum, p) => sum + cost.get(p)!, 0),
          Number(charge.amount),
          charge.request_id!,
        );
      }
      assert.equal(seen.size, 12);
    });

    it('stores a long list (more rows than one statement can bind)', async () => {
      const emails = Array.from({ length: 12_000 }, (_, i) => `n${i}@anything.test`);
      const res = await t.post('/email-validate/bulk', { emails });
      assert.equal(res.statusCode, 202, res.body);
      const { id, total } = res.json<Job>();
      assert.equal(total, 12_000);
      assert.equal(
        (await t.inject({ method: 'DELETE', url: `/email-validate/bulk/${id}`, headers: { 'x-api-key': t.key } })).statusCode,
        200,
      );
    });

    it('cancelling stops the job: nothing more is charged', async () => {
      const res = await t.post('/email-validate/bulk', { emails: Array.from({ length: 300 }, (_, i) => `user${i}@slow.test`) });
      const { id } = res.json<Job>();
      const cancelled = await t.inject({ method: 'DELETE', url: `/email-validate/bulk/${id}`, headers: { 'x-api-key': t.key } });
      assert.equal(cancelled.statusCode, 200);
      assert.equal(cancelled.json<Job>().status, 'cancelled');
      const at = await status(id);
      await new Promise((r) => setTimeout(r, 500));
      const later = await status(id);
      assert.equal(later.status, 'cancelled');
      assert.equal(later.processed, at.processed);
      assert.equal(later.credits_consumed, at.credits_consumed);
    });

    it('asks a greylisting host again inside the job, and answers from the second look', async () => {
      const res = await t.post('/email-validate/bulk', { emails: ['ted@grey.test', 'nobody@grey.test'] });
      const { id } = res.json<Job>();
      await finished(id);
      const rows = (await t.get(`/email-validate/bulk/${id}/results`)).body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { email: string; email_status: string });
      assert.deepEqual(
        rows.map((r) => [r.email, r.email_status]),
        [
          ['ted@grey.test', 'valid'],
          ['nobody@grey.test', 'invalid'],
        ],
      );
    });

    it('posts a signed completion webhook', async () => {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const res = await t.post('/email-validate/bulk', { emails: ['max@acme.test'], webhook_url: url });
      assert.equal(res.statusCode, 202, res.body);
      const { id } = res.json<Job>();
      await until(() => received.some((r) => r.body.includes(id)), 30_000, 50).catch(async () =>
        assert.fail(`no webhook; the job: ${JSON.stringify(await status(id))}; the deliveries: ${await deliveries()}`),
      );
      const delivery = received.find((r) => r.body.includes(id))!;
      const body = JSON.parse(delivery.body) as Record<string, unknown>;
      assert.equal(body.status, 'done');
      assert.equal(body.total, 1);
      assert.match(String(body.results_url), new RegExp(`/email-validate/bulk/${id}/results$`));
      const header = String(delivery.headers[SIGNATURE_HEADER]);
      const seconds = Number(/t=(\d+)/.exec(header)![1]);
      const secret = (await t.services.keys.webhookSecret(t.keyId))!;
      assert.equal(header, signWebhook(secret, delivery.body, seconds));
    });
  });
}
