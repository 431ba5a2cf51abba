// A minimal SMTP client for probing (RFC 5321): connect (directly or through SOCKS5), read
// single- and multi-line replies, send commands, upgrade with STARTTLS. It never sends DATA.
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';

export interface SmtpReply {
  code: number;
  /** RFC 3463 enhanced status code when the server wrote one ("5.1.1"), else null. */
  enhanced: string | null;
  /** Reply text without code and enhanced code, lines joined by a space. */
  text: string;
}

export class SmtpError extends Error {
  constructor(
    readonly kind: 'connect' | 'timeout' | 'dropped' | 'tls' | 'protocol',
    message: string,
  ) {
    super(message);
  }
}

export interface SocksProxy {
  host: string;
  port: number;
  userId?: string;
  password?: string;
}

/** Reads socks5://[user:pass@]host:port; `name` says which setting was wrong. */
export function parseSocksUrl(url: string, name = 'EMAIL_SOCKS_PROXY'): SocksProxy {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new Error(`${name} must be a socks5:// URL`, { cause: error });
  }
  if ((parsed.protocol !== 'socks5:' && parsed.protocol !== 'socks:') || !parsed.hostname)
    throw new Error(`${name} must be a socks5:// URL`);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 1080),
    userId: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
  };
}

export interface SmtpConnectOptions {
  ip: string;
  port: number;
  connectTimeoutMs: number;
  commandTimeoutMs: number;
  socks?: SocksProxy;
  /** Local address to connect from (direct connections only). */
  localAddress?: string;
  signal?: AbortSignal;
}

const ENHANCED = /^([245])\.(\d{1,3})\.(\d{1,3})(?:\s+|$)/;
const NON_ASCII = /[\x80-\xff]/;

// Our own closing of a session: one shared error, as a stack trace per closed session says nothing.
const CLOSED = new SmtpError('dropped', 'closed');

export class SmtpSession {
  private buffer = '';
  private lines: string[] = [];
  private waiter: { resolve: (reply: SmtpReply) => void; reject: (error: Error) => void } | null = null;
  private failure: SmtpError | null = null;
  private readonly queued: SmtpReply[] = [];
  tls = false;

  private constructor(
    private socket: Socket | TLSSocket,
    private readonly commandTimeoutMs: number,
  ) {
    this.attach(socket);
  }

  /** Connects and reads the banner. The signal (a deadline) closes the session while it is being opened. */
  static async open(options: SmtpConnectOptions): Promise<{ session: SmtpSession; banner: SmtpReply }> {
    const socket = await openSocket(options);
    const session = new SmtpSession(socket, options.commandTimeoutMs);
    const unbind = options.signal ? session.bindAbort(options.signal) : () => {};
    try {
      const banner = await session.read();
      return { session, banner };
    } finally {
      unbind();
    }
  }

  /** Closes the session if `signal` aborts while bound; returns the unbinding function. */
  bindAbort(signal: AbortSignal): () => void {
    const abort = () => this.close();
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    return () => signal.removeEventListener('abort', abort);
  }

  /** False once the connection failed, timed out or was closed by either side. */
  get open(): boolean {
    return this.failure === null && !this.socket.destroyed;
  }

  /** Transactions (MAIL FROM) done on this connection, and what EHLO offered. */
  transactions = 0;
  pipelining = false;
  /** RFC 6531: the server takes UTF-8 addresses (MAIL FROM … SMTPUTF8). */
  smtpUtf8 = false;

