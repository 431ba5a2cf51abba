// Every field of every endpoint gets values no client should send (NUL and other control
// characters, numbers beyond what a column holds, wrong types), on both storage modes. The answer
// is always a 4xx in the envelope, never a 5xx. Endpoints are read from the OpenAPI document the
// app publishes, so a new endpoint is covered without editing this file.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../support/app.ts';
import { dbTargets } from '../support/db.ts';
import { startFakeDns, type FakeDns } from '../support/fake-dns.ts';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  maxLength?: number;
  maximum?: number;
}

const HOSTILE_STRINGS = [
  'a\u0000b',
  '\u0000',
  'bell\u0007',
  'esc\u001b[31m',
  'del\u007f',
  'x'.repeat(70_000),
  '\ud800',
  "' OR 1=1 --",
  '%_\\',
  '😀'.repeat(200),
];
const HOSTILE_NUMBERS = [2147483648, -2147483649, 1e308, -1e308, 1.5, 9007199254740992, -1, 0];
const WRONG_TYPES = [null, true, [], {}, '1', 'NaN'];

/** A plausible value for a field, so that a request reaches the engine when only one field is hostile. */
function plausible(name: string, schema: JsonSchema): unknown {
  if (schema.anyOf) return plausible(name, schema.anyOf.find((s) => s.const !== undefined || s.type !== 'null') ?? {});
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  if (schema.format === 'date') return '2026-01-01';
  if (schema.pattern === '^[A-Za-z]{2}$') return 'US';
  if (name.includes('email')) return 'jane.doe@acme.test';
  if (name.includes('domain') || name.includes('website')) return 'acme.test';
  if (name.includes('url')) return 'https://www.linkedin.com/in/jane-doe';
  if (name === 'job_title') return 'CEO';
  return 'Acme';
}

function hostileValues(schema: JsonSchema): unknown[] {
  const types = new Set<string>();
  const collect = (s: JsonSchema) => {
    if (s.anyOf) s.anyOf.forEach(collect);
    else if (s.const !== undefined) types.add(typeof s.const);
    else if (s.enum) s.enum.forEach((v) => types.add(typeof v));
    else for (const t of [s.type ?? []].flat()) types.add(t);
  };
  collect(schema);
  const values: unknown[] = [...WRONG_TYPES];
  if (types.has('string')) values.push(...HOSTILE_STRINGS);
  if (types.has('integer') || types.has('number')) values.push(...HOSTILE_NUMBERS);
  return values;
}

function assertEnveloped(status: number, body: string, what: string): void {
  assert.ok(status < 500, `${what}: answered ${status} ${body.slice(0, 300)}`);
  if (status >= 400) {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    assert.equal(typeof parsed.error, 'string', `${what}: envelope`);
    assert.equal(typeof parsed.message, 'string', `${what}: envelope`);
  }
}

for (const target of dbTargets) {
  describe(`hostile input on every endpoint (${target.name})`, { skip: target.skip, timeout: 300_000 }, () => {
    let t: TestApp;
    let dns: FakeDns;
    before(async () => {
      dns = await startFakeDns();
      t = await startTestApp(target, {
        credits: 100_000,
        rateLimits: Object.fromEntries(
          [
            'email-validate',
            'company-funding',
            'jobs-finder',
            'role-finder',
            'mobile-finder',
            'b2b-profile-email',
            'bulk-submit',
            'bulk-review',
          ].map((op) => [op, 1_000_000]),
        ),
        deps: { email: { dnsServers: [dns.address], dnsTimeoutMs: 200, webhookToken: 'hook-token' } },
      });
    });
    after(async () => {
      await t.close();
      await dns.close();
    });

    it('every body field of every documented endpoint: never a 5xx', async () => {
      const doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json<{
        paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
      }>();
      let sent = 0;
      let endpoints = 0;
      for (const [path, methods] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(methods)) {
          const schema = operation.requestBody?.content['application/json']?.schema;
          if (!schema?.properties) continue;
          endpoints += 1;
          const base = Object.fromEntries(Object.entries(schema.properties).map(([name, s]) => [name, plausible(name, s)]));
          for (const [field, fieldSchema] of Object.entries(schema.properties)) {
            for (const value of hostileValues(fieldSchema)) {
              const res = await t.inject({
                method: method.toUpperCase() as 'POST',
                url: path,
                headers: { 'x-api-key': t.key, 'content-type': 'application/json' },
                payload: JSON.stringify({ ...base, [field]: value }),
              });
              sent += 1;
              assertEnveloped(res.statusCode, res.body, `${method.toUpperCase()} ${path} ${field}=${JSON.stringify(value).slice(0, 40)}`);
              // The console's /admin calls need a session this key does not hold, and sign-in refuses any
              // wrong token alike (401): only "never a 5xx, always the envelope" applies to them here.
              const admin = path.startsWith('/admin');
              if (
                !admin &&
                typeof value === 'string' &&
                /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value) &&
                value.length < 100
              ) {
                assert.equal(res.statusCode, 400, `${path} ${field}: a control character is refused`);
                assert.match(res.json<{ message: string }>().message, new RegExp(field), 'the message names the field');
              }
            }
          }
        }
      }
      assert.ok(endpoints >= 6, `all data endpoints covered (${endpoints})`);
      assert.ok(sent > 300, `${sent} hostile requests`);
    });

    it('webhook payloads with hostile values: never a 5xx', async () => {
      const emails = ['a\u0000b@acme.test', 'x'.repeat(10_000), '\u0007@acme.test', 12, null];
      for (const path of ['/webhooks/postmark', '/webhooks/sendgrid', '/webhooks/mailgun', '/webhooks/ses']) {
        for (const email of emails) {
          const payloads = [
            { RecordType: 'Bounce', Type: 'HardBounce', Email: email, BouncedAt: '2026-01-01T00:00:00Z', ID: 1 },
            [{ email, event: 'bounce', timestamp: 2e12, sg_event_id: 'a\u0000' }],
            { 'event-data': { event: 'failed', severity: 'permanent', recipient: email, timestamp: 1e308 } },
            {
              Type: 'Notification',
              Message: JSON.stringify({
                notificationType: 'Bounce',
                bounce: { bounceType: 'Permanent', bouncedRecipients: [{ emailAddress: email }] },
              }),
            },
          ];
          for (const payload of payloads) {
            const res = await t.inject({
              method: 'POST',
              url: `${path}?token=hook-token`,
              headers: { 'content-type': 'application/json' },
              payload: JSON.stringify(payload),
            });
            assertEnveloped(res.statusCode, res.body, `${path} ${JSON.stringify(payload).slice(0, 60)}`);
          }
        }
      }
    });
  });
}
