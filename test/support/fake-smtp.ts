// Local mail servers (built on smtp-server) that behave like real MX hosts, and a "mail world"
// that wires them into a fake DNS server, so the real prober runs against them unchanged.
//
//   const world = await startMailWorld();
//   await world.domain('acme.test', { mailboxes: ['jane.doe'] });      // 550 5.1.1 for anyone else
//   await world.domain('anything.test', { acceptAll: true });          // catch-all
//   await world.domain('grey.test', { mailboxes: ['bob'], greylist: true });
//   const service = createEmailValidationService({ db, dialect, config: { ...world.emailConfig } });
//   await world.close();
//
// Every domain gets its own server on its own loopback address (127.0.0.N) and one shared port,
// like a fleet of real MX hosts that all listen on port 25 of different addresses.
import { createServer as createNetServer, type Socket } from 'node:net';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { startFakeDns, type FakeDns } from './fake-dns.ts';
import { DEFAULT_DNS_CANARY } from '../../src/email/config.ts';

export interface FakeMxOptions {
  /** Local parts (or full addresses) that exist. Ignored when acceptAll. */
  mailboxes?: string[];
  /** Accept every recipient (a catch-all domain). */
  acceptAll?: boolean;
  /** Reply to a recipient that does not exist (default "550 5.1.1 <addr>: Recipient address rejected: User unknown"). */
  unknownReply?: { code: number; text: string };
  /** Fixed reply to every RCPT, whoever it is (full mailbox, policy block, blocklisting…). */
  rcptReply?: { code: number; text: string };
  /** Per-recipient replies that override everything else, keyed by local part or address. */
  replies?: Record<string, { code: number; text: string }>;
  /** First RCPT for each recipient gets 451 4.7.1; a later attempt (after greylistMs) is answered normally. */
  greylist?: boolean;
  greylistMs?: number;
  /** 421 at the banner, then the server hangs up. */
  banner421?: boolean;
  /** Delay before answering each RCPT (a tarpit). */
  tarpitMs?: number;
  /** Drop the TCP connection when the first RCPT arrives. */
  dropAtRcpt?: boolean;
  /** Drop the TCP connection when a transaction's RCPT past this many arrives (a host that cuts long sessions). */
  dropAfterRcpts?: number;
  /** Offer STARTTLS (default true; the certificate is smtp-server's self-signed one). */
  startTls?: boolean;
  /** Recipients taken per transaction; past them RCPT gets 452 4.5.3 Too many recipients. */
  maxRcptsPerTransaction?: number;
  /** Offer SMTPUTF8 (default true); a UTF-8 recipient without it is refused with 553 5.6.7. */
  smtpUtf8?: boolean;
  /** Microsoft-style: a second RCPT in one session is rejected and the client address is blocked for blockMs. */
  oneRcptPerSession?: boolean;
  blockMs?: number;
  /**
   * Refuses some clients as senders, as a blocklisting server does: recognised by their source
   * address or EHLO name, answered `reply` ("{ip}" in its text becomes their address) at the
   * banner, MAIL FROM or RCPT. Everyone else is answered normally.
   */
  refuseClients?: {
    addresses?: string[];
    heloNames?: string[];
    at: 'connect' | 'mail' | 'rcpt';
    reply: { code: number; text: string };
  };
}

export interface FakeMx {
  host: string;
  port: number;
  /** Every RCPT seen, in order. */
  readonly rcpts: string[];
  /** Connections accepted. */
  readonly connections: () => number;
  /** Connections open now, from any client. */
  readonly concurrent: () => number;
  /** The most connections that were open at once since the start (or the last resetPeak). */
  readonly peakConcurrent: () => number;
  resetPeak(): void;
  /** Transactions begun (MAIL FROM accepted). */
  readonly transactions: () => number;
  /** Whether a client upgraded with STARTTLS. */
  readonly tlsSessions: () => number;
  /** Source addresses of the connections accepted, in order. */
  readonly clients: string[];
  close(): Promise<void>;
}

function smtpError(code: number, text: string): Error & { responseCode: number } {
  return Object.assign(new Error(text), { responseCode: code });
}

const localPart = (address: string) => address.slice(0, address.lastIndexOf('@')).toLowerCase();

