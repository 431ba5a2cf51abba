// An instance killed (kill -9) while it runs a charged request with an Idempotency-Key: a retry on
// another instance must proceed within seconds (the record's lease lapses), and the key is charged once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { mailWorldEnv, startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { dbTargets, type TestDatabase } from '../support/db.ts';
import { IdempotencyStore, IN_FLIGHT_LEASE_MS, LeaseLostError } from '../../src/billing/idempotency.ts';
import { BillingService } from '../../src/billing/service.ts';
import { KeyService } from '../../src/keys/service.ts';

describe('a retry after its first attempt’s instance was killed', { timeout: 180_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadbase-idem-crash-'));
  let world: MailWorld;
  let env: NodeJS.ProcessEnv;
  let first: ServerProcess;
  let second: ServerProcess | undefined;

  before(async () => {
    world = await startMailWorld();
    // Each RCPT takes 3 s: the request is surely in flight when its instance dies.
    await world.domain('slow.test', { mailboxes: ['jane'], tarpitMs: 3000 });
    env = {
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      REDIS_URL: '',
      ...mailWorldEnv(world),
    };
    first = await startServerProcess(env);
  });
  after(async () => {
    await first?.stop();
    await second?.stop();
    await world?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const validate = (server: ServerProcess, key: string) =>
    fetch(`${server.url}/email-validate`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': 'crash-retry-1' },
      body: JSON.stringify({ email: 'jane@slow.test' }),
    });
  const balance = async (server: ServerProcess, key: string) =>
    ((await (await fetch(`${server.url}/credits`, { headers: { 'x-api-key': key } })).json()) as { credits: number }).credits;

  it('proceeds within a few seconds and is charged once', async () => {
    const key = first.key!;
    const before = await balance(first, key);
    const inFlight = validate(first, key).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1000));
    first.child.kill('SIGKILL');
    await first.exited;
    await inFlight;
    const killedAt = Date.now();

    second = await startServerProcess(env);
    // The record can hold a retry back until its lease lapses, counted from the kill; a busy machine
    // may take longer than that to start the second instance, and then the first retry proceeds.
    const allowedFrom = Math.max(Date.now(), killedAt + IN_FLIGHT_LEASE_MS);
    let answer: Response;
    let conflicts = 0;
    let sentAt: number;
    for (;;) {
      sentAt = Date.now();
      answer = await validate(second, key);
      if (answer.status !== 409) break;
      conflicts += 1;
      assert.ok(Date.now() < allowedFrom + 5000, 'the retry proceeds once the lease has lapsed');
      await new Promise((r) => setTimeout(r, 250));
    }
    const body = (await answer.json()) as { email_status: string; credits_consumed: number };
    assert.equal(answer.status, 200, JSON.stringify(body));
    assert.equal(body.email_status, 'valid');
    // Measured to when the accepted retry was sent (its own validation then takes the tarpit's 3 s).
    const late = sentAt - allowedFrom;
    assert.ok(
      late < 2000,
      `retry accepted ${sentAt - killedAt} ms after the kill, ${late} ms after its lease lapsed (${conflicts} conflicts)`,
    );

    const replay = await validate(second, key);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await replay.json(), body);
    const after = await balance(second, key);
    assert.equal(Math.round((before - after) * 1000), Math.round(body.credits_consumed * 1000), 'charged exactly once');
  });
});

for (const target of dbTargets) {
  describe(`Idempotency-Key lease and fencing (${target.name})`, { skip: target.skip }, () => {
    let database: TestDatabase;
    before(async () => {
      database = await target.open();
    });
    after(() => database.destroy());

    it('a slow first attempt whose lease was taken over can neither store nor charge', async () => {
      const store = new IdempotencyStore(database.db);
      const billing = new BillingService(database.db);
      const key = await new KeyService(database.db).create('lease', 10_000);
      const now = Date.now();
      assert.deepEqual(await store.begin(key.id, 'k', 'f', now, 'slow'), { kind: 'new' });
      assert.equal(await store.renew(key.id, 'k', 'slow', now + 1000), true, 'the owner renews its lease');
      assert.deepEqual(await store.begin(key.id, 'k', 'f', now + 1500, 'retry'), { kind: 'in_flight' }, 'renewed: still held');
      const lapsed = now + 1000 + IN_FLIGHT_LEASE_MS + 1;
      assert.deepEqual(await store.begin(key.id, 'k', 'f', lapsed, 'retry'), { kind: 'new' }, 'lapsed: taken over');
      assert.equal(await store.renew(key.id, 'k', 'slow', lapsed + 1), false, 'the old owner has lost it');

      const settle = (owner: string) =>
        billing.settle({
          keyId: key.id,
          operation: 'test',
          cost: 50,
          requestId: owner,
          idempotency: { idemKey: 'k', owner, render: () => ({ statusCode: 200, headers: {}, body: owner }) },
        });
      await assert.rejects(settle('slow'), LeaseLostError);
      assert.equal(await billing.balance(key.id), 10_000, 'the slow attempt’s charge was rolled back');
      assert.equal(await settle('retry'), 9_950);
      const replay = await store.begin(key.id, 'k', 'f', lapsed + 2, 'third');
      assert.equal(replay.kind, 'replay');
      assert.equal(replay.kind === 'replay' && replay.response.body, 'retry');
      assert.equal(await billing.ledgerBalance(key.id), 9_950);
    });
  });
}
