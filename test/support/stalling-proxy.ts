import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of a real server (PostgreSQL, Redis) that can stall like a
 * network partition or a hung proxy: while stalled it accepts connections and holds them without a
 * byte either way, and connections already open carry nothing; healed, everything flows again (what
 * was held is then passed on, as TCP does when a partition heals).
 */
export interface StallingProxy {
  port: number;
  /** Connections accepted since the start (the connection attempts of the proxied clients). */
  accepted: number;
  stall(): void;
  /** Closes every connection and closes new ones at once, as a server that went away (until heal). */
  drop(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startStallingProxy(target: { host: string; port: number }): Promise<StallingProxy> {
  let stalled = false;
  let dropped = false;
  const pairs = new Set<{ client: Socket; upstream?: Socket }>();
  const held: (() => void)[] = [];
  const cutAll = () => {
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream?.destroy();
    }
  };
  const proxy: StallingProxy = {
    port: 0,
    accepted: 0,
    stall() {
      stalled = true;
      for (const { client, upstream } of pairs) {
        client.pause();
        upstream?.pause();
      }
    },
    drop() {
      dropped = true;
      cutAll();
    },
    heal() {
      stalled = false;
      dropped = false;
      for (const { client, upstream } of pairs) {
        if (!upstream) continue; // a held connection: open() below starts it
        client.resume();
        upstream.resume();
      }
      for (const open of held.splice(0)) open();
    },
    close: () =>
      new Promise<void>((resolve) => {
        cutAll();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((client) => {
    proxy.accepted++;
    if (dropped) {
      client.destroy();
      return;
    }
    const pair: { client: Socket; upstream?: Socket } = { client };
    pairs.add(pair);
    client.pause();
    const forget = () => {
      pairs.delete(pair);
      client.destroy();
      pair.upstream?.destroy();
    };
    client.on('error', forget);
    client.on('close', forget);
    const open = () => {
      if (client.destroyed) return;
      const upstream = (pair.upstream = connect(target.port, target.host));
      upstream.on('error', forget);
      upstream.on('close', forget);
      // Data is written by hand rather than piped: a stall must hold bytes already read, not pass them.
      client.on('data', (chunk) => upstream.write(chunk));
      upstream.on('data', (chunk) => client.write(chunk));
      if (stalled) upstream.pause();
      else client.resume();
    };
    if (stalled) held.push(open);
    else open();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as { port: number }).port;
  return proxy;
}
