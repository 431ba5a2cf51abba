import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets } from '../support/db.ts';
import { startTestApp } from '../support/app.ts';
import { hashKey } from '../../src/keys/service.ts';

for (const target of dbTargets) {
  describe(`API keys (${target.name})`, { skip: target.skip }, () => {
    it('accepts the header in any case, refuses missing, unknown and revoked keys', async () => {
      const t = await startTestApp(target);
      try {
        for (const name of ['X-API-Key', 'X-API-KEY', 'x-api-key']) {
          const res = await t.inject({ method: 'GET', url: '/credits', headers: { [name]: t.key } });
          assert.equal(res.statusCode, 200, name);
        }
        const missing = await t.inject({ method: 'GET', url: '/credits' });
        assert.equal(missing.statusCode, 401);
        assert.equal(missing.json().error, 'missing_api_key');
        const unknown = await t.inject({ method: 'GET', url: '/credits', headers: { 'x-api-key': 'lb_notakey' } });
        assert.equal(unknown.statusCode, 401);
        assert.equal(unknown.json().error, 'invalid_api_key');
        const junk = await t.inject({ method: 'GET', url: '/credits', headers: { 'x-api-key': 'Bearer x' } });
        assert.equal(junk.json().error, 'invalid_api_key');

        assert.equal(await t.services.keys.revoke(t.keyId), true);
        assert.equal(await t.services.keys.revoke(t.keyId), false, 'already revoked');
        const revoked = await t.inject({ method: 'GET', url: '/credits', headers: { 'x-api-key': t.key } });
        assert.equal(revoked.statusCode, 401);
        assert.equal(revoked.json().error, 'invalid_api_key');
      } finally {
        await t.close();
      }
    });

    it('stores only a hash, prefixed keys, listings without secrets', async () => {
      const t = await target.open();
      try {
        const { KeyService } = await import('../../src/keys/service.ts');
        const keys = new KeyService(t.db);
        const a = await keys.create('alpha', 5000);
        const b = await keys.create('beta');
        assert.match(a.key, /^lb_[A-Za-z0-9]{32}$/);
        assert.notEqual(a.key, b.key);
        const rows = await t.db.selectFrom('api_keys').selectAll().execute();
        const text = JSON.stringify(rows);
        assert.ok(!text.includes(a.key) && !text.includes(b.key), 'secret never stored');
        assert.equal(rows.find((r) => r.id === a.id)?.key_hash, hashKey(a.key));
        const listed = await keys.list();
        assert.deepEqual(
          listed.map((k) => [k.name, k.prefix, k.balance]),
          [
            ['alpha', a.key.slice(0, 10), 5000],
            ['beta', b.key.slice(0, 10), 0],
          ],
        );
        assert.ok(!JSON.stringify(listed).includes(a.key));
      } finally {
        await t.destroy();
      }
    });
  });
}
