// Every failure leaves the API as {"error": code, "message": text, "details"?: [...]} (docs/contract.md, Errors).

export interface ErrorDetail {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
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
