// What operators read: metrics add money exactly, and no log line carries a credential.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { buildApp } from '../../src/http/app.ts';
import { createServices } from '../../src/services.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { createLogger, redactUrl } from '../../src/platform/logger.ts';
import { openSqlite } from '../support/db.ts';
import { startTestApp } from '../support/app.ts';
import { registerChargeRoute } from '../support/charge-route.ts';

describe('metrics', () => {
  it('count charges in exact millicredits: nine 0.05-credit charges are 0.45 credits, not 0.44999999999999996', async () => {
    const t = await startTestApp(undefined, { routes: registerChargeRoute });
    try {
      for (let i = 0; i < 9; i++) assert.equal((await t.post('/test/charge', { cost: 50 })).statusCode, 200);
      const body = (await t.inject({ method: 'GET', url: '/metrics' })).body;
      assert.match(body, /^leadbase_credits_charged_total\{operation="test-charge"\} 0\.45$/m);
      assert.match(body, /^leadbase_credits_charged_millicredits_total\{operation="test-charge"\} 450$/m);
    } finally {
      await t.close();
    }
  });
});

describe('logs', () => {
  it('never contain an API key, an Authorization header or a ?token= secret', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ level: 'debug', destination });
    const database = await openSqlite();
    const config = { ...loadConfig({}), logLevel: 'debug' };
    const services = createServices({ db: database.db, dialect: database.dialect, config, logger });
    const app = await buildApp({ config, services, logger });
    try {
      const key = await services.keys.create('logged', 1000);
      const secret = 'hook-secret-0123456789';
      const credits = await app.inject({
        method: 'GET',
        url: '/credits',
        headers: { 'x-api-key': key.key, authorization: `Bearer ${secret}` },
      });
      assert.equal(credits.statusCode, 200);
      await app.inject({ method: 'POST', url: `/webhooks/postmark?token=${secret}`, payload: {} });
      await app.inject({ method: 'GET', url: `/credits?api_key=${secret}&x=1` });
      // An object carrying headers logged by any service is censored too.
      logger.info({ headers: { 'x-api-key': key.key, authorization: secret } }, 'outbound call');
      const log = lines.join('');
      assert.ok(log.includes('/webhooks/postmark?token=[redacted]'), 'the request is logged, without its token');
      assert.ok(!log.includes(secret), 'no secret in the log');
      assert.ok(!log.includes(key.key), 'no API key in the log');
    } finally {
      await app.close();
      await services.close();
      await database.destroy();
    }
  });

  it('redactUrl keeps the rest of the URL', () => {
    assert.equal(redactUrl('/w?a=1&token=abc&b=2'), '/w?a=1&token=[redacted]&b=2');
    assert.equal(redactUrl('/credits'), '/credits');
  });
});

describe('access log', () => {
  it('writes one line per request, as pino writes a line with the same fields', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const logger = createLogger({ level: 'info', destination });
    const database = await openSqlite();
    const config = loadConfig({});
    const services = createServices({ db: database.db, dialect: database.dialect, config, logger });
    const app = await buildApp({ config, services, logger });
    try {
      const key = await services.keys.create('logged', 1000);
      const answered = await app.inject({
        method: 'GET',
        url: '/job-types',
        headers: { 'x-api-key': key.key, 'x-request-id': 'req-1:a.b' },
      });
      assert.equal(answered.statusCode, 200);
      await app.inject({ method: 'GET', url: '/job-types' });
      const completed = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request completed');
      assert.equal(completed.length, 2);
      const [line, anonymous] = completed;
      // The reference: the same fields through pino's own serialisation.
      logger.info(
        { reqId: 'req-1:a.b', method: 'GET', url: '/job-types', statusCode: 200, responseTime: 1, keyId: key.id },
        'request completed',
      );
      const reference = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
      assert.deepEqual(Object.keys(line), Object.keys(reference));
      assert.deepEqual({ ...line, time: 0, responseTime: 0 }, { ...reference, time: 0, responseTime: 0 });
      assert.equal(typeof line.responseTime, 'number');
      assert.ok(Math.abs((line.time as number) - Date.now()) < 60_000);
      assert.equal(line.pid, process.pid);
      // A request without a key has no keyId field, as pino leaves out an undefined one.
      assert.equal(anonymous.statusCode, 401);
      assert.equal('keyId' in anonymous, false);
      // A logger above info writes no access lines.
      logger.level = 'warn';
      const before = lines.length;
      await app.inject({ method: 'GET', url: '/job-types', headers: { 'x-api-key': key.key } });
      assert.equal(lines.length, before);
    } finally {
      await app.close();
      await services.close();
      await database.destroy();
    }
  });
});
