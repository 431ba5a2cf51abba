// Delivery webhooks of SES (through SNS), SendGrid, Postmark and Mailgun: operator token,
// provider signatures, idempotent counting, and the evidence turning catch_all into valid_catch_all.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, createSign, generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dbTargets } from '../support/db.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startMailWorld, type MailWorld } from '../support/fake-smtp.ts';
import { snsStringToSign } from '../../src/email/webhooks/verify.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/email/${name}`, import.meta.url), 'utf8');
const TOKEN = 'hook-secret-123';
const MAILGUN_KEY = 'key-mailgun-signing';
const CERT_URL = 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0000000000000000000000.pem';
const SUBSCRIBE_URL =
  'https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:us-east-1:123456789012:ses-events&Token=abc';

const sns = generateKeyPairSync('rsa', { modulusLength: 2048 });
const sendgrid = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });

function snsEnvelope(type: 'Notification' | 'SubscriptionConfirmation', message: string, id: string) {
  const envelope: Record<string, string> = {
    Type: type,
    MessageId: id,
    TopicArn: 'arn:aws:sns:us-east-1:123456789012:ses-events',
    Message: message,
    Timestamp: '2026-11-02T10:15:03.000Z',
    SignatureVersion: '2',
    SigningCertURL: CERT_URL,
  };
  if (type === 'SubscriptionConfirmation') Object.assign(envelope, { Token: 'abc', SubscribeURL: SUBSCRIBE_URL });
  const signer = createSign('sha256');
  signer.update(snsStringToSign(envelope)!);
  envelope.Signature = signer.sign(sns.privateKey, 'base64');
  return envelope;
}

function signMailgun(payload: any) {
  const token = `tok-${payload['event-data'].id}`;
  payload.signature.token = token;
  payload.signature.signature = createHmac('sha256', MAILGUN_KEY).update(`${payload.signature.timestamp}${token}`).digest('hex');
  return payload;
}