/** One fake MX host on `host:port` (port 0: any free port). */
export async function startFakeMx(options: FakeMxOptions = {}, host = '127.0.0.1', port = 0): Promise<FakeMx> {
  const mailboxes = new Set((options.mailboxes ?? []).map((m) => m.toLowerCase()));
  const exists = (address: string) => mailboxes.has(address.toLowerCase()) || mailboxes.has(localPart(address));
  const greylistSeen = new Map<string, number>();
  const blockedUntil = new Map<string, number>();
  const rcpts: string[] = [];
  const sockets = new Map<number, Socket>();
  let connections = 0;
  let peak = 0;
  // The connections open now: smtp-server's own set (a socket upgraded by STARTTLS never says it closed).
  const open = (): number => (server as unknown as { connections: Set<unknown> }).connections.size;
  let transactions = 0;
  let tlsSessions = 0;
  const clients: string[] = [];
  const clientOf = (session: SMTPServerSession) => session.remoteAddress.replace(/^::ffff:/, '');
  /** The refusal for this client at this stage, when options.refuseClients names it. */
  const refusal = (session: SMTPServerSession, at: 'connect' | 'mail' | 'rcpt') => {
    const refuse = options.refuseClients;
    if (!refuse || refuse.at !== at) return undefined;
    const ip = clientOf(session);
    const helo = typeof session.hostNameAppearsAs === 'string' ? session.hostNameAppearsAs.toLowerCase() : '';
    const named = refuse.addresses?.includes(ip) || (helo !== '' && refuse.heloNames?.some((h) => h.toLowerCase() === helo));
    return named ? smtpError(refuse.reply.code, refuse.reply.text.replaceAll('{ip}', ip)) : undefined;
  };

  const server = new SMTPServer({
    banner: 'fake-mx ESMTP ready',
    authOptional: true,
    disabledCommands: options.startTls === false ? ['AUTH', 'STARTTLS'] : ['AUTH'],
    hideENHANCEDSTATUSCODES: true, // real servers write their own enhanced codes into the text
    hideSMTPUTF8: options.smtpUtf8 === false,
    logger: false,
    disableReverseLookup: true,
    socketTimeout: 30_000,
    closeTimeout: 100,
    onConnect(session, callback) {
      connections += 1;
      clients.push(clientOf(session));
      peak = Math.max(peak, open());
      const refused = refusal(session, 'connect');
      if (refused) return callback(refused);
      if (options.banner421) return callback(smtpError(421, '4.7.0 fake-mx Service not available, too many connections'));
      callback();
    },
    onSecure(_socket, _session, callback) {
      tlsSessions += 1;
      callback();
    },
    onMailFrom(_address, session, callback) {
      transactions += 1;
      callback(refusal(session, 'mail'));
    },
    onRcptTo(address, session, callback) {
      const rcpt = address.address;
      rcpts.push(rcpt);
      if (options.dropAfterRcpts !== undefined && session.envelope.rcptTo.length >= options.dropAfterRcpts) {
        sockets.get(session.remotePort)?.destroy();
        return;
      }
      if (options.maxRcptsPerTransaction !== undefined && session.envelope.rcptTo.length >= options.maxRcptsPerTransaction)
        return callback(smtpError(452, '4.5.3 fake-mx Too many recipients'));
      if (/[^\x00-\x7f]/.test(rcpt.slice(0, rcpt.lastIndexOf('@'))) && !session.envelope.smtpUtf8)
        return callback(smtpError(553, '5.6.7 fake-mx Non-ASCII addresses require the SMTPUTF8 extension'));
      const answer = () => {
        if (options.dropAtRcpt) {
          sockets.get(session.remotePort)?.destroy();
          return;
        }
        callback(decide(rcpt, session));
      };
      if (options.tarpitMs) setTimeout(answer, options.tarpitMs);
      else answer();
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback(smtpError(554, '5.7.1 fake-mx does not take messages')));
    },
  });

  function decide(rcpt: string, session: SMTPServerSession): Error | undefined {
    const refused = refusal(session, 'rcpt');
    if (refused) return refused;
    const client = session.remoteAddress;
    const blocked = blockedUntil.get(client);
    if (blocked && blocked > Date.now()) {
      return smtpError(
        550,
        `5.7.606 Access denied, banned sending IP [${client}]. To request removal from this list please visit https://sender.office.com/`,
      );
    }
    if (options.oneRcptPerSession && session.envelope.rcptTo.length >= 1) {
      blockedUntil.set(client, Date.now() + (options.blockMs ?? 60_000));
      return smtpError(550, `5.7.606 Access denied, banned sending IP [${client}]. Too many recipients probed`);
    }
    const special = options.replies?.[rcpt.toLowerCase()] ?? options.replies?.[localPart(rcpt)];
    if (special) return special.code >= 400 ? smtpError(special.code, special.text) : undefined;
    if (options.greylist) {
      const key = `${client}|${session.envelope.mailFrom && session.envelope.mailFrom.address}|${rcpt.toLowerCase()}`;
      const first = greylistSeen.get(key);
      if (first === undefined || Date.now() - first < (options.greylistMs ?? 0)) {
        if (first === undefined) greylistSeen.set(key, Date.now());
        return smtpError(451, '4.7.1 Greylisted, please try again later');
      }
    }
    if (options.rcptReply) return options.rcptReply.code >= 400 ? smtpError(options.rcptReply.code, options.rcptReply.text) : undefined;
    if (options.acceptAll || exists(rcpt)) return undefined;
    const reply = options.unknownReply ?? {
      code: 550,
      text: `5.1.1 <${rcpt}>: Recipient address rejected: User unknown in virtual mailbox table`,
    };
    return smtpError(reply.code, reply.text);
  }

  server.on('error', () => {});
  // smtp-server keeps its net.Server here; we need the raw sockets to simulate a dropped connection.
  const netServer = (server as unknown as { server: import('node:net').Server }).server;
  netServer.on('connection', (socket: Socket) => {
    // smtp-server's listener came first: the new connection is in its set already.
    peak = Math.max(peak, open());
    sockets.set(socket.remotePort!, socket);
    socket.on('close', () => sockets.delete(socket.remotePort!));
  });
  await new Promise<void>((resolve, reject) => {
    netServer.once('error', reject);
    server.listen(port, host, () => {
      netServer.off('error', reject);
      resolve();
    });
  });
  const bound = netServer.address() as import('node:net').AddressInfo;
  return {
    host,
    port: bound.port,
    rcpts,
    connections: () => connections,
    concurrent: open,
    peakConcurrent: () => peak,
    resetPeak: () => (peak = open()),
    transactions: () => transactions,
    tlsSessions: () => tlsSessions,
    clients,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets.values()) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A TCP server that accepts connections and never says anything (a dead or tarpitting host). */
