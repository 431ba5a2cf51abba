// The typed client of the leadbase API (package export `leadbase/client`): openapi-fetch over the
// types generated from our OpenAPI document. It sends the key, gives every POST an Idempotency-Key
// (one per call, kept across its retries, so a retried call is never charged twice), retries 429
// and 503 answers after their Retry-After, and turns an error answer into a LeadbaseError, and a
// server it cannot reach into a LeadbaseConnectionError (fetch's own is a bare "fetch failed").
//
//   const leadbase = createLeadbaseClient({ baseUrl: 'http://127.0.0.1:3000', apiKey });
//   const { data } = await leadbase.POST('/email-validate', { body: { email: 'jane@acme.com' } });
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './openapi-types.ts';

export type { components, operations, paths } from './openapi-types.ts';

export interface LeadbaseClientOptions {
  /** Where the API is served, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** Sent as X-API-Key. */
  apiKey: string;
  /** Retries of a 429 or 503 answer (default 3). */
  retries?: number;
  /** Longest wait before a retry, whatever Retry-After says (default 30 s). */
  maxRetryDelayMs?: number;
  /** The fetch to use (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

/** An error answer of the API, with its envelope: `{"error": code, "message", "details"?}`. */
export class LeadbaseError extends Error {
  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The machine-readable code: invalid_request, insufficient_credits, rate_limited, … */
    readonly code: string,
    message: string,
    /** Which field broke which rule, for invalid_request. */
    readonly details: { field: string; message: string }[] | undefined,
    /** The request id the server logged it under. */
    readonly requestId: string | undefined,
  ) {
    super(message);
    this.name = 'LeadbaseError';
  }
}

/** Why a server could not be reached, in a word (LeadbaseConnectionError.reason). */
export type ConnectionFailure = 'connection_refused' | 'dns' | 'timeout' | 'connection_reset' | 'unreachable' | 'tls' | 'other';

/** No answer at all: the server is down, its name does not resolve, or it did not answer in time. */
export class LeadbaseConnectionError extends Error {
  constructor(
    /** The base URL the client was made with. */
    readonly baseUrl: string,
    readonly reason: ConnectionFailure,
    /** The system's code when there is one: ECONNREFUSED, ENOTFOUND, ETIMEDOUT, UND_ERR_CONNECT_TIMEOUT… */
    readonly code: string | undefined,
    options: { cause: unknown },
  ) {
    super(`Could not reach the leadbase API at ${baseUrl}: ${REASON_TEXT[reason]}${code ? ` (${code})` : ''}.`, options);
    this.name = 'LeadbaseConnectionError';
  }
}

const REASON_TEXT: Record<ConnectionFailure, string> = {
  connection_refused: 'connection refused (is the server running, on this host and port?)',
  dns: 'its host name does not resolve',
  timeout: 'no answer in time',
  connection_reset: 'the connection was closed before an answer',
  unreachable: 'no route to its host',
  tls: 'the TLS handshake failed',
  other: 'the request failed before any answer',
};

const CODE_REASONS: Record<string, ConnectionFailure> = {
  ECONNREFUSED: 'connection_refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
};

/** fetch's "fetch failed" TypeError carries the socket's error as its cause (an AggregateError when every address of the host failed). */
function connectionFailure(error: unknown): { reason: ConnectionFailure; code: string | undefined } {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && typeof e === 'object' && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const named = e as { name?: unknown; code?: unknown; errors?: unknown };
    if (named.name === 'TimeoutError') return { reason: 'timeout', code: undefined };
    const code =
      typeof named.code === 'string' ? named.code : Array.isArray(named.errors) ? (named.errors[0] as { code?: string })?.code : undefined;
    if (code) return { reason: CODE_REASONS[code] ?? (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') ? 'tls' : 'other'), code };
  }
  return { reason: 'other', code: undefined };
}

export type LeadbaseClient = Client<paths>;

/** Seconds in Retry-After as milliseconds (an HTTP date too); `fallback` when absent. */
function retryDelay(header: string | null, fallback: number): number {
  if (!header) return fallback;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : fallback;
}

export function createLeadbaseClient(options: LeadbaseClientOptions): LeadbaseClient {
  const retries = options.retries ?? 3;
  const maxDelay = options.maxRetryDelayMs ?? 30_000;
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const reach = async (request: Request) => {
    try {
      return await send(request);
    } catch (error) {
      // An abort the caller asked for stays theirs; anything else never got an answer from the server.
      if (request.signal.aborted) throw error;
      const { reason, code } = connectionFailure(error);
      throw new LeadbaseConnectionError(baseUrl, reason, code, { cause: error });
    }
  };
  const client = createClient<paths>({
    baseUrl,
    headers: { 'x-api-key': options.apiKey },
    // The same request (and so the same Idempotency-Key) again after a 429 or 503.
    fetch: async (request) => {
      for (let attempt = 0; ; attempt++) {
        const response = await reach(request.clone());
        if ((response.status !== 429 && response.status !== 503) || attempt >= retries) return response;
        await response.body?.cancel();
        await sleep(Math.min(maxDelay, retryDelay(response.headers.get('retry-after'), 1000 * 2 ** attempt)));
      }
    },
  });
  client.use({
    onRequest({ request }) {
      if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', randomUUID());
      return request;
    },
    async onResponse({ response }) {
      if (response.ok) return response;
      let body: { error?: unknown; message?: unknown; details?: unknown } = {};
      try {
        body = (await response.clone().json()) as typeof body;
      } catch {
        // Not our envelope (a proxy's page): the status says what happened.
      }
      throw new LeadbaseError(
        response.status,
        typeof body.error === 'string' ? body.error : `http_${response.status}`,
        typeof body.message === 'string' ? body.message : `HTTP ${response.status}`,
        Array.isArray(body.details) ? (body.details as { field: string; message: string }[]) : undefined,
        response.headers.get('x-request-id') ?? undefined,
      );
    },
  });
  return client;
}
