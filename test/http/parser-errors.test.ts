// Requests refused before any route runs (by Node's HTTP parser or by Fastify's router) are still
// answered in the API's envelope, over a real socket: light-my-request does not go through the parser.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../support/app.ts';

/** Sends raw bytes and returns what the server wrote before closing (or after 3 s). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString()));
    socket.on('error', (error) => (data ? resolve(data) : reject(error)));
    socket.on('close', () => resolve(data));
    socket.setTimeout(3000, () => socket.destroy());
    socket.write(request);
  });
}

/** The last of the responses written on the connection (a route may answer before the parser fails). */
function parse(stream: string): { status: number; body: Record<string, unknown> } {
  const response = stream.split(/(?=HTTP\/1\.1 \d{3} )/).at(-1)!;
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
  const text = response.slice(response.indexOf('\r\n\r\n') + 4);
  return { status, body: JSON.parse(text) as Record<string, unknown> };
}

describe('parser-level errors keep the envelope', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  const cases: [string, string, number][] = [
    ['oversized headers', `GET /credits HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    [
      'Content-Length together with Transfer-Encoding',
      'POST /credits HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
    ],
    [
      'bad chunked encoding',
      'POST /credits HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      400,
    ],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400],
    ['a header with a bad character', 'GET /credits HTTP/1.1\r\nHost: x\r\nX-Bad\u0001: 1\r\n\r\n', 400],
    ['a URL that does not decode', 'GET /credits%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400],
  ];
  for (const [name, request, status] of cases) {
    it(`${name}: ${status} in {error, message}`, async () => {
      const answer = parse(await raw(port, request));
      assert.equal(answer.status, status);
      assert.deepEqual(Object.keys(answer.body).sort(), ['error', 'message']);
      assert.equal(answer.body.error, 'invalid_request');
      assert.equal(typeof answer.body.message, 'string');
    });
  }
});
