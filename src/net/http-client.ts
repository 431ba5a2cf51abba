// One HTTP client for everything we fetch from addresses others choose (scheduled crawls,
// discovery): a timeout on the whole exchange, a cap on the body, redirects followed by hand (at
// most a few, each hop checked), and only public addresses, checked on the address connected to.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { Agent, request, type Dispatcher } from 'undici';
import { ipLiteralOf, isPublicAddress, NotPublicError, publicOnlyLookup } from './ssrf.ts';

export interface HttpClientOptions {
  /** Sent on every request; names the operator's contact (CRAWL_USER_AGENT). */
  userAgent: string;
  /** The whole exchange, headers and body (default 15 s). */
  timeoutMs?: number;
  /** Largest body read (default 10 MiB); a larger one fails the fetch. */
  maxBytes?: number;
  /** Redirects followed at most (default 5). */
  maxRedirects?: number;
  /** TEST ONLY: these hosts (`host:port`) may be loopback or private; every other target must be public. */
  allowPrivateHosts?: readonly string[];
}

export interface FetchOptions {
  accept?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Overrides the client's body cap for this fetch. */
  maxBytes?: number;
  /** Overrides the client's time limit for this fetch (an upstream that publishes a longer one, such as a query service's). */
  timeoutMs?: number;
  /**
   * Origins the operator named for this fetch (a mirror: `bootstrap --mirror`, a source's
   * `--base-url`), as `http://host:port`. They may be on loopback or private addresses; every other
   * origin, a redirect's included, must be public.
   */
  operatorOrigins?: readonly string[];
  /** Told after each chunk of the body: bytes received so far, and the declared size (Content-Length) or null. */
  onBytes?: (received: number, declared: number | null) => void;
}