  private attach(socket: Socket | TLSSocket): void {
    // Bytes are read as latin1 (one character per byte, so a chunk boundary never splits one);
    // the rare line with other than ASCII is decoded as UTF-8 once complete.
    socket.on('data', (chunk: Buffer) => this.onData(chunk.toString('latin1')));
    socket.on('error', (error) => this.failed() || this.fail(new SmtpError('dropped', error.message)));
    socket.on('close', () => this.failed() || this.fail(new SmtpError('dropped', 'connection closed by the server')));
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    if (this.buffer.length > 64 * 1024) {
      this.fail(new SmtpError('protocol', 'reply too long'));
      this.socket.destroy();
      return;
    }
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      let line = this.buffer.slice(0, newline).replace(/\r$/, '');
      if (NON_ASCII.test(line)) line = Buffer.from(line, 'latin1').toString('utf8');
      this.buffer = this.buffer.slice(newline + 1);
      this.lines.push(line);
      // The last line of a reply has a space (or nothing) after the code; others a hyphen.
      if (!/^\d{3}-/.test(line)) this.complete();
    }
  }

  private complete(): void {
    const lines = this.lines;
    this.lines = [];
    const code = Number(lines.at(-1)!.slice(0, 3));
    if (!Number.isInteger(code) || code < 200 || code > 599) {
      this.fail(new SmtpError('protocol', `not an SMTP reply: ${lines.at(-1)!.slice(0, 80)}`));
      return;
    }
    let enhanced: string | null = null;
    const texts = lines.map((l) => {
      let text = l.slice(4);
      const match = ENHANCED.exec(text);
      if (match) {
        enhanced ??= `${match[1]}.${match[2]}.${match[3]}`;
        text = text.slice(match[0].length);
      }
      return text.trim();
    });
    const reply: SmtpReply = { code, enhanced, text: texts.join(' ').trim() };
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = null;
      waiter.resolve(reply);
    } else this.queued.push(reply);
  }

  private failed(): boolean {
    return this.failure !== null;
  }

  private fail(error: SmtpError): void {
    if (this.failure) return;
    this.failure = error;
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.reject(error);
  }

  /** The next reply, or a timeout / dropped error. */
  read(): Promise<SmtpReply> {
    const queued = this.queued.shift();
    if (queued) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<SmtpReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new SmtpError('timeout', `no reply within ${this.commandTimeoutMs} ms`));
        this.close();
      }, this.commandTimeoutMs);
      this.waiter = {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  }

  async command(line: string): Promise<SmtpReply> {
    if (this.failure) throw this.failure;
    this.socket.write(`${line}\r\n`);
    return this.read();
  }

  /** RFC 2920 pipelining: writes every command at once, then reads one reply per command. */
  async pipeline(lines: string[]): Promise<SmtpReply[]> {
    if (this.failure) throw this.failure;
    this.socket.write(lines.map((l) => `${l}\r\n`).join(''));
    const replies: SmtpReply[] = [];
    for (let i = 0; i < lines.length; i += 1) replies.push(await this.read());
    return replies;
  }

  /** Upgrades the connection after a 220 to STARTTLS. Opportunistic TLS: certificates are not checked. */
  async startTls(servername: string): Promise<void> {
    const plain = this.socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('close');
    plain.removeAllListeners('error');
    const secure = await new Promise<TLSSocket>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new SmtpError('timeout', 'TLS handshake timed out'));
      }, this.commandTimeoutMs);
      const socket = tlsConnect({ socket: plain, servername: isIp(servername) ? undefined : servername, rejectUnauthorized: false }, () => {
        clearTimeout(timer);
        resolve(socket);
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(new SmtpError('tls', error.message));
      });
    });
    this.socket = secure;
    this.buffer = '';
    this.attach(secure);
    this.tls = true;
  }

  /** Says QUIT and half-closes; the reply (221) says nothing we need, so it is not awaited. */
  quit(): void {
    if (!this.failure && !this.socket.destroyed) this.socket.end('QUIT\r\n');
    this.fail(CLOSED);
  }

  close(): void {
    this.fail(CLOSED);
    this.socket.destroy();
  }
}

const isIp = (s: string) => /^[\d.]+$/.test(s) || s.includes(':');

async function openSocket(options: SmtpConnectOptions): Promise<Socket> {
  if (options.signal?.aborted) throw new SmtpError('timeout', 'deadline passed');
  if (options.socks) {
    try {
      // Loaded on the first proxied connection: every command reads the settings this module
      // parses, and the SOCKS client is a sixth of a short command's start-up.
      const { SocksClient } = await import('socks');
      const { socket } = await SocksClient.createConnection({
        proxy: {
          host: options.socks.host,
          port: options.socks.port,
          type: 5,
          userId: options.socks.userId,
          password: options.socks.password,
        },
        command: 'connect',
        destination: { host: options.ip, port: options.port },
        timeout: options.connectTimeoutMs,
      });
      return socket;
    } catch (error) {
      throw new SmtpError('connect', `SOCKS5 proxy: ${(error as Error).message}`);
    }
  }
  return new Promise<Socket>((resolve, reject) => {
    // No Nagle: a command is one small write, and waiting for an ACK before the next costs a delayed-ACK period.
    const socket = netConnect({ host: options.ip, port: options.port, noDelay: true, localAddress: options.localAddress });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new SmtpError('timeout', `connect timed out after ${options.connectTimeoutMs} ms`));
    }, options.connectTimeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(new SmtpError('connect', error.message));
    });
  });
}
