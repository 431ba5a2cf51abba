// The errors an operation answers with, free of any web framework: each carries the contract's
// status and code, and every surface turns it into its own envelope (src/http/plugins/errors.ts for
// our paths and LeadMagic's, a refused row for a bulk job).
// Every failure leaves the API as {"error": code, "message": text, "details"?: [...]} (docs/contract.md, Errors).

export interface ErrorDetail {
  field: string;
  message: string;
}

/** Every `error` code the API answers with (docs/contract.md, Errors). */
export type ErrorCode =
  | 'invalid_request'
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'insufficient_credits'
  | 'not_found'
  | 'idempotency_in_flight'
  | 'payload_too_large'
  | 'unsupported_media_type'
  // /mcp: an MCP client accepts JSON and event streams; it only POSTs (a stateless server).
  | 'not_acceptable'
  | 'method_not_allowed'
  | 'idempotency_key_reused'
  | 'rate_limited'
  | 'internal_error'
  | 'unavailable'
  // The delivery webhooks (operator endpoints, not part of the client contract).
  | 'invalid_webhook_token'
  | 'invalid_signature'
  // The admin API (operators, docs/sources.md).
  | 'missing_admin_token'
  | 'invalid_admin_token'
  | 'source_busy'
  // The console's bootstrap: one at a time (docs/console.md, "Bootstrap").
  | 'bootstrap_running'
  | 'bootstrap_not_running'
  // The console's sessions (docs/console.md).
  | 'sign_in_refused'
  | 'session_expired'
  | 'csrf_token_invalid'
  | 'forbidden'
  | 'spend_cap_reached'
  // A bulk job's lifecycle call its state does not allow (docs/bulk.md, "Life of a job").
  | 'invalid_state';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export class InvalidRequestError extends AppError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(400, 'invalid_request', message, details);
  }
}

/** Rules of the form "at least one of these fields". Blank strings do not count. */
export function requireOneOf(body: Record<string, unknown>, fields: string[]): void {
  const present = fields.some((f) => typeof body[f] === 'string' && body[f].trim() !== '');
  if (!present) {
    const list = fields.length === 2 ? `${fields[0]} or ${fields[1]}` : `${fields.slice(0, -1).join(', ')} or ${fields.at(-1)}`;
    throw new InvalidRequestError(
      `Provide at least one of ${list}.`,
      fields.map((field) => ({ field: `/${field}`, message: 'at least one of these fields is required' })),
    );
  }
}

/** A required string that must not be blank. */
export function requireNonBlank(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new InvalidRequestError(`${field} is required.`, [{ field: `/${field}`, message: 'must be a non-empty string' }]);
  }
  return value.trim();
}
