/**
 * A request value a domain service refuses (an unknown id, a value out of its range): the caller's
 * mistake, answered 400 invalid_request naming the field. Domains throw it; the HTTP layer maps it.
 */
export class InvalidInputError extends Error {
  constructor(
    /** The request field at fault, as its JSON name (e.g. "country_id"). */
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
