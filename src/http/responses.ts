// What each operation can answer, for its OpenAPI description: exactly the statuses it can return
// (with what each means in our envelope) and the headers that come with them (docs/contract.md).
import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorResponse } from '../contract/common.ts';

const header = (description: string, type: 'string' | 'integer' | 'number' = 'string') => ({ type, description });

const REQUEST_ID = { 'X-Request-Id': header('The request id (the one the client sent when sane, else ours); logs carry it') };
const RATE_LIMIT = {
  'RateLimit-Limit': header('Requests allowed per minute for this key and operation', 'integer'),
  'RateLimit-Remaining': header('Requests left in the current window', 'integer'),
  'RateLimit-Reset': header('Seconds until the window resets', 'integer'),
};
const CREDITS = {
  'X-Credits-Cost': header('Credits this call charged (0 when nothing was found)', 'number'),
  'X-Credits-Remaining': header("The key's balance after the charge", 'number'),
};
const RETRY_AFTER = { 'Retry-After': header('Seconds to wait before trying again', 'integer') };

/** A response schema with its description and headers, as @fastify/swagger reads them. */
function described(schema: TSchema, description: string, headers: Record<string, unknown>): TSchema {
  // A schema's own description (a streamed body says what its lines are) is the more precise one.
  return { ...schema, description: schema.description ?? description, headers };
}

function error(description: string, headers: Record<string, unknown> = {}): TSchema {
  return described(ErrorResponse, description, { ...REQUEST_ID, ...headers });
}

export interface ResponseTraits {
  method: 'GET' | 'POST' | 'DELETE';
  /** The operation charges credits (402 before any work when the balance cannot cover the minimum). */
  charged: boolean;
  /** It reads a body, path parameters or a query: 400 on invalid input. */
  hasInput: boolean;
  /** It addresses a stored resource by id (404 when there is none for this key). */
  byId: boolean;
  /** 202 instead of 200. */
  accepted: boolean;
  /** A protocol endpoint answering on its own (/mcp): no idempotency, its own refusals. */
  rawAnswer?: boolean;
  successDescription: string;
}

/** The responses an operation documents, keyed by status. */
export function responsesOf(success: TSchema, traits: ResponseTraits): Record<number, TSchema> {
  const okHeaders = { ...REQUEST_ID, ...RATE_LIMIT, ...(traits.charged ? CREDITS : {}) };
  const responses: Record<number, TSchema> = {
    [traits.accepted ? 202 : 200]: described(success, traits.successDescription, okHeaders),
    401: error('missing_api_key (no X-API-Key header) or invalid_api_key (unknown or revoked key)'),
    429: error('rate_limited: the per-minute limit of this key and operation is reached', { ...RATE_LIMIT, ...RETRY_AFTER }),
    500: error('internal_error: an unexpected fault; nothing was charged'),
    503: error('unavailable: the database is unreachable for now; nothing was charged', RETRY_AFTER),
  };
  if (traits.hasInput) responses[400] = error('invalid_request: the input breaks a rule; `details` names each field');
  if (traits.charged) responses[402] = error('insufficient_credits: the balance cannot cover this call; no work was done', CREDITS);
  if (traits.byId) responses[404] = error('not_found: no such job for this key');
  if (traits.rawAnswer) {
    responses[400] = error('invalid_request: the body is not a JSON-RPC 2.0 message');
    responses[406] = error('not_acceptable: the Accept header lacks application/json or text/event-stream');
    responses[413] = error('payload_too_large: the request body is larger than allowed');
    responses[415] = error('unsupported_media_type: the body is not JSON');
  } else if (traits.method === 'POST') {
    responses[409] = error(
      traits.byId
        ? "idempotency_in_flight: a request with this Idempotency-Key is still being processed; or invalid_state: the job's state does not allow this call"
        : 'idempotency_in_flight: a request with this Idempotency-Key is still being processed',
    );
    responses[413] = error('payload_too_large: the request body is larger than allowed');
    responses[415] = error('unsupported_media_type: the body is not JSON (or, where accepted, CSV)');
    responses[422] = error('idempotency_key_reused: this Idempotency-Key was used with another request body');
  }
  return responses;
}

/** The Idempotency-Key header every POST accepts. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        'Makes a retry safe: the first answer for this key (and body) is stored for 24 hours and replayed, never charged twice. Up to 255 characters.',
    }),
  ),
});
