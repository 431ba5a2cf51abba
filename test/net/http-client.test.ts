// The guarded client's allow-list of the operator's origins (mirrors): an origin the operator named
// may be on loopback; nothing else may, a redirect from that origin to another included.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FetchError, HttpClient } from '../../src/net/http-client.ts';

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('guarded HTTP client: the operator’s origins', () => {
  let mirror: { server: Server; origin: string };
  let other: { server: Server; origin: string };
  const client = new HttpClient({ userAgent: 'leadbase-test (ops@example.com)', timeoutMs: 5000 });

  before(async () => {
    other = await listen((_req, res) => res.end('other'));
    mirror = await listen((req, res) => {
      if (req.url === '/elsewhere') {
        res.writeHead(302, { location: `${other.origin}/` });
        return res.end();
      }
      res.end(`mirror ${req.headers['user-agent']}`);
    });
  });
  after(async () => {
    await client.close();
    mirror.server.close();
    other.server.close();
  });

  it('refuses a loopback address nobody named', async () => {
    await assert.rejects(client.get(`${mirror.origin}/`), (error: unknown) => error instanceof FetchError && error.reason === 'not_public');
  });

  it('reads an origin the operator named, with the operator’s User-Agent', async () => {
    const answer = await client.get(`${mirror.origin}/x`, { operatorOrigins: [mirror.origin] });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.toString(), 'mirror leadbase-test (ops@example.com)');
  });

  it('does not follow the named origin’s redirect to an address nobody named', async () => {
    await assert.rejects(
      client.get(`${mirror.origin}/elsewhere`, { operatorOrigins: [mirror.origin] }),
      (error: unknown) => error instanceof FetchError && error.reason === 'not_public',
    );
  });
});