export interface FetchResult {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A fetch that failed before an answer: refused target, too many redirects, timeout, body too large. */
export class FetchError extends Error {
  constructor(
    message: string,
    readonly reason: 'not_public' | 'redirects' | 'timeout' | 'too_large' | 'network' | 'scheme',
    /** A network failure's system code (ENOTFOUND, ECONNREFUSED, …), so callers can tell an unreachable host from a broken exchange. */
    readonly code?: string,
  ) {
    super(message);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export class HttpClient {
  private readonly guarded: Dispatcher;
  private readonly open: Dispatcher;
  readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly allowPrivate: Set<string>;

  constructor(options: HttpClientOptions) {
    this.userAgent = options.userAgent;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxBytes = options.maxBytes ?? 10 * 1024 * 1024;
    this.maxRedirects = options.maxRedirects ?? 5;
    this.allowPrivate = new Set(options.allowPrivateHosts ?? []);
    this.guarded = new Agent({ connect: { lookup: publicOnlyLookup }, connections: 16 });
    this.open = new Agent({ connections: 16 });
  }

  async close(): Promise<void> {
    await Promise.all([this.guarded.close(), this.open.close()]);
  }

  /** GET `url`, following redirects; any HTTP status is an answer (the caller decides), a refused or failed exchange throws FetchError. */
  async get(url: string, options: FetchOptions = {}): Promise<FetchResult> {
    const limitMs = options.timeoutMs ?? this.timeoutMs;
    const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(limitMs)]) : AbortSignal.timeout(limitMs);
    const { response, answered, headers } = await this.follow(url, options, signal);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of this.cappedBody(response, answered, options.maxBytes ?? this.maxBytes, options.onBytes)) chunks.push(chunk);
    } catch (error) {
      throw this.failure(error, answered, signal, limitMs);
    }
    return { url: answered.toString(), status: response.statusCode, headers, body: Buffer.concat(chunks) };
  }

  /**
   * GET `url` into the file at `path`, for bodies too large to hold in memory (a data set of
   * hundreds of megabytes). The same guard, redirects and cap as `get` (the cap given here); the
   * timeout bounds each wait for the next bytes, not the whole transfer. A non-2xx answer writes
   * nothing and returns its status. Only a 2xx body is written.
   */
  async download(
    url: string,
    path: string,
    options: FetchOptions & { maxBytes: number },
  ): Promise<Omit<FetchResult, 'body'> & { bytes: number }> {
    const idle = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, idle.signal]) : idle.signal;
    const limitMs = options.timeoutMs ?? this.timeoutMs;
    let timer = setTimeout(() => idle.abort(), limitMs);
    const touch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => idle.abort(), limitMs);
    };
    try {
      const { response, answered, headers } = await this.follow(url, options, signal, touch);
      const result = { url: answered.toString(), status: response.statusCode, headers };
      if (response.statusCode < 200 || response.statusCode >= 300) {
        await response.body.dump().catch(() => {});
        return { ...result, bytes: 0 };
      }
      const bytes = await this.writeBody(response, answered, path, options.maxBytes, signal, touch, limitMs, options.onBytes);
      return { ...result, bytes };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Sends the GET and follows redirects by hand, each hop through the guard; the final answer with
   * its body unread. `onAnswer` is told when each answer's headers arrive.
   */
  private async follow(
    url: string,
    options: FetchOptions,
    signal: AbortSignal,
    onAnswer?: () => void,
  ): Promise<{ response: Dispatcher.ResponseData; answered: URL; headers: Record<string, string> }> {
    let current = new URL(url);
    for (let hop = 0; ; hop++) {
      const dispatcher = this.dispatcherFor(current, options.operatorOrigins);
      let response: Dispatcher.ResponseData;
      try {
        response = await request(current, {
          method: 'GET',
          dispatcher,
          signal,
          headers: { accept: options.accept ?? '*/*', 'user-agent': this.userAgent, ...options.headers },
        });
      } catch (error) {
        throw this.failure(error, current, signal, options.timeoutMs ?? this.timeoutMs);
      }
      onAnswer?.();
      const headers = flatten(response.headers);
      if (REDIRECTS.has(response.statusCode) && headers.location) {
        await response.body.dump().catch(() => {});
        if (hop >= this.maxRedirects) throw new FetchError(`${url}: more than ${this.maxRedirects} redirects`, 'redirects');
        current = new URL(headers.location, current);
        continue;
      }
      return { response, answered: current, headers };
    }
  }

  /**
   * The body's chunks. A body declared larger than the cap is refused at once (nothing read, nothing
   * written); one that grows past it is refused as soon as it does; either way the body is dropped.
   */
  private cappedBody(
    response: Dispatcher.ResponseData,
    url: URL,
    maxBytes: number,
    onBytes?: FetchOptions['onBytes'],
  ): AsyncGenerator<Buffer> {
    // Destroying a body we stop reading emits an abort error nobody else would listen to.
    response.body.on('error', () => {});
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.body.destroy();
      throw new FetchError(`${url}: body of ${declared} bytes is larger than the ${maxBytes}-byte cap`, 'too_large');
    }
    const declaredSize = Number.isFinite(declared) ? declared : null;
    return (async function* () {
      let size = 0;
      onBytes?.(0, declaredSize);
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          response.body.destroy();
          throw new FetchError(`${url}: body larger than the ${maxBytes}-byte cap`, 'too_large');
        }
        onBytes?.(size, declaredSize);
        yield chunk as Buffer;
      }
    })();
  }

  private async writeBody(
    response: Dispatcher.ResponseData,
    url: URL,
    path: string,
    maxBytes: number,
    signal: AbortSignal,
    touch: () => void,
    limitMs: number,
    onBytes?: FetchOptions['onBytes'],
  ): Promise<number> {
    const declared = Number(response.headers['content-length']);
    const chunks = this.cappedBody(response, url, maxBytes, onBytes);
    const out = createWriteStream(path);
    const closed = once(out, 'close');
    let size = 0;
    try {
      for await (const chunk of chunks) {
        touch();
        size += chunk.length;
        if (!out.write(chunk)) await once(out, 'drain');
      }
      if (Number.isFinite(declared) && size !== declared)
        throw new FetchError(`${url}: the body ended after ${size} of ${declared} bytes`, 'network');
    } catch (error) {
      out.destroy();
      await closed.catch(() => {});
      throw this.failure(error, url, signal, limitMs);
    }
    out.end();
    await closed;
    return size;
  }

  /** The guarded dispatcher, after checking what the lookup never sees (the scheme, an IP literal). */
  private dispatcherFor(url: URL, operatorOrigins: readonly string[] | undefined): Dispatcher {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new FetchError(`${url.protocol} URLs are not fetched (${url})`, 'scheme');
    if (this.allowPrivate.has(url.host) || operatorOrigins?.includes(url.origin)) return this.open;
    const literal = ipLiteralOf(url.hostname);
    if (literal && !isPublicAddress(literal)) throw new FetchError(`${url.origin}: ${literal} is not a public address`, 'not_public');
    return this.guarded;
  }

  private failure(error: unknown, url: URL, signal: AbortSignal, limitMs: number): FetchError {
    if (error instanceof FetchError) return error;
    if (signal.aborted) return new FetchError(`${url.origin}: no complete answer within ${limitMs} ms`, 'timeout');
    const cause = (error as { cause?: unknown }).cause ?? error;
    if (cause instanceof NotPublicError || (error as Error).message?.includes('not a public address'))
      return new FetchError(`${url.origin}: ${(cause as Error).message}`, 'not_public');
    const code = (cause as { code?: unknown }).code;
    return new FetchError(`${url.origin}: ${networkCause(cause, url.hostname)}`, 'network', typeof code === 'string' ? code : undefined);
  }
}

/** A network failure in words that say what went wrong ("could not resolve host x", not "getaddrinfo ENOTFOUND x"). */
function networkCause(cause: unknown, host: string): string {
  const code = (cause as { code?: unknown }).code;
  switch (code) {
    case 'ENOTFOUND':
      return `could not resolve host ${host} (no such name in DNS)`;
    case 'EAI_AGAIN':
      return `could not resolve host ${host} (DNS did not answer)`;
    case 'ECONNREFUSED':
      return `${host} refused the connection`;
    case 'ECONNRESET':
      return `${host} closed the connection`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} cannot be reached (no route)`;
  }
  return (cause as Error).message ?? String(cause);
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** Seconds or an HTTP date in Retry-After, as milliseconds from now (null when absent or unreadable). */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - now) : null;
}