for (const target of dbTargets) {
  describe(`delivery webhooks (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let world: MailWorld;
    const fetched: string[] = [];

    before(async () => {
      world = await startMailWorld();
      await world.domain('engaged.test', { acceptAll: true });
      t = await startTestApp(target, {
        deps: {
          email: {
            ...world.emailConfig,
            webhookToken: TOKEN,
            mailgunSigningKey: MAILGUN_KEY,
            sendgridVerificationKey: sendgrid.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
            engagementMinDeliveries: 1,
            recheckPollMs: 60_000,
            fetchText: async (url) => {
              fetched.push(url);
              if (url === CERT_URL) return sns.publicKey.export({ format: 'pem', type: 'spki' }).toString();
              return '<ConfirmSubscriptionResponse/>';
            },
          },
        },
      });
    });
    after(async () => {
      await t.close();
      await world.close();
    });

    const hook = (path: string, body: string, headers: Record<string, string> = {}, contentType = 'application/json') =>
      t.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': contentType, authorization: `Bearer ${TOKEN}`, ...headers },
        payload: body,
      });
    const counts = (address: string) => t.services.email.engagement.counts(address);

    it('the operator token is required (Bearer, Basic password or ?token=)', async () => {
      const body = fixture('postmark-delivery.json');
      assert.equal((await hook('/webhooks/postmark', body, { authorization: 'Bearer wrong' })).statusCode, 401);
      assert.equal(
        (await t.inject({ method: 'POST', url: '/webhooks/postmark', headers: { 'content-type': 'application/json' }, payload: body }))
          .statusCode,
        401,
      );
      const basic = Buffer.from(`postmark:${TOKEN}`).toString('base64');
      assert.equal((await hook('/webhooks/postmark', body, { authorization: `Basic ${basic}` })).statusCode, 200);
      const viaQuery = await t.inject({
        method: 'POST',
        url: `/webhooks/postmark?token=${TOKEN}`,
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      assert.equal(viaQuery.statusCode, 200);
      assert.equal(viaQuery.json().duplicates, 1, 'the same Postmark delivery is counted once');
      assert.deepEqual(await counts('cfo@engaged.test'), { delivered: 1, hardBounced: 0 });
    });

    it('Postmark: hard bounces count, soft bounces do not', async () => {
      assert.equal((await hook('/webhooks/postmark', fixture('postmark-bounce-hard.json'))).json().counted, 1);
      assert.equal((await hook('/webhooks/postmark', fixture('postmark-bounce-soft.json'))).json().received, 0);
      assert.deepEqual(await counts('gone2@engaged.test'), { delivered: 0, hardBounced: 1 });
      assert.deepEqual(await counts('full@engaged.test'), { delivered: 0, hardBounced: 0 });
    });

    it('SES through SNS: signature checked, subscription confirmed, deliveries and permanent bounces counted', async () => {
      const confirm = snsEnvelope('SubscriptionConfirmation', 'You have chosen to subscribe to the topic', 'c-1');
      const confirmed = await hook('/webhooks/ses', JSON.stringify(confirm), {}, 'text/plain; charset=UTF-8');
      assert.equal(confirmed.statusCode, 200);
      assert.ok(fetched.includes(SUBSCRIBE_URL));
      const delivery = snsEnvelope('Notification', fixture('ses-delivery.json'), 'n-1');
      assert.equal((await hook('/webhooks/ses', JSON.stringify(delivery), {}, 'text/plain; charset=UTF-8')).json().counted, 1);
      assert.equal(
        (
          await hook(
            '/webhooks/ses',
            JSON.stringify(snsEnvelope('Notification', fixture('ses-bounce-permanent.json'), 'n-2')),
            {},
            'text/plain',
          )
        ).json().counted,
        1,
      );
      assert.equal(
        (
          await hook(
            '/webhooks/ses',
            JSON.stringify(snsEnvelope('Notification', fixture('ses-bounce-transient.json'), 'n-3')),
            {},
            'text/plain',
          )
        ).json().received,
        0,
      );
      const forged = { ...delivery, Message: delivery.Message.replace('ceo@engaged.test', 'forged@engaged.test') };
      assert.equal((await hook('/webhooks/ses', JSON.stringify(forged), {}, 'text/plain')).statusCode, 403);
      const elsewhere = { ...delivery, SigningCertURL: 'https://evil.example/cert.pem' };
      assert.equal((await hook('/webhooks/ses', JSON.stringify(elsewhere), {}, 'text/plain')).statusCode, 403);
      assert.deepEqual(await counts('ceo@engaged.test'), { delivered: 1, hardBounced: 0 });
      assert.deepEqual(await counts('gone@engaged.test'), { delivered: 0, hardBounced: 1 });
    });

    it('SendGrid: signed batches; blocks, deferrals and opens are not evidence', async () => {
      const body = fixture('sendgrid-events.json');
      const timestamp = '1762077800';
      const signature = sign('sha256', Buffer.from(timestamp + body), sendgrid.privateKey).toString('base64');
      const headers = { 'x-twilio-email-event-webhook-signature': signature, 'x-twilio-email-event-webhook-timestamp': timestamp };
      assert.equal((await hook('/webhooks/sendgrid', body.replace('ceo@', 'cxo@'), headers)).statusCode, 403);
      const res = await hook('/webhooks/sendgrid', body, headers);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { received: 2, counted: 2, duplicates: 0 });
      assert.deepEqual(await counts('ceo@engaged.test'), { delivered: 2, hardBounced: 0 });
      assert.deepEqual(await counts('gone@engaged.test'), { delivered: 0, hardBounced: 2 });
      assert.deepEqual(await counts('blocked@engaged.test'), { delivered: 0, hardBounced: 0 });
    });

    it('Mailgun: HMAC signature required; permanent failures count', async () => {
      const delivered = signMailgun(JSON.parse(fixture('mailgun-delivered.json')));
      assert.equal(
        (await hook('/webhooks/mailgun', JSON.stringify({ ...delivered, signature: { ...delivered.signature, signature: 'bad' } })))
          .statusCode,
        403,
      );
      assert.equal((await hook('/webhooks/mailgun', JSON.stringify(delivered))).json().counted, 1);
      assert.equal(
        (await hook('/webhooks/mailgun', JSON.stringify(signMailgun(JSON.parse(fixture('mailgun-failed-permanent.json')))))).json().counted,
        1,
      );
      assert.deepEqual(await counts('cto@engaged.test'), { delivered: 1, hardBounced: 0 });
      assert.deepEqual(await counts('gone3@engaged.test'), { delivered: 0, hardBounced: 1 });
    });

    it('the evidence decides valid_catch_all on the catch-all domain', async () => {
      const status = async (email: string) => (await t.post('/email-validate', { email })).json();
      const ceo = await status('ceo@engaged.test');
      assert.equal(ceo.email_status, 'valid_catch_all');
      assert.equal(ceo.credits_consumed, 0.05);
      assert.equal((await status('gone@engaged.test')).email_status, 'catch_all');
      assert.equal((await status('stranger@engaged.test')).email_status, 'catch_all');
    });
  });
}
