// The typed client of the leadbase API (package export `leadbase/client`): openapi-fetch over the
// types generated from our OpenAPI document. It sends the key, gives every POST an Idempotency-Key
// (one per call, kept across its retries, so a retried call is never charged twice), retries 429
// and 503 answers after their Retry-After, and turns an error answer into a LeadbaseError.
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
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { 'x-api-key': options.apiKey },
    // The same request (and so the same Idempotency-Key) again after a 429 or 503.
    fetch: async (request) => {
      for (let attempt = 0; ; attempt++) {
        const response = await send(request.clone());
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