export async function startSilentServer(host: string, port: number): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface MailDomainOptions extends FakeMxOptions {
  /** MX host name (default "mx.<domain>"); a provider's suffix makes the domain look hosted there. */
  mxHost?: string;
  /** No MX record: the domain's A record points at the server (RFC 5321 implicit MX). */
  implicitMx?: boolean;
  /** The MX host accepts TCP connections but never sends a banner. */
  silent?: boolean;
}

export interface MailWorld {
  dns: FakeDns;
  /** The port every fake MX listens on. */
  port: number;
  /** Settings for the email engine: this DNS server, this port, loopback allowed, a probe identity. */
  emailConfig: { dnsServers: string[]; smtpPort: number; allowPrivateMx: true; heloName: string; mailFrom: string };
  /** Adds a domain served by a new fake MX on its own loopback address. */
  domain(name: string, options?: MailDomainOptions): Promise<FakeMx>;
  close(): Promise<void>;
}

/** The environment a `leadbase serve` child process needs to reach this world's DNS and MX hosts. */
export function mailWorldEnv(world: MailWorld): NodeJS.ProcessEnv {
  return {
    EMAIL_DNS_SERVERS: world.emailConfig.dnsServers.join(','),
    EMAIL_SMTP_PORT: String(world.emailConfig.smtpPort),
    EMAIL_ALLOW_PRIVATE_MX_TEST_ONLY: '1',
  };
}

/** A fake DNS server plus any number of fake MX hosts (127.0.0.2, .3, …) on one shared port. */
export async function startMailWorld(): Promise<MailWorld> {
  const dns = await startFakeDns();
  // A working resolver finds the engine's canary name (EMAIL_DNS_CANARY): this world's NXDOMAIN
  // answers are believed. `world.dns.clear(DEFAULT_DNS_CANARY)` makes it a sinkholed resolver.
  dns.a(DEFAULT_DNS_CANARY, ['192.0.2.1']);
  // Find a port free on 127.0.0.1; other loopback addresses almost always have it free too.
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const port = (probe.address() as import('node:net').AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const closers: (() => Promise<void>)[] = [];
  let nextHost = 2;

  async function bindSomewhere<T>(start: (host: string) => Promise<T>): Promise<{ host: string; value: T }> {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const host = `127.0.0.${nextHost++}`;
      try {
        return { host, value: await start(host) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      }
    }
    throw new Error('no free loopback address for a fake MX');
  }

  return {
    dns,
    port,
    emailConfig: {
      dnsServers: [dns.address],
      smtpPort: port,
      allowPrivateMx: true,
      heloName: 'probe.leadbase.test',
      mailFrom: 'verify@leadbase.test',
    },
    async domain(name, options = {}) {
      let mx: FakeMx;
      let host: string;
      if (options.silent) {
        const bound = await bindSomewhere((h) => startSilentServer(h, port));
        host = bound.host;
        closers.push(() => bound.value.close());
        mx = {
          host,
          port,
          rcpts: [],
          clients: [],
          connections: () => 0,
          concurrent: () => 0,
          peakConcurrent: () => 0,
          resetPeak: () => {},
          transactions: () => 0,
          tlsSessions: () => 0,
          close: () => bound.value.close(),
        };
      } else {
        const bound = await bindSomewhere((h) => startFakeMx(options, h, port));
        host = bound.host;
        mx = bound.value;
        closers.push(() => mx.close());
      }
      if (options.implicitMx) {
        dns.a(name, [host]);
      } else {
        const mxHost = options.mxHost ?? `mx.${name}`;
        dns.mx(name, [{ exchange: mxHost, priority: 10 }]);
        dns.a(mxHost, [host]);
      }
      return mx;
    },
    async close() {
      await Promise.all(closers.map((c) => c()));
      await dns.close();
    },
  };
}
