import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signWebhook, webhookUrlProblem, WebhookSender } from '../../src/net/webhooks.ts';
import type { JobQueue } from '../../src/queue/types.ts';

/** Deliveries are called directly here: the queue is never used. */
const NO_QUEUE = {} as JobQueue;

describe('signed webhooks', () => {
  let receiver: Server;
  let hits = 0;
  let port: number;
  before(async () => {
    receiver = createServer((_request, response) => {
      hits += 1;
      response.statusCode = 500;
      response.end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
  });
  after(() => receiver.close());

  const sender = (allowPrivate: boolean) => new WebhookSender({ queue: NO_QUEUE, secretOf: async () => 'whsec_test', allowPrivate });
  const delivery = (url: string) => ({ keyId: 1, url, body: '{"id":"bulk_1"}' });

  it('never connects to a loopback or private receiver: by address or by a name that resolves to one', async () => {
    for (const url of [
      `http://127.0.0.1:${port}/hook`,
      `http://localhost:${port}/hook`,
      `http://[::1]:${port}/hook`,
      'http://10.0.0.1:9/hook',
    ]) {
      await assert.rejects(sender(false).deliver(delivery(url)), /not (a )?public/, url);
    }
    assert.equal(hits, 0);
  });

  it('a receiver that answers non-2xx fails the attempt (the queue retries it)', async () => {
    await assert.rejects(sender(true).deliver(delivery(`http://127.0.0.1:${port}/hook`)), /answered 500/);
    assert.equal(hits, 1);
  });

  it('refuses URLs a client may not give, and signs Stripe-style', () => {
    assert.equal(webhookUrlProblem('https://hooks.example.com/x'), null);
    assert.match(webhookUrlProblem('ftp://hooks.example.com/x')!, /http or https/);
    assert.match(webhookUrlProblem('https://user:pw@hooks.example.com/x')!, /credentials/);
    assert.match(webhookUrlProblem('not a url')!, /not a URL/);
    assert.match(signWebhook('whsec_test', '{}', 1700000000), /^t=1700000000,v1=[0-9a-f]{64}$/);
  });
});
