// A minimal SOCKS5 proxy (RFC 1928: no authentication or username/password, CONNECT only) on
// 127.0.0.1, so the prober's proxy path is tested against a real protocol peer.
import { connect, createServer, type Socket } from 'node:net';

export interface FakeSocks {
  url: string;
  /** Destinations asked for, as "host:port". */
  readonly connects: string[];
  close(): Promise<void>;
}

export async function startFakeSocks(auth?: { user: string; password: string }): Promise<FakeSocks> {
  const connects: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    let buffer = Buffer.alloc(0);
    let stage: 'greeting' | 'auth' | 'request' = 'greeting';
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (stage === 'greeting') {
        if (buffer.length < 2 || buffer.length < 2 + buffer[1]) return;
        const methods = [...buffer.subarray(2, 2 + buffer[1])];
        buffer = buffer.subarray(2 + buffer[1]);
        const wanted = auth ? 0x02 : 0x00;
        if (!methods.includes(wanted)) return client.end(Buffer.from([5, 0xff]));
        client.write(Buffer.from([5, wanted]));
        stage = auth ? 'auth' : 'request';
      }
      if (stage === 'auth') {
        if (buffer.length < 2) return;
        const ulen = buffer[1];
        if (buffer.length < 3 + ulen) return;
        const plen = buffer[2 + ulen];
        if (buffer.length < 3 + ulen + plen) return;
        const user = buffer.subarray(2, 2 + ulen).toString();
        const password = buffer.subarray(3 + ulen, 3 + ulen + plen).toString();
        buffer = buffer.subarray(3 + ulen + plen);
        const ok = user === auth!.user && password === auth!.password;
        client.write(Buffer.from([1, ok ? 0 : 1]));
        if (!ok) return client.end();
        stage = 'request';
      }
      if (stage === 'request') {
        if (buffer.length < 5) return;
        const type = buffer[3];
        let host: string;
        let offset: number;
        if (type === 1) {
          if (buffer.length < 10) return;
          host = [...buffer.subarray(4, 8)].join('.');
          offset = 8;
        } else if (type === 3) {
          const len = buffer[4];
          if (buffer.length < 7 + len) return;
          host = buffer.subarray(5, 5 + len).toString();
          offset = 5 + len;
        } else return client.end(Buffer.from([5, 8, 0, 1, 0, 0, 0, 0, 0, 0]));
        const port = buffer.readUInt16BE(offset);
        const rest = buffer.subarray(offset + 2);
        client.off('data', onData);
        connects.push(`${host}:${port}`);
        const upstream = connect(port, host, () => {
          client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
          if (rest.length) upstream.write(rest);
          client.pipe(upstream).pipe(client);
        });
        sockets.add(upstream);
        upstream.on('close', () => {
          sockets.delete(upstream);
          client.destroy();
        });
        upstream.on('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
      }
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as import('node:net').AddressInfo).port;
  const credentials = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.password)}@` : '';
  return {
    url: `socks5://${credentials}127.0.0.1:${port}`,
    connects,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
