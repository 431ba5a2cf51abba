// The SMTP client's reply reader on a raw socket: multi-line replies, enhanced codes, and UTF-8
// text split across TCP segments.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { SmtpSession } from '../../src/email/smtp-session.ts';

async function serverWriting(chunks: Buffer[]): Promise<{ port: number; close(): void }> {
  const sockets: Socket[] = [];
  const server = createServer(async (socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    for (const chunk of chunks) {
      socket.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, 20)); // separate TCP segments
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => (sockets.forEach((s) => s.destroy()), server.close()) };
}

describe('SMTP session reply reader', () => {
  it('reads a reply whose UTF-8 text is split inside a character, and multi-line replies', async () => {
    const text = Buffer.from('220-mx.example.de ESMTP\r\n220 Grüße aus München\r\n', 'utf8');
    const split = text.indexOf(0xc3) + 1; // between the two bytes of "ü"
    const server = await serverWriting([text.subarray(0, split), text.subarray(split)]);
    try {
      const { session, banner } = await SmtpSession.open({
        ip: '127.0.0.1',
        port: server.port,
        connectTimeoutMs: 1000,
        commandTimeoutMs: 1000,
      });
      assert.equal(banner.code, 220);
      assert.equal(banner.text, 'mx.example.de ESMTP Grüße aus München');
      session.close();
      assert.equal(session.open, false);
    } finally {
      server.close();
    }
  });

  it('takes the enhanced status code out of the text', async () => {
    const server = await serverWriting([Buffer.from('554 5.7.1 Client host [192.0.2.1] blocked using zen.spamhaus.org\r\n')]);
    try {
      const { session, banner } = await SmtpSession.open({
        ip: '127.0.0.1',
        port: server.port,
        connectTimeoutMs: 1000,
        commandTimeoutMs: 1000,
      });
      assert.deepEqual(banner, { code: 554, enhanced: '5.7.1', text: 'Client host [192.0.2.1] blocked using zen.spamhaus.org' });
      session.close();
    } finally {
      server.close();
    }
  });
});
